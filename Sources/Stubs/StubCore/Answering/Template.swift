package import HTTPMessages
import JSONModel

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Fills placeholders in a variant's body and header values from the request, escaping what it inserts.
///
/// `{{NAME}}` inserts the value escaped for where it lands (JSON string content, XML or HTML text, a header
/// value); `{{{NAME}}}` inserts it as it is. Names: `baseURL`, `query.NAME`, `path.NAME`, `header.NAME`,
/// `body.PATH` (a JSON body's value: a string's text, anything else as JSON), `now` (RFC 3339, UTC) and `uuid`
/// (new per use). Unknown names stay as written.
package struct Template {
    let baseURL: String
    let request: Request
    let pathParameters: [String: String]
    private let body: RequestBody
    /// The time `{{now}}` gives, the same for every use in one answer; formatted only when used.
    private let now: Date

    package init(baseURL: String, request: Request, pathParameters: [String: String], now: Date = Date()) {
        self.baseURL = baseURL
        self.request = request
        self.pathParameters = pathParameters
        self.body = RequestBody(request.body)
        self.now = now
    }

    /// How an inserted value is escaped.
    package enum Escaping {
        /// Inside a JSON string: quotes, backslashes and control characters escaped.
        case json
        /// XML or HTML text: `& < > " '` as entities.
        case markup
        /// A header value: control characters become spaces, so no value can end the field or add one.
        case header
        /// Nothing escaped (plain text bodies).
        case none

        /// The escaping for a body of this kind: JSON string content in JSON, entities in XML and HTML.
        package init(_ kind: BodyKind) {
            switch kind {
            case .json: self = .json
            case .xml, .html: self = .markup
            case .empty, .text, .binary: self = .none
            }
        }
    }

    /// `bytes` with every known placeholder replaced, in one pass over the bytes (a templated body is rendered for
    /// every answer, on the server's thread).
    package func render(_ bytes: [UInt8], escaping: Escaping) -> [UInt8] {
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == open, bytes[index + 1] == open else {
                index += 1
                continue
            }
            let raw = index + 2 < bytes.count && bytes[index + 2] == open
            let nameStart = index + (raw ? 3 : 2)
            let closing = raw ? 3 : 2
            guard let end = Self.firstRun(of: close, count: closing, in: bytes, from: nameStart) else { break }
            let name = String(decoding: bytes[nameStart..<end], as: UTF8.self).trimmingWhitespace()
            if let value = value(of: name) {
                if output.isEmpty { output.reserveCapacity(bytes.count + 256) }
                output.append(contentsOf: bytes[copied..<index])
                output.append(contentsOf: (raw ? value : Self.escape(value, for: escaping)).utf8)
                copied = end + closing
            }
            index = end + closing
        }
        if copied == 0 { return bytes }
        output.append(contentsOf: bytes[copied...])
        return output
    }

    /// `text` with every known placeholder replaced.
    package func render(_ text: String, escaping: Escaping) -> String {
        String(decoding: render(Array(text.utf8), escaping: escaping), as: UTF8.self)
    }

    /// Where the first run of `count` bytes equal to `byte` starts, at or after `start`.
    private static func firstRun(of byte: UInt8, count: Int, in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + count <= bytes.count {
            if bytes[index] == byte, (1..<count).allSatisfy({ bytes[index + $0] == byte }) { return index }
            index += 1
        }
        return nil
    }

    private func value(of name: String) -> String? {
        switch name {
        case "baseURL": return baseURL
        case "now": return Self.rfc3339(now)
        case "uuid": return UUID().uuidString.lowercased()
        default: break
        }
        if name.hasPrefix("query.") { return request.queryValue(String(name.dropFirst(6))) ?? "" }
        if name.hasPrefix("path.") { return pathParameters[String(name.dropFirst(5))] }
        if name.hasPrefix("header.") { return request.headers[String(name.dropFirst(7))] ?? "" }
        if name.hasPrefix("body."), let path = try? JSONPath(String(name.dropFirst(5))) {
            return body.json.flatMap(path.value(in:))?.matchText ?? ""
        }
        return nil
    }

    package static func escape(_ value: String, for escaping: Escaping) -> String {
        switch escaping {
        case .none: return value
        case .json: return jsonEscaped(value)
        case .header:
            return String(
                String.UnicodeScalarView(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
        case .markup:
            return value.markupEscaped
        }
    }

    /// `2026-11-23T09:41:00Z`.
    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Whether `host` is a `host[:port]` worth building a URL from: a name of letters, digits, `.`, `-`, `_`, `~`,
    /// or a bracketed IPv6 address, then an optional port of up to five digits.
    package static func isValidHost(_ host: String) -> Bool {
        let name: Substring
        let port: Substring?
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            name = host[host.index(after: host.startIndex)..<close]
            let after = host[host.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return false }
            port = after.isEmpty ? nil : after.dropFirst()
            guard name.contains(":"), name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        } else {
            let parts = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            (name, port) = (parts[0], parts.count > 1 ? parts[1] : nil)
            let nameBytes = name.utf8.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    true
                default: false
                }
            }
            guard nameBytes else { return false }
        }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        guard let port else { return true }
        return !port.isEmpty && port.count <= 5 && port.utf8.allSatisfy { (0x30...0x39).contains($0) }
            && Int(port)! <= 65_535
    }
}
