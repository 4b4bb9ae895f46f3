/// A tool of several commands, with one convention: `TOOL [COMMAND] [OPTIONS]`; `-h` or `--help` anywhere, or
/// `TOOL help [COMMAND]`, prints usage and exits 0; a usage error prints `TOOL: message` and the usage to stderr and
/// exits 64.
package struct CommandLineTool: Sendable {
    /// The name errors begin with.
    package var name: String
    /// The usage printed for the tool as a whole.
    package var overview: String
    package var commands: [any Command.Type]
    /// The command run when the first argument is an option or there is none; nil when one must be named.
    package var defaultCommand: String?

    package init(name: String, overview: String, commands: [any Command.Type], defaultCommand: String? = nil) {
        self.name = name
        self.overview = overview
        self.commands = commands
        self.defaultCommand = defaultCommand
    }

    /// What a command line asks for.
    package enum Invocation {
        /// Print this usage text and exit 0.
        case help(String)
        case run(any Command)
    }

    /// Reads a command line (without the program's name).
    package func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var rest = arguments[...]
        let named: String?
        if let first = rest.first, !first.hasPrefix("-") {
            named = first
            rest = rest.dropFirst()
        } else {
            named = nil
        }
        if named == "help" {
            guard rest.count <= 1 else { throw UsageError("help takes at most one command", command: "help") }
            guard let topic = rest.first else { return .help(overview) }
            guard let command = command(named: topic) else {
                throw UsageError("unknown command '\(topic)'", command: nil)
            }
            return .help(command.usage)
        }
        guard let commandName = named ?? defaultCommand else {
            if rest.contains("--help") || rest.contains("-h") { return .help(overview) }
            throw UsageError("name a command", command: nil)
        }
        guard let command = command(named: commandName) else {
            throw UsageError("unknown command '\(commandName)'", command: nil)
        }
        if rest.contains("--help") || rest.contains("-h") {
            // `TOOL --help` alone is about the tool; with a command or its options, about the command.
            return .help(named == nil && rest.count == 1 ? overview : command.usage)
        }
        var reader = OptionReader(rest, command: commandName)
        return .run(try command.parse(&reader))
    }

    /// Parses and runs a command line; returns the exit code: the command's, 0 for help, 64 for bad usage.
    package func run(_ arguments: [String]) async -> Int32 {
        do {
            switch try parse(arguments) {
            case .help(let text):
                Output.line(text)
                return 0
            case .run(let command):
                return await command.run()
            }
        } catch {
            Output.error("\(name): \(error.message)\n\n\(usage(of: error.command))")
            return 64
        }
    }

    /// The usage of the command named `name`, or the overview.
    package func usage(of name: String?) -> String {
        name.flatMap { command(named: $0)?.usage } ?? overview
    }

    private func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }
}
