import Foundation

let code = await StubServerTool.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
