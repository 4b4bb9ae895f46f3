import TestTurns
import Testing

@testable import CLISupport

/// `TOOL [COMMAND] [OPTIONS]`, help and usage errors, the same for both tools.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CommandLineToolTests {
    struct Serve: Command, Equatable {
        static let name = "serve"
        static let usage = "Usage: tool serve [--port N]"
        var port: UInt16 = 8080

        static func parse(_ reader: inout OptionReader) throws(UsageError) -> Serve {
            var serve = Serve()
            while let argument = reader.next() {
                guard argument == .option("--port") else { throw reader.unknown() }
                serve.port = try reader.value("a number from 0 to 65535") { UInt16($0) }
            }
            return serve
        }

        func run() async -> Int32 { Int32(port) }
    }

    struct Check: Command, Equatable {
        static let name = "check"
        static let usage = "Usage: tool check DIR"
        var folder: String

        static func parse(_ reader: inout OptionReader) throws(UsageError) -> Check {
            Check(folder: try reader.onlyOperand("folder"))
        }

        func run() async -> Int32 { 0 }
    }

    private static let overview = "Usage: tool [COMMAND]"
    private let tool = CommandLineTool(
        name: "tool", overview: overview, commands: [Serve.self, Check.self], defaultCommand: "serve")

    /// What `tool.parse` gave, as text: `help: ...`, the parsed command, or the error.
    private func outcome(_ arguments: [String], tool: CommandLineTool? = nil) -> String {
        do {
            switch try (tool ?? self.tool).parse(arguments) {
            case .help(let text): return "help: \(text)"
            case .run(let command): return "run: \(command)"
            }
        } catch {
            return "error: \(error.message) / usage of \(error.command ?? "the tool")"
        }
    }

    @Test(arguments: [
        ([String](), "run: Serve(port: 8080)"),
        (["--port", "1"], "run: Serve(port: 1)"),
        (["serve", "--port=2"], "run: Serve(port: 2)"),
        (["check", "dir"], #"run: Check(folder: "dir")"#),
        (["--help"], "help: Usage: tool [COMMAND]"),
        (["-h"], "help: Usage: tool [COMMAND]"),
        (["serve", "--help"], "help: Usage: tool serve [--port N]"),
        (["--port", "1", "--help"], "help: Usage: tool serve [--port N]"),
        (["check", "-h"], "help: Usage: tool check DIR"),
        (["help"], "help: Usage: tool [COMMAND]"),
        (["help", "check"], "help: Usage: tool check DIR"),
        (["help", "launch"], "error: unknown command 'launch' / usage of the tool"),
        (["help", "a", "b"], "error: help takes at most one command / usage of help"),
        (["launch"], "error: unknown command 'launch' / usage of the tool"),
        (["serve", "--port", "x"], "error: --port must be a number from 0 to 65535, not 'x' / usage of serve"),
        (["check"], "error: check takes one folder / usage of check"),
    ])
    func aCommandLine_isHelpACommandOrAUsageError(arguments: [String], expected: String) {
        #expect(outcome(arguments) == expected)
    }

    @Test func withoutADefault_aCommandMustBeNamed() {
        let strict = CommandLineTool(name: "tool", overview: Self.overview, commands: [Serve.self, Check.self])
        #expect(outcome(["--port", "1"], tool: strict) == "error: name a command / usage of the tool")
        #expect(outcome(["--help"], tool: strict) == "help: Usage: tool [COMMAND]")
        #expect(outcome(["serve", "--port", "3"], tool: strict) == "run: Serve(port: 3)")
    }

    @Test func usageOfAnErrorsCommand_isItsUsageElseTheOverview() {
        #expect(tool.usage(of: "check") == Check.usage)
        #expect(tool.usage(of: "help") == Self.overview)
        #expect(tool.usage(of: nil) == Self.overview)
    }

    @Test func run_returnsTheCommandsExitCode() async {
        #expect(await tool.run(["--port", "7"]) == 7)
    }
}
