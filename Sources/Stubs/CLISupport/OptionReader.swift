/// Reads one command's arguments in order: options as `--name value` or `--name=value`, and operands. Every
/// command of both tools reads through it, so they take options and word their errors the same way.
///
/// ```swift
/// var reader = OptionReader(["--port=0", "--watch", "MockData"], command: "serve")
/// while let argument = reader.next() {
///     switch argument {
///     case .option("--port"): port = try reader.value("a number from 0 to 65535") { UInt16($0) }
///     case .option("--watch"): try reader.flag()
///     case .operand(let word): folders.append(word)
///     case .option: throw reader.unknown()
///     }
/// }
/// ```
package struct OptionReader {
    /// The command whose usage an error shows.
    package let command: String
    private var rest: ArraySlice<String>
    /// The option being read, as written before any `=`, and its inline value.
    private var current: (name: String, inline: String?)?

    package init(_ arguments: some Sequence<String>, command: String) {
        self.command = command
        rest = ArraySlice(arguments)
    }

    /// One argument: an option's name (`--port`), or a word that is not an option.
    package enum Argument: Equatable {
        case option(String)
        case operand(String)
    }

    /// The next argument, or nil when none is left.
    package mutating func next() -> Argument? {
        guard let word = rest.popFirst() else { return nil }
        guard word.hasPrefix("-"), word != "-" else {
            current = nil
            return .operand(word)
        }
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            current = (String(word[..<equals]), String(word[word.index(after: equals)...]))
        } else {
            current = (word, nil)
        }
        return .option(current!.name)
    }

    /// The current option's value: after `=`, else the next word, which must not be an option.
    package mutating func value() throws(UsageError) -> String {
        let name = current?.name ?? ""
        if let inline = current?.inline { return inline }
        guard let next = rest.first, !next.hasPrefix("--") else {
            throw UsageError("\(name) needs a value", command: command)
        }
        rest = rest.dropFirst()
        return next
    }

    /// The current option's value read by `parse`; nil from it is an error that says what was expected:
    /// `--port must be a number from 0 to 65535, not '99999'`. Assigned to an optional, write `as Value` after
    /// the call: otherwise `Value` is inferred optional and nil passes.
    package mutating func value<Value>(_ expected: String, _ parse: (String) -> Value?) throws(UsageError) -> Value {
        let text = try value()
        guard let parsed = parse(text) else {
            throw UsageError("\(current?.name ?? "") must be \(expected), not '\(text)'", command: command)
        }
        return parsed
    }

    /// Checks that the current option, a switch, was given no value.
    package func flag() throws(UsageError) {
        if let current, current.inline != nil {
            throw UsageError("\(current.name) takes no value", command: command)
        }
    }

    /// The one operand a command takes (`validate DIR`), having read every argument: an option is unknown, and
    /// none or several operands are an error naming `what`.
    package mutating func onlyOperand(_ what: String) throws(UsageError) -> String {
        var operands: [String] = []
        while let argument = next() {
            guard case .operand(let word) = argument else { throw unknown() }
            operands.append(word)
        }
        guard operands.count == 1, let operand = operands.first else {
            throw UsageError("\(command) takes one \(what)", command: command)
        }
        return operand
    }

    /// Every word left, as written, after the `--` just read: a command line to run (`sweep ... -- COMMAND ARGS`).
    package mutating func remainingWords() -> [String] {
        defer { rest = [] }
        return Array(rest)
    }

    /// The error for an option this command does not take.
    package func unknown() -> UsageError {
        UsageError("unknown option '\(current?.name ?? "")'", command: command)
    }
}
