import HTTPMessages

extension RequestDecoder {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A

    /// Scans for the blank line ending the head, resuming where the last call stopped, and parses the head.
    /// - Returns: the request without its body, or nil when the head has not all arrived.
    mutating func decodeHead() throws(HTTPError) -> Request? {
        let tooLarge = HTTPError(.headerFieldsTooLarge, "request line and headers exceed \(maxHeaderBytes) bytes")
        while let line = try nextLine(within: maxHeaderBytes, of: start, tooLong: tooLarge, in: "the request head") {
            guard line.isEmpty else {
                if requestLineStart == nil { requestLineStart = line.lowerBound }
                continue
            }
            // An empty line before the request line, as some clients send after a body, is ignored.
            guard let requestLineStart else { continue }
            let request = try Self.parseHead(buffer[requestLineStart..<line.lowerBound])
            start = lineStart
            self.requestLineStart = nil
            return request
        }
        return nil
    }

    /// The next line ending in CRLF, without it, scanning on from where the last call stopped; nil when it has
    /// not all arrived. Bytes are not consumed: the caller moves `start`.
    /// - Parameters:
    ///   - limit: most bytes from `base` to the end of the line; beyond, `tooLong` is thrown.
    ///   - place: where the line is, for the message about a bare CR or LF.
    mutating func nextLine(within limit: Int, of base: Int, tooLong: HTTPError, in place: String)
        throws(HTTPError) -> Range<Int>?
    {
        var index = scan
        defer { scan = index }
        while index < buffer.count {
            let byte = buffer[index]
            if index > lineStart, buffer[index - 1] == Self.cr, byte != Self.lf {
                throw HTTPError(.badRequest, "bare CR in \(place); lines end with CRLF")
            }
            if byte == Self.lf {
                guard index > lineStart, buffer[index - 1] == Self.cr else {
                    throw HTTPError(.badRequest, "bare LF in \(place); lines end with CRLF")
                }
                let line = lineStart..<(index - 1)
                index += 1
                lineStart = index
                return line
            }
            index += 1
            if index - base > limit { throw tooLong }
        }
        return nil
    }

    /// Parses a head's lines, each ending in CRLF, without the blank line.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> Request {
        // Each line ends in CRLF (`nextLine` made sure): read them in place, without an array of them.
        var lineStart = bytes.startIndex
        var requestLine: (method: String, target: String, minorVersion: Int)?
        var headers = HTTPHeaders()
        while let end = bytes[lineStart...].firstIndex(of: lf) {
            let line = bytes[lineStart..<(end - 1)]
            if requestLine == nil {
                requestLine = try parseRequestLine(line)
            } else {
                let (name, value) = try parseField(line)
                headers.add(name, value)
            }
            lineStart = end + 1
        }
        guard let (method, target, minorVersion) = requestLine else {
            throw HTTPError(.badRequest, "empty request line")
        }
        let hosts = headers.values("Host")
        if minorVersion == 1 && hosts.count != 1 {
            throw HTTPError(.badRequest, hosts.isEmpty ? "missing Host header" : "more than one Host header")
        }
        if method == "CONNECT" {
            throw HTTPError(.notImplemented, "CONNECT is not supported: this server is not a proxy")
        }
        if target == "*" && method != "OPTIONS" {
            throw HTTPError(.badRequest, "the target * is only allowed with OPTIONS, not \(method)")
        }
        return try Request(method: method, target: target, minorVersion: minorVersion, headers: headers)
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (String, String, Int) {
        let parts = line.split(separator: 0x20, maxSplits: 3, omittingEmptySubsequences: false)
        // Made only for a message: most requests never need it.
        var text: String { String(decoding: line, as: UTF8.self) }
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw HTTPError(.badRequest, "malformed request line: \(text.debugDescription)")
        }
        guard parts[0].allSatisfy(HTTPSyntax.isTokenByte) else {
            throw HTTPError(.badRequest, "invalid method in request line: \(text.debugDescription)")
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPError(.badRequest, "invalid characters in request target: \(text.debugDescription)")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            let digits = version.utf8.dropFirst(5)
            if version.hasPrefix("HTTP/"), digits.count == 3, digits.dropFirst().first == UInt8(ascii: "."),
                digits.allSatisfy({ $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) })
            {
                throw HTTPError(.versionNotSupported, "\(version) is not supported; use HTTP/1.1")
            }
            throw HTTPError(.badRequest, "malformed HTTP version in request line: \(text.debugDescription)")
        }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), minor)
    }

    /// Parses one field line: a token name, a colon, and a value without control characters.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (String, String) {
        // Made only for a message: most requests never need it.
        var text: String { String(decoding: line, as: UTF8.self) }
        if line.first == 0x20 || line.first == 0x09 {
            throw HTTPError(.badRequest, "obsolete line folding in header: \(text.debugDescription)")
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            throw HTTPError(.badRequest, "header line without a colon: \(text.debugDescription)")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(HTTPSyntax.isTokenByte) else {
            throw HTTPError(.badRequest, "invalid header name: \(text.debugDescription)")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
            throw HTTPError(.badRequest, "control character in header value: \(text.debugDescription)")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// How the request's body is delimited: chunked, by `Content-Length`, or not at all.
    static func framing(of request: Request, maxBodyBytes: Int) throws(HTTPError) -> Framing {
        let encodings = request.headers.values("Transfer-Encoding")
        let lengths = request.headers.values("Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                throw HTTPError(.badRequest, "both Transfer-Encoding and Content-Length are set")
            }
            guard request.minorVersion == 1 else {
                throw HTTPError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request; send Content-Length")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }
            guard codings == ["chunked"] else {
                throw HTTPError(
                    .notImplemented,
                    "unsupported Transfer-Encoding \(codings.joined(separator: ", ")); only chunked is supported")
            }
            return .chunked
        }
        let values = Set(
            lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
                $0.trimmingWhitespace()
            })
        guard let value = values.first else { return .none }
        guard values.count == 1, !value.isEmpty, value.utf8.count <= 18,
            value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let length = Int(value)
        else {
            throw HTTPError(.badRequest, "invalid Content-Length: \(lengths.joined(separator: ", "))")
        }
        guard length <= maxBodyBytes else {
            throw HTTPError(
                .contentTooLarge, "request body of \(length) bytes exceeds the limit of \(maxBodyBytes) bytes")
        }
        return length == 0 ? .none : .length(length)
    }

}
