import Foundation

/// Parses HTTP/1.x request heads and bodies from buffered bytes, strictly (RFC 9112).
struct HTTPRequestParser {
    /// Most bytes a request line plus header fields may take (answered with 431 beyond).
    var maxHeaderBytes: Int
    /// Most bytes a request body may take (answered with 413 beyond).
    var maxBodyBytes: Int

    /// Finds the blank line ending a head that starts at `start`.
    /// - Returns: the index just past the blank line, or nil if it has not arrived yet.
    func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        let end = bytes.count
        while index < end {
            guard bytes[index] == 0x0A else {
                index += 1
                continue
            }
            // A line ends here; the head ends if the next line is empty (LF or CRLF).
            if index + 1 < end && bytes[index + 1] == 0x0A { return index + 2 }
            if index + 2 < end && bytes[index + 1] == 0x0D && bytes[index + 2] == 0x0A { return index + 3 }
            index += 1
        }
        return nil
    }

    /// Parses a complete head (request line, fields, blank line).
    /// - Throws: `HTTPError` with 400, 431, 501 or 505 and what was wrong.
    func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> HTTPRequestHead {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, !requestLine.isEmpty else {
            throw HTTPError(.badRequest, "empty request line")
        }
        let (method, target, minorVersion) = try parseRequestLine(requestLine)
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let (name, value) = try parseField(line)
            headers.add(name, value)
        }
        let hosts = headers.values("Host")
        if minorVersion == 1 && hosts.count != 1 {
            throw HTTPError(.badRequest, hosts.isEmpty ? "missing Host header" : "more than one Host header")
        }
        return HTTPRequestHead(
            method: method, target: target, minorVersion: minorVersion, headers: headers,
            framing: try framing(of: headers))
    }

    private func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (String, String, Int) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        let text = String(decoding: line, as: UTF8.self)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw HTTPError(.badRequest, "malformed request line: \(text.debugDescription)")
        }
        guard parts[0].allSatisfy(Self.isTokenByte) else {
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
            if version.hasPrefix("HTTP/"), version.count == 8 {
                throw HTTPError(.versionNotSupported, "\(version) is not supported; use HTTP/1.1")
            }
            throw HTTPError(.badRequest, "malformed HTTP version in request line: \(text.debugDescription)")
        }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), minor)
    }

    private func parseField(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (String, String) {
        let text = String(decoding: line, as: UTF8.self)
        if line.first == 0x20 || line.first == 0x09 {
            throw HTTPError(.badRequest, "obsolete line folding in header: \(text.debugDescription)")
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            throw HTTPError(.badRequest, "header line without a colon: \(text.debugDescription)")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
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

    private func framing(of headers: HTTPHeaders) throws(HTTPError) -> HTTPRequestHead.BodyFraming {
        let encodings = headers.values("Transfer-Encoding")
        let lengths = headers.values("Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                throw HTTPError(.badRequest, "both Transfer-Encoding and Content-Length are set")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            guard codings == ["chunked"] else {
                throw HTTPError(
                    .notImplemented,
                    "unsupported Transfer-Encoding \(codings.joined(separator: ", ")); only chunked is supported")
            }
            return .chunked
        }
        let values = Set(
            lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
                $0.trimmingCharacters(in: .whitespaces)
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

    /// Whether `byte` may appear in a token (method, header name): RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
