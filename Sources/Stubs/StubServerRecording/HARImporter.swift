public import Foundation
public import StubServer

/// Turns a HAR capture (what Proxyman, Charles, Safari and Chrome export) into fixtures with the recorder's
/// writer: the same naming, redactions and sequences (a request seen again with another answer becomes the next
/// step). Every entry is read before anything is written, so a malformed file writes nothing.
public struct HARImporter: Sendable {
    public var fixtures: URL
    /// The API folder for every entry; nil for one folder per host, named like the recorder's.
    public var api: String?
    /// Hosts to import; empty for all.
    public var onlyHosts: [String]
    public var redaction: Redaction

    public init(fixtures: URL, api: String? = nil, onlyHosts: [String] = [], redaction: Redaction = Redaction()) {
        self.fixtures = fixtures
        self.api = api
        self.onlyHosts = onlyHosts
        self.redaction = redaction
    }

    /// One exchange read from the capture.
    struct Entry {
        var host: String
        var request: ForwardedRequest
        var status: Int
        var headers: [HeaderField]
        var body: [UInt8]
    }

    /// Imports `har` (the file's bytes).
    /// - Returns: a line per stub or step written, and one per entry skipped.
    /// - Throws: `HARError` naming the JSON key path of the first problem, before anything is written.
    public func importHAR(_ har: Data) async throws -> [String] {
        let entries = try Self.entries(in: har)
        var lines: [String] = []
        var writers: [String: FixtureWriter] = [:]
        for entry in entries {
            guard onlyHosts.isEmpty || onlyHosts.contains(entry.host) else {
                lines.append("skipped \(entry.request.method) \(entry.host)\(entry.request.path) (other host)")
                continue
            }
            let folder = api ?? entry.host.replacingOccurrences(of: ".", with: "-")
            let writer =
                writers[folder]
                ?? FixtureWriter(
                    folder: fixtures.appendingPathComponent(folder), redaction: redaction, appendsSequences: true)
            writers[folder] = writer
            if let line = try writer.record(
                entry.request, host: entry.host, status: entry.status, headers: entry.headers, body: entry.body)
            {
                lines.append(line)
            }
        }
        return lines
    }

    /// Reads every entry, checking each key the import needs.
    static func entries(in har: Data) throws(HARError) -> [Entry] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: har)
        } catch {
            throw HARError(keyPath: "", message: "not JSON")
        }
        guard let log = (document as? [String: Any])?["log"] as? [String: Any] else {
            throw HARError(keyPath: "log", message: "missing, or not an object")
        }
        guard let list = log["entries"] as? [Any] else {
            throw HARError(keyPath: "log.entries", message: "missing, or not an array")
        }
        return try list.enumerated().map { (index, value) throws(HARError) in
            try entry(value, at: "log.entries[\(index)]")
        }
    }

    private static func entry(_ value: Any, at path: String) throws(HARError) -> Entry {
        let entry = try object(value, at: path)
        let request = try object(entry["request"], at: "\(path).request")
        let response = try object(entry["response"], at: "\(path).response")
        let method = try string(request["method"], at: "\(path).request.method")
        let urlText = try string(request["url"], at: "\(path).request.url")
        // A host that is there and not empty: `https://user@/path` parses with the host "" (found by fuzzing).
        guard let components = URLComponents(string: urlText), let host = components.host, !host.isEmpty,
            ["http", "https"].contains(components.scheme?.lowercased() ?? ""), !components.path.isEmpty
        else {
            throw HARError(keyPath: "\(path).request.url", message: "not an absolute http(s) URL: \(urlText)")
        }
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let query = (components.queryItems ?? []).map { JournalEntry.QueryItem(name: $0.name, value: $0.value ?? "") }
        let requestHeaders = try headers(request["headers"], at: "\(path).request.headers")
        guard let status = response["status"] as? Int, (100...599).contains(status) else {
            throw HARError(keyPath: "\(path).response.status", message: "missing, or not a status from 100 to 599")
        }
        let responseHeaders = try headers(response["headers"], at: "\(path).response.headers")
        let content = try object(response["content"], at: "\(path).response.content")
        var body: [UInt8] = []
        if let text = content["text"] {
            guard let text = text as? String else {
                throw HARError(keyPath: "\(path).response.content.text", message: "not a string")
            }
            if (content["encoding"] as? String)?.lowercased() == "base64" {
                guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw HARError(keyPath: "\(path).response.content.text", message: "not valid base64")
                }
                body = [UInt8](decoded)
            } else {
                body = Array(text.utf8)
            }
        }
        var bodySent: [UInt8] = []
        if let postData = request["postData"] as? [String: Any], let text = postData["text"] as? String {
            bodySent = Array(text.utf8)
        }
        let answerHeaders = responseHeaders.filter { field in
            !(ForwardedRequest.hopByHopHeaders + ["Content-Encoding"]).contains {
                $0.lowercased() == field.name.lowercased()
            }
        }
        return Entry(
            host: host,
            request: ForwardedRequest(
                method: method, target: target, path: components.path, query: query, headers: requestHeaders,
                body: bodySent),
            status: status, headers: answerHeaders, body: body)
    }

    private static func object(_ value: Any?, at path: String) throws(HARError) -> [String: Any] {
        guard let object = value as? [String: Any] else {
            throw HARError(keyPath: path, message: "missing, or not an object")
        }
        return object
    }

    private static func string(_ value: Any?, at path: String) throws(HARError) -> String {
        guard let text = value as? String, !text.isEmpty else {
            throw HARError(keyPath: path, message: "missing, or not a string")
        }
        return text
    }

    private static func headers(_ value: Any?, at path: String) throws(HARError) -> [HeaderField] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw HARError(keyPath: path, message: "not an array") }
        return try list.enumerated().map { (index, item) throws(HARError) in
            let field = try object(item, at: "\(path)[\(index)]")
            return HeaderField(
                name: try string(field["name"], at: "\(path)[\(index)].name"),
                value: field["value"] as? String ?? "")
        }
    }
}

/// A HAR file the importer cannot read, with the JSON key path of the problem.
public struct HARError: Error, Equatable, CustomStringConvertible {
    public var keyPath: String
    public var message: String

    public var description: String { keyPath.isEmpty ? message : "\(keyPath): \(message)" }
}
