#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listener stopped accepting because the process (or the system) had no descriptor to spare.
///
/// A pending connection stays pending when `accept` fails with `EMFILE`, so the listener stays readable and a
/// loop that tries again at once spins a core. The loop stops watching the listener instead, and watches it again
/// when one of its connections closes or after `retryMs`, whichever comes first; open connections are served as
/// before.
package struct AcceptPause: Sendable, Equatable, CustomStringConvertible {
    /// How long the listener rests when no connection of the server closes first: a descriptor may be freed
    /// elsewhere in the process.
    package static let retryMs = 100.0

    /// The `errno` of the failed `accept`: `EMFILE`, `ENFILE`, `ENOBUFS` or `ENOMEM`.
    package var code: Int32
    /// Connections the server had open.
    package var openConnections: Int

    package var description: String {
        let name =
            switch code {
            case EMFILE: "EMFILE"
            case ENFILE: "ENFILE"
            case ENOBUFS: "ENOBUFS"
            case ENOMEM: "ENOMEM"
            default: "errno \(code)"
            }
        return "out of file descriptors (\(name): \(String(cString: strerror(code)))) with \(openConnections) "
            + "connections open; new connections wait until one closes (raise the limit with ulimit -n, or "
            + "lower --max-connections)"
    }
}
