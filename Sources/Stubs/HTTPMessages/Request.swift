/// A parsed HTTP/1.x request as the server received it.
package struct Request: Sendable, Equatable {
    /// The method token, such as `GET`.
    package var method: String
    /// The request target exactly as sent, such as `/search?term=a+b`.
    package var target: String
    /// The percent-decoded path, such as `/search`.
    package var path: String
    /// The decoded query items in order (`+` reads as a space).
    package var query: [QueryItem]
    /// The minor HTTP version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    package var minorVersion: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    /// One decoded `name=value` pair of the query string.
    package struct QueryItem: Sendable, Equatable, Codable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(
        method: String, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) throws(HTTPError) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
        (path, query) = try Self.split(target: target)
    }

    /// The first value of the query item `name`.
    package func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the answer, by the version's default and `Connection`.
    package var keepAlive: Bool {
        let tokens = headers.values("Connection").flatMap { $0.split(separator: ",") }.map {
            $0.trimmingWhitespace().lowercased()
        }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }

    /// Splits a request target into a decoded path and query items.
    package static func split(target: String) throws(HTTPError) -> (String, [QueryItem]) {
        var rest = Substring(target)
        if target == "*" { return ("*", []) }
        for scheme in ["http://", "https://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            rest = rest.firstIndex(where: { $0 == "/" || $0 == "?" }).map { rest[$0...] } ?? "/"
            if rest.first == "?" { rest = "/" + rest }
        }
        guard rest.first == "/" else {
            throw HTTPError(.badRequest, "request target must start with '/': \(target)")
        }
        let rawPath = rest.prefix { $0 != "?" }
        guard let path = percentDecoded(rawPath) else {
            throw HTTPError(.badRequest, "invalid percent-encoding in path: \(rawPath)")
        }
        let items = rest.count > rawPath.count ? try formItems(rest.dropFirst(rawPath.count + 1)) : []
        return (path, items)
    }

    /// The `name=value` pairs of a query string or an `application/x-www-form-urlencoded` body, decoded.
    package static func formItems(_ text: Substring) throws(HTTPError) -> [QueryItem] {
        var items: [QueryItem] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeFormComponent(parts[0]),
                let value = parts.count > 1 ? decodeFormComponent(parts[1]) : ""
            else {
                throw HTTPError(.badRequest, "invalid percent-encoding in query: \(pair)")
            }
            items.append(QueryItem(name: name, value: value))
        }
        return items
    }

    private static func decodeFormComponent(_ text: Substring) -> String? {
        percentDecoded(text, plusIsSpace: true)
    }

    /// Decodes `%XX` escapes (and `+` as a space in query components); nil for a bad escape or invalid UTF-8.
    package static func percentDecoded(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                index = utf8.index(after: index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
