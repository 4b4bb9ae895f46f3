#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A journal as an HTTP Archive (HAR 1.2): the evidence a failed strict check attaches to its test, which a browser's
/// network panel, Charles or `stub-server-record import har` reads.
///
/// Each entry is one request as the stubs received it (method, URL, headers, query, body) and its answer's status.
/// The journal keeps no answer bodies or headers, so each response's content is empty; what answered (stub,
/// variant, mutant, fault) and the closest stubs of an unmatched request are in the entry's `comment`.
package enum JournalHAR {
    /// The document for `entries`, oldest first; a request without a `Host` header is placed at `origin`.
    package static func document(_ entries: [JournalEntry], origin: String = "http://127.0.0.1") -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let log = Document(log: Log(entries: entries.map { Entry($0, origin: origin) }))
        return (try? encoder.encode(log)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    struct Document: Encodable {
        var log: Log
    }

    struct Log: Encodable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry]
    }

    struct Creator: Encodable {
        var name = "stub-server"
        var version = "journal"
    }

    struct Entry: Encodable {
        var startedDateTime: Date
        var time = 0
        var request: Request
        var response: Response
        var cache: [String: String] = [:]
        var timings = Timings()
        var comment: String

        init(_ entry: JournalEntry, origin: String) {
            startedDateTime = entry.time
            let host = entry.header("Host").map { "http://" + $0 } ?? origin
            request = Request(
                method: entry.method, url: host + entry.target,
                headers: entry.headers.map { Pair(name: $0.name, value: $0.value) },
                queryString: entry.query.map { Pair(name: $0.name, value: $0.value) }, bodySize: entry.bodySize,
                postData: entry.body.isEmpty
                    ? nil
                    : PostData(
                        mimeType: entry.header("Content-Type") ?? "", text: String(decoding: entry.body, as: UTF8.self))
            )
            response = Response(status: entry.status ?? 0)
            var said = [entry.summary]
            if let mutation = entry.mutation { said.append("mutant \(mutation)") }
            for miss in entry.closest ?? [] { said.append("closest: \(miss.explanation)") }
            for violation in entry.contractViolations ?? [] { said.append("contract: \(violation)") }
            comment = said.joined(separator: "\n")
        }
    }

    struct Request: Encodable {
        var method: String
        var url: String
        var httpVersion = "HTTP/1.1"
        var cookies: [Pair] = []
        var headers: [Pair]
        var queryString: [Pair]
        var headersSize = -1
        var bodySize: Int
        var postData: PostData?
    }

    struct Response: Encodable {
        var status: Int
        var statusText = ""
        var httpVersion = "HTTP/1.1"
        var cookies: [Pair] = []
        var headers: [Pair] = []
        var content = Content()
        var redirectURL = ""
        var headersSize = -1
        var bodySize = -1
    }

    struct Pair: Encodable {
        var name: String
        var value: String
    }

    struct PostData: Encodable {
        var mimeType: String
        var text: String
    }

    struct Content: Encodable {
        var size = 0
        var mimeType = ""
    }

    struct Timings: Encodable {
        var send = 0
        var wait = 0
        var receive = 0
    }
}

/// Where a control's requests went, for the URLs of its journal's HAR: a server's base URL, a remote's URL.
package protocol JournalOrigin {
    var journalOrigin: String { get }
}

extension JournalHAR {
    /// The journal of `control` as a HAR document (empty when the journal cannot be read), its URLs under the
    /// control's origin, loopback for one without (stubs in process).
    package static func document(of control: any StubControl) async -> String {
        let entries = (try? await control.journal(JournalQuery())) ?? []
        return document(entries, origin: (control as? any JournalOrigin)?.journalOrigin ?? "http://127.0.0.1")
    }
}
