/// One command of a tool: its name, its usage, how it reads its arguments and how it runs.
package protocol Command: Sendable {
    /// The word that selects it: `serve`, `record`.
    static var name: String { get }
    /// Its usage text, printed by `--help` and after a usage error.
    static var usage: String { get }
    /// Reads the arguments after the command's name.
    static func parse(_ reader: inout OptionReader) throws(UsageError) -> Self
    /// Runs it and returns the exit code.
    func run() async -> Int32
}
