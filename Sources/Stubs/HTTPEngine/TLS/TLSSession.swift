import HTTPMessages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TLS over one connection's socket, as the connection sees it: plaintext in and out. The session moves the
/// ciphertext between the socket and the TLS library itself, so the library never touches the socket.
protocol TLSSession: AnyObject {
    var socket: Socket { get }
    /// Reads ciphertext from the socket and returns the plaintext it carried.
    /// - Returns: the byte count, 0 at end of stream, nil when nothing is available yet.
    /// - Throws: `TLSError` when the handshake or a record fails; the connection then closes.
    func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int?
    /// Encrypts what it can take of `vectors` now and writes it to the socket.
    /// - Returns: plaintext bytes taken, 0 while earlier records still wait for the socket.
    func send(_ vectors: [iovec]) throws -> Int
    /// Records made that the socket has not taken yet.
    var hasPendingOutput: Bool { get }
    /// Bytes the socket took, in all: the connection's sign that a slow client still reads.
    var bytesWritten: Int { get }
    /// Whether plaintext may be ready without more from the socket (the last read filled its buffer).
    var holdsInput: Bool { get }
    func flushPending() throws
    /// Queues a `close_notify` and writes it if the socket takes it.
    func closeNotify()
}

/// The TLS side of a listener: the identity it presents, making a session for each accepted socket.
protocol TLSServerContext: AnyObject {
    func session(on socket: Socket) throws(TLSError) -> any TLSSession
}

/// A TLS failure, with the TLS library's own words.
package struct TLSError: Error, CustomStringConvertible, Equatable {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// A plain HTTP request sent to the TLS port, seen by its first byte and answered as nginx does: a 400 that says so.
enum PlainHTTPOnTLS {
    /// A request line's first letter where a TLS record's type byte belongs (20 to 23; an SSLv2 hello's first
    /// byte has its high bit set).
    static func starts(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The 400's bytes, sent in the clear; the session then ends its write side.
    static func refusal() -> [UInt8] {
        var date = HTTPDate()
        let error = HTTPError(
            .badRequest, "this port speaks HTTPS: a plain HTTP request was sent to it; use an https:// URL")
        return Response.error(error).serialized(date: date.now(), keepAlive: false)
    }
}
