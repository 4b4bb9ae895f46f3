import CLISupport
import Foundation

// A client hanging up mid-answer must not end the process (the library's sockets already avoid SIGPIPE).
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
if arguments.contains("--help") || arguments.contains("-h") {
    switch arguments.first {
    case "import": Output.line(ImportCommand.usage)
    case "drift": Output.line(DriftCommand.usage)
    default: Output.line(RecordCommand.usage)
    }
    code = 0
} else if arguments.first == "drift" {
    do throws(UsageMessage) {
        let command = try DriftCommand.parse(arguments)
        code = await command.run()
    } catch {
        Output.error("stub-server: \(error.text)\n\n\(DriftCommand.usage)")
        code = 64
    }
} else if arguments.first == "import" {
    do throws(UsageMessage) {
        let command = try ImportCommand.parse(arguments)
        code = await command.run()
    } catch {
        Output.error("stub-server: \(error.text)\n\n\(ImportCommand.usage)")
        code = 64
    }
} else {
    do throws(UsageMessage) {
        let command = try RecordCommand.parse(arguments)
        code = await command.run(environment: ProcessInfo.processInfo.environment)
    } catch {
        Output.error("stub-server: \(error.text)\n\n\(RecordCommand.usage)")
        code = 64
    }
}
exit(code)
