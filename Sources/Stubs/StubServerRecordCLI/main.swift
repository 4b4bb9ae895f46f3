import CLISupport
import Foundation

// A client hanging up mid-answer must not end the process (the library's sockets already avoid SIGPIPE).
signal(SIGPIPE, SIG_IGN)
// `stub-server record`, `serve --proxy`, `drift`, `import` and `coverage`, which `stub-server` hands to this program.
let tool = CommandLineTool(
    name: "stub-server", overview: RecordCommand.usage,
    commands: [RecordCommand.self, ProxyCommand.self, DriftCommand.self, ImportCommand.self, CoverageCommand.self])
exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
