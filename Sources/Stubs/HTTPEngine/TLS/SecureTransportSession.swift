#if !canImport(COpenSSL) && canImport(Security) && os(iOS)
    import Darwin
    import Security
    import Security.SecureTransport

    /// One connection's TLS through Secure Transport, as `OpenSSLSession` is through OpenSSL: the socket side is
    /// `CiphertextBuffers` (portable, tested on Linux), which Secure Transport's callbacks read and write. Each call's line is in
    /// Security-61901's OSX/libsecurity_ssl/lib/SecureTransport.h; the errors are base/SecBase.h's (810-823).
    final class SecureTransportSession: TLSSession {
        private let context: SSLContext
        private let buffers: CiphertextBuffers
        private var peerClosed = false
        private var handshaken = false
        private(set) var holdsInput = false
        /// Plaintext gathered for one `SSLWrite`.
        private var staging: [UInt8] = []

        /// Most plaintext taken in one `send`, as `OpenSSLSession.sendLimit`.
        static let sendLimit = 65_536

        init(
            certificates: CFArray, versions: (SSLProtocol, SSLProtocol), socket: Socket,
            handshake: TLSIdentity.Handshake
        ) throws(TLSError) {
            // :316
            guard let context = SSLCreateContext(nil, .serverSide, .streamType) else {
                throw TLSError("SSLCreateContext failed")
            }
            self.context = context
            buffers = CiphertextBuffers(socket: socket, handshake: handshake)
            // :418, :458, :494, :637
            try Self.check(SSLSetIOFuncs(context, secureTransportRead, secureTransportWrite), "SSLSetIOFuncs")
            try Self.check(SSLSetProtocolVersionMin(context, versions.0), "the lowest TLS version")
            try Self.check(SSLSetProtocolVersionMax(context, versions.1), "the highest TLS version")
            try Self.check(SSLSetCertificate(context, certificates), "the certificate")
            // :657; the context is this session's own, so it never outlives the buffers it points at.
            let connection = Unmanaged.passUnretained(buffers).toOpaque()
            try Self.check(SSLSetConnection(context, connection), "SSLSetConnection")
        }

        private static func check(_ status: OSStatus, _ doing: String) throws(TLSError) {
            guard status == errSecSuccess else { throw SecureTransportContext.error(status, doing) }
        }

        var socket: Socket { buffers.socket }
        var hasPendingOutput: Bool { buffers.hasPendingOutput }
        var bytesWritten: Int { buffers.bytesWritten }
        func flushPending() throws { try buffers.flushPending() }

        func read(into scratch: UnsafeMutableRawBufferPointer) throws -> Int? {
            if !peerClosed { try buffers.pull(into: scratch) }
            let ended = buffers.socketEnded
            if buffers.refusedPlainHTTP {
                try buffers.flushPending()
                return ended ? 0 : nil
            }
            if !handshaken {
                let status = SSLHandshake(context)  // :1641
                // A close_notify in the handshake is the client's end, as OpenSSL's session reports it.
                if status == errSSLWouldBlock || status == errSSLClosedGraceful || closedByPeer(status) {
                    try buffers.flushPending()
                    return ended ? 0 : nil
                }
                guard status == errSecSuccess else {
                    try? buffers.flushPending()  // the alert, when there is one
                    throw SecureTransportContext.error(status, "TLS handshake")
                }
                handshaken = true
            }
            var filled = 0
            reading: while filled < scratch.count {
                var processed = 0
                // :1689
                let status = SSLRead(context, scratch.baseAddress! + filled, scratch.count - filled, &processed)
                filled += processed
                switch status {
                case errSecSuccess where processed > 0: continue
                case errSecSuccess, errSSLWouldBlock: break reading
                case _ where closedByPeer(status): break reading
                case errSSLClosedGraceful:
                    peerClosed = true
                    break reading
                default:
                    try? buffers.flushPending()
                    throw SecureTransportContext.error(status, "TLS record")
                }
            }
            var buffered = 0
            _ = SSLGetBufferedReadSize(context, &buffered)  // :1705
            holdsInput = filled == scratch.count || buffered > 0 || (peerClosed && filled > 0)
            try buffers.flushPending()
            if filled > 0 { return filled }
            return peerClosed || ended ? 0 : nil
        }

        /// A TCP close without `close_notify` once everything read was taken: Secure Transport reports it as
        /// `errSSLClosedAbort` at a record's start (SSLRecordInternal.c:104-121), `errSSLClosedNoNotify` inside one.
        private func closedByPeer(_ status: OSStatus) -> Bool {
            (status == errSSLClosedAbort || status == errSSLClosedNoNotify) && buffers.socketEnded
                && buffers.available == 0
        }

        func send(_ vectors: [iovec]) throws -> Int {
            try buffers.flushPending()
            guard !buffers.hasPendingOutput, handshaken else { return 0 }
            // One write of them all: records of up to 16 KiB rather than one per piece.
            staging.removeAll(keepingCapacity: true)
            for vector in vectors where staging.count < Self.sendLimit {
                guard let base = vector.iov_base, vector.iov_len > 0 else { continue }
                let count = min(vector.iov_len, Self.sendLimit - staging.count)
                staging.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
            }
            guard !staging.isEmpty else { return 0 }
            var processed = 0
            let status = staging.withUnsafeBytes { SSLWrite(context, $0.baseAddress, $0.count, &processed) }  // :1670
            // After the client's close_notify Secure Transport has closed its side too (SSLRead calls SSLClose) and
            // writes nothing more, where OpenSSL would still answer: the connection ends.
            guard status == errSecSuccess else { throw SecureTransportContext.error(status, "TLS write") }
            try buffers.flushPending()
            return processed
        }

        func closeNotify() {
            if handshaken, !peerClosed { _ = SSLClose(context) }  // :1731; after a close_notify, SSLRead did
            try? buffers.flushPending()
        }
    }

    /// `SSLReadFunc` (SecureTransport.h:197): the connection is the session's buffers; short is "more later", or
    /// the end once the socket ended.
    private func secureTransportRead(
        _ connection: SSLConnectionRef, _ data: UnsafeMutableRawPointer, _ length: UnsafeMutablePointer<Int>
    ) -> OSStatus {
        let buffers = Unmanaged<CiphertextBuffers>.fromOpaque(connection).takeUnretainedValue()
        let wanted = length.pointee
        length.pointee = buffers.supply(UnsafeMutableRawBufferPointer(start: data, count: wanted))
        if length.pointee == wanted { return errSecSuccess }
        return buffers.socketEnded ? errSSLClosedNoNotify : errSSLWouldBlock
    }

    /// `SSLWriteFunc` (SecureTransport.h:203): every record is kept until the socket takes it.
    private func secureTransportWrite(
        _ connection: SSLConnectionRef, _ data: UnsafeRawPointer, _ length: UnsafeMutablePointer<Int>
    ) -> OSStatus {
        Unmanaged<CiphertextBuffers>.fromOpaque(connection).takeUnretainedValue().take(
            UnsafeRawBufferPointer(start: data, count: length.pointee))
        return errSecSuccess
    }
#endif
