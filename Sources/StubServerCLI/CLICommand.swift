/// A parsed `stub-server` command line.
enum CLICommand: Equatable {
    case serve(ServeOptions)
    case validate(folder: String)
    case routes(folder: String)
    /// Print help for a command (nil: the overview).
    case help(String?)

    /// What `serve` was asked to do.
    struct ServeOptions: Equatable {
        var fixtures = "MockData"
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var variant: String?
        /// Answer every GET with this file instead of serving a fixtures folder.
        var file: String?
        /// The chance, 0...1, that a stubbed answer becomes a fault.
        var chaos: Double = 0
        /// The seed of random faults and chaos; nil picks one.
        var seed: UInt64?
        /// Reload the fixtures folder when a file in it changes.
        var watch = false
        /// Where to write the base URL once the server accepts connections.
        var readyFile: String?
        /// Most open connections; nil: what the open-file limit leaves room for.
        var maxConnections: Int?
    }

    /// Parses the arguments after the program name.
    /// - Throws: `UsageError` for unknown commands or flags and missing or invalid values.
    static func parse(_ arguments: [String]) throws(UsageError) -> CLICommand {
        var rest = arguments[...]
        let command: String
        if let first = rest.first, !first.hasPrefix("-") {
            command = first
            rest = rest.dropFirst()
        } else {
            command = "serve"
        }
        if rest.contains("--help") || rest.contains("-h") {
            return .help(command == "serve" && arguments.first != "serve" && arguments.count == 1 ? nil : command)
        }
        switch command {
        case "serve": return .serve(try parseServe(rest))
        case "validate": return .validate(folder: try onlyFolder(rest, command: command))
        case "routes": return .routes(folder: try onlyFolder(rest, command: command))
        case "help":
            guard rest.count <= 1 else { throw UsageError("help takes at most one command", command: "help") }
            if let topic = rest.first, !Help.commands.contains(topic) {
                throw UsageError("unknown command '\(topic)'", command: nil)
            }
            return .help(rest.first)
        default:
            throw UsageError("unknown command '\(command)'", command: nil)
        }
    }

    private static func parseServe(_ arguments: ArraySlice<String>) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        var rest = arguments
        while let flag = rest.popFirst() {
            let (name, inline) = split(flag)
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError("\(name) needs a value", command: "serve")
                }
                return next
            }
            switch name {
            case "--fixtures": options.fixtures = try value()
            case "--host": options.host = try value()
            case "--variant": options.variant = try value()
            case "--file": options.file = try value()
            case "--ready-file": options.readyFile = try value()
            case "--watch":
                guard inline == nil else { throw UsageError("--watch takes no value", command: "serve") }
                options.watch = true
            case "--chaos":
                let text = try value()
                guard let rate = Double(text), (0...1).contains(rate) else {
                    throw UsageError("--chaos must be a number from 0 to 1, not '\(text)'", command: "serve")
                }
                options.chaos = rate
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else {
                    throw UsageError(
                        "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'", command: "serve")
                }
                options.seed = seed
            case "--max-connections":
                let text = try value()
                guard let limit = Int(text), limit > 0 else {
                    throw UsageError(
                        "--max-connections must be a whole number above 0, not '\(text)'", command: "serve")
                }
                options.maxConnections = limit
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else {
                    throw UsageError("--port must be a number from 0 to 65535, not '\(text)'", command: "serve")
                }
                options.port = port
            default:
                throw UsageError("unknown option '\(flag)'", command: "serve")
            }
        }
        if options.watch, options.file != nil {
            throw UsageError("--watch watches a fixtures folder; it cannot be used with --file", command: "serve")
        }
        return options
    }

    private static func onlyFolder(_ arguments: ArraySlice<String>, command: String) throws(UsageError) -> String {
        if let flag = arguments.first(where: { $0.hasPrefix("-") }) {
            throw UsageError("unknown option '\(flag)'", command: command)
        }
        guard arguments.count == 1, let folder = arguments.first else {
            throw UsageError("\(command) takes one fixtures folder", command: command)
        }
        return folder
    }

    /// Splits `--name=value` into its name and value.
    private static func split(_ flag: String) -> (String, String?) {
        guard flag.hasPrefix("--"), let equals = flag.firstIndex(of: "=") else { return (flag, nil) }
        return (String(flag[..<equals]), String(flag[flag.index(after: equals)...]))
    }
}

/// A command line that cannot be run as written; the tool exits 64 with usage on stderr.
struct UsageError: Error, Equatable {
    var message: String
    /// The command whose usage to show, nil for the overview.
    var command: String?

    init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }
}
