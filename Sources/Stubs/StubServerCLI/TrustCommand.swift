import CLISupport
import HTTPEngine
import Spawning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stub-server trust`: makes the local certificate authority when there is none, prints its file and the commands
/// that make each client trust it (or, with `--remove`, stop trusting it), and runs the simulator's with
/// `--simulator`.
struct TrustCommand: Command, Equatable {
    static let name = "trust"
    static let usage = Help.trust

    var authority: String?
    var simulator = false
    var remove = false

    static func parse(_ reader: inout OptionReader) throws(UsageError) -> TrustCommand {
        var command = TrustCommand()
        while let argument = reader.next() {
            switch argument {
            case .option("--authority"): command.authority = try reader.value()
            case .option("--simulator"):
                try reader.flag()
                command.simulator = true
            case .option("--remove"):
                try reader.flag()
                command.remove = true
            case .option, .operand: throw reader.unknown()
            }
        }
        return command
    }

    func run() async -> Int32 {
        let authority: LocalAuthority
        do {
            authority = try LocalAuthority.loadOrCreate(in: self.authority ?? LocalAuthority.defaultFolder)
        } catch {
            Output.error("stub-server: cannot make or load the local authority: \(error)")
            return 1
        }
        Output.line(Self.instructions(path: authority.certificatePath, remove: remove))
        if !remove, let pin = try? authority.serverKeyPin() {
            Output.line("The key every server's certificate has, as a pin (SHA-256 of its SubjectPublicKeyInfo):")
            Output.line("  \(pin)")
        }
        guard simulator else { return 0 }
        return Self.runSimulatorCommand(path: authority.certificatePath, remove: remove)
    }

    /// The commands for each client, with `path` (quoted for a shell where it needs it).
    static func instructions(path: String, remove: Bool) -> String {
        let file = shellQuoted(path)
        if remove {
            return """
                The local authority's certificate: \(path)
                To stop trusting it:
                  iOS simulator (booted; removes every certificate added to it):
                    xcrun simctl keychain booted reset
                  macOS:
                    security remove-trusted-cert \(file)
                    security delete-certificate -c "\(LocalAuthority.commonName)"
                  Linux (Debian, Ubuntu):
                    sudo rm /usr/local/share/ca-certificates/stub-server.crt && sudo update-ca-certificates --fresh
                Removing \(shellQuoted(String(path.dropLast("/ca.pem".count)))) makes a new authority on the next use.
                """
        }
        return """
            The local authority's certificate: \(path)
            To trust it:
              iOS simulator (booted; run 'stub-server trust --simulator' to do it now):
                xcrun simctl keychain booted add-root-cert \(file)
              macOS (your login keychain; apps and Safari then trust it):
                security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db \(file)
              Linux (Debian, Ubuntu; URLSession and curl then trust it):
                sudo cp \(file) /usr/local/share/ca-certificates/stub-server.crt && sudo update-ca-certificates
              One command only:
                curl --cacert \(file) https://127.0.0.1:PORT/...
            """
    }

    /// Runs the simulator's command; its output is this process's.
    private static func runSimulatorCommand(path: String, remove: Bool) -> Int32 {
        let arguments =
            remove
            ? ["simctl", "keychain", "booted", "reset"] : ["simctl", "keychain", "booted", "add-root-cert", path]
        let pid: Int32
        do {
            pid = try Spawn.start(
                "xcrun", arguments: arguments, environment: environmentVariables(), stdout: .descriptor(1),
                stderr: .descriptor(2), searchPath: true)
        } catch {
            Output.error("stub-server: --simulator runs xcrun (Xcode's, on macOS): \(error)")
            return 1
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let ended = Termination(waitStatus: status)
        guard ended == .exited(0) else {
            Output.error("stub-server: xcrun \(arguments.joined(separator: " ")) failed (\(ended))")
            return 1
        }
        Output.line(
            remove
                ? "The booted simulator's added certificates are removed."
                : "The booted simulator trusts the authority.")
        return 0
    }

    private static func environmentVariables() -> [String: String] {
        var variables: [String: String] = [:]
        for name in ["PATH", "HOME", "DEVELOPER_DIR", "TMPDIR"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }

    private static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }
        return plain
            ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
