/// A command line that cannot be run as written: the tool prints `TOOL: message`, a blank line and the usage of
/// `command` (the tool's overview when nil) to stderr, and exits 64.
package struct UsageError: Error, Equatable {
    package var message: String
    /// The command whose usage to show, nil for the tool's overview.
    package var command: String?

    package init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }
}
