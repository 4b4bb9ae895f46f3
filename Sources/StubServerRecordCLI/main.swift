import CLISupport
import Foundation

// A client hanging up mid-answer must not end the process (the library's sockets already avoid SIGPIPE).
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
if arguments.contains("--help") || arguments.contains("-h") {
    Output.line(RecordCommand.usage)
    code = 0
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
