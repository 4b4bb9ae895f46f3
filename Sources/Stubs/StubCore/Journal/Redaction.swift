import HTTPMessages

/// Which request headers and query parameters are secrets: they never reach the journal (nor, when recording,
/// a fixture file); their values read `REDACTED`.
public struct Redaction: Sendable, Equatable {
    /// Headers always redacted: `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`.
    package static let secretHeaders = ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"]
    package static let placeholder = "REDACTED"

    /// Header names, compared case-insensitively.
    package var headers: [String]
    /// Query parameter names, compared exactly.
    package var query: [String]

    /// - Parameters:
    ///   - headers: headers to redact besides `secretHeaders`.
    ///   - query: query parameters to redact.
    public init(headers: [String] = [], query: [String] = []) {
        self.headers = Self.secretHeaders + headers
        self.query = query
    }

    /// Whether the header `name` is redacted.
    package func redacts(header name: String) -> Bool {
        headers.contains { $0.caseInsensitiveEquals(name) }
    }

    /// `target` with the value of every redacted query parameter replaced.
    package func redactedTarget(_ target: String) -> String {
        redacted(target: target)
    }

    package func redacted(target: String) -> String {
        guard !query.isEmpty, let mark = target.firstIndex(of: "?") else { return target }
        let pairs = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let redacted = pairs.map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            let decoded = Request.percentDecoded(name, plusIsSpace: true) ?? String(name)
            return query.contains(decoded) ? "\(name)=\(Self.placeholder)" : String(pair)
        }
        return target[..<mark] + "?" + redacted.joined(separator: "&")
    }
}
