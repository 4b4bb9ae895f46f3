#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed socket call, with the call's name and the `errno` it left.
package struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call that failed, such as `bind`.
    package var call: String
    /// The `errno` value after the call.
    package var code: Int32
    /// Extra context, such as the address that could not be bound.
    package var detail: String

    init(_ call: String, code: Int32 = errno, detail: String = "") {
        self.call = call
        self.code = code
        self.detail = detail
    }

    package var description: String {
        let reason = String(cString: strerror(code))
        return detail.isEmpty ? "\(call) failed: \(reason)" : "\(call) \(detail) failed: \(reason)"
    }
}
