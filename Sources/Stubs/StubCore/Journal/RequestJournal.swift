package import HTTPMessages

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One request the server received, with what answered it.
public struct JournalEntry: Sendable, Equatable, Codable {
    /// Position in arrival order, from 1.
    public var id: Int
    public var time: Date
    public var method: String
    /// The decoded path.
    public var path: String
    /// The request target as sent.
    public var target: String
    public var query: [QueryItem]
    public var headers: [HeaderField]
    /// The body, or its first `RequestJournal.maxStoredBody` bytes when it was larger.
    public var body: Data
    /// The size of the whole body as received.
    public var bodySize: Int
    /// The stub that answered; nil when none matched.
    public var stub: String?
    /// The variant that answered; nil when none matched.
    public var variant: String?
    /// The status answered, or nil for a fault that sent no status.
    public var status: Int?
    public var fault: StubVariant.Fault?
    /// For a request no stub matched: the stubs that came closest and, field by field, why each missed.
    public var closest: [StubMiss]?
    /// For a request an upstream answered: how, such as `proxied` or `recorded`.
    public var forwarded: String?
    /// For a request whose variant has `faults`, or any stubbed request under chaos: what it drew.
    public var draw: Draw?
    /// For a GraphQL request: its operation's name (a batch's names, comma-separated).
    public var operationName: String? = nil
    /// For a request to a stub that stands for an API operation: what the operation would refuse, each with its
    /// place (`query.limit: expected integer, got "ten"`). The stub answered anyway; strict tests fail on it.
    public var contractViolations: [String]? = nil
    /// What kind of stream answered, if one did: while it goes on, its entry keeps changing.
    public var stream: StreamKind? = nil
    /// For a Server-Sent Events answer: how many events went out before the stream ended (played to its end, cut
    /// by `dropAfterEvents` or a fault, or left by the client); nil while it streams.
    public var eventsSent: Int? = nil
    /// For a WebSocket: every message both ways, in order, as the socket went.
    public var webSocketMessages: [WebSocketRecord]? = nil
    /// For a WebSocket that has closed: how (`1000 bye`, or why the connection ended without a close frame).
    public var webSocketClose: String? = nil
    /// The mutant that answered instead of the variant, by its ID (`feed.results[*].name:null`), when one did.
    public var mutation: String? = nil
    /// For a request a resource stub answered: the item's key and what the request did to the collection.
    public var resource: ResourceTouch? = nil

    /// What one request did to a resource's collection.
    public struct ResourceTouch: Sendable, Equatable, Codable {
        /// The item's key; nil for the collection itself.
        public var key: String?
        public var change: Change

        public enum Change: String, Sendable, Codable {
            case listed, read, created, replaced, patched, deleted
            /// Refused (unknown key, duplicate key, a body that is not a JSON object): nothing changed.
            case refused
        }

        package init(key: String?, change: Change) {
            self.key = key
            self.change = change
        }
    }

    /// An answer that goes on after its head.
    public enum StreamKind: String, Sendable, Codable {
        /// Server-Sent Events (`eventsSent` is set once the stream ends).
        case events
        /// A WebSocket (`webSocketClose` is set once it closes).
        case webSocket
    }

    /// One WebSocket message in the journal.
    public struct WebSocketRecord: Sendable, Equatable, Codable, CustomStringConvertible {
        public enum Direction: String, Sendable, Codable {
            /// From the client.
            case received
            /// From the server.
            case sent
        }

        public var direction: Direction
        /// A text message's text.
        public var text: String?
        /// A binary message's bytes (base64 in JSON).
        public var binary: Data?

        package init(_ direction: Direction, text: String) {
            self.direction = direction
            self.text = text
        }

        package init(_ direction: Direction, binary: Data) {
            self.direction = direction
            self.binary = binary
        }

        /// `sent "hello"`, `received 3 bytes`.
        public var description: String {
            "\(direction.rawValue) " + (text.map(\.debugDescription) ?? "\(binary?.count ?? 0) bytes")
        }
    }

    /// What one request drew from the server's seeded generator.
    public struct Draw: Sendable, Equatable, Codable {
        /// The fault drawn in place of the answer; nil when the answer was sent.
        public var fault: StubVariant.Fault?
        /// Where `fault` came from.
        public var source: Source?
        /// The random delay added, in milliseconds.
        public var delayMs: Int?

        /// Where a drawn fault came from.
        public enum Source: String, Sendable, Equatable, Codable {
            /// The variant's `faults`.
            case faults
            /// The server's chaos.
            case chaos
        }

        package init(fault: StubVariant.Fault? = nil, source: Source? = nil, delayMs: Int? = nil) {
            self.fault = fault
            self.source = source
            self.delayMs = delayMs
        }
    }

    /// One decoded `name=value` pair of the query string (`+` reads as a space).
    public struct QueryItem: Sendable, Equatable, Codable {
        public var name: String
        public var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }
}

/// Which journal entries to return; nil fields match anything.
public struct JournalQuery: Sendable, Equatable {
    package var stub: String?
    package var variant: String?
    package var method: String?
    /// The decoded path.
    package var path: String?
    /// Query items the request must carry with these decoded values (others may be there too).
    package var query: [String: String]
    /// Only requests no stub matched.
    package var unmatchedOnly: Bool
    /// Text the request's body must contain.
    package var bodyContains: String?
    /// What the request must have done to a resource's collection (`.created`, `.deleted`, ...).
    package var change: JournalEntry.ResourceTouch.Change?
    /// The resource item's key the request must have touched.
    package var key: String?

    public init(
        stub: String? = nil, variant: String? = nil, method: String? = nil, path: String? = nil,
        query: [String: String] = [:], unmatchedOnly: Bool = false, bodyContains: String? = nil,
        change: JournalEntry.ResourceTouch.Change? = nil, key: String? = nil
    ) {
        self.stub = stub
        self.variant = variant
        self.method = method
        self.path = path
        self.query = query
        self.unmatchedOnly = unmatchedOnly
        self.bodyContains = bodyContains
        self.change = change
        self.key = key
    }

    package func accepts(_ entry: JournalEntry) -> Bool {
        (stub == nil || entry.stub == stub) && (variant == nil || entry.variant == variant)
            && (method == nil || entry.method == method) && (path == nil || entry.path == path)
            && query.allSatisfy { name, value in entry.query.first { $0.name == name }?.value == value }
            && (!unmatchedOnly || (entry.stub == nil && entry.forwarded == nil))
            && (bodyContains.map { String(decoding: entry.body, as: UTF8.self).contains($0) } ?? true)
            && (change == nil || entry.resource?.change == change) && (key == nil || entry.resource?.key == key)
    }

    /// Every field of `entry` that this query does not accept, as `field: expected X, got Y`: empty exactly when
    /// `accepts(entry)`, and only built for messages.
    package func mismatches(of entry: JournalEntry) -> [String] {
        var found: [String] = []
        func check(_ field: String, _ expected: String?, _ actual: String?) {
            guard let expected, expected != actual else { return }
            found.append("\(field): expected \(expected.debugDescription), got \(actual?.debugDescription ?? "none")")
        }
        check("method", method, entry.method)
        check("path", path, entry.path)
        for name in query.keys.sorted() {
            check("query.\(name)", query[name], entry.query.first { $0.name == name }?.value)
        }
        check("stub", stub, entry.stub)
        check("variant", variant, entry.variant)
        if unmatchedOnly, let matched = entry.stub { found.append("matched stub \(matched.debugDescription)") }
        if unmatchedOnly, let forwarded = entry.forwarded { found.append("answered by the upstream (\(forwarded))") }
        if let bodyContains, !String(decoding: entry.body, as: UTF8.self).contains(bodyContains) {
            found.append("body: expected to contain \(bodyContains.debugDescription)")
        }
        check("resource.change", change?.rawValue, entry.resource?.change.rawValue)
        check("resource.key", key, entry.resource?.key)
        return found
    }
}

extension JournalQuery: CustomStringConvertible {
    /// Reads as the request it asks for: `GET /search?term=jack+johnson&offset=0 (stub search)`.
    public var description: String {
        var text = "\(method ?? "any method") \(path ?? "any path")"
        if !query.isEmpty {
            let items = query.keys.sorted().map { name in
                "\(name)=\(query[name]?.replacing(" ", with: "+") ?? "")"
            }
            text += "?" + items.joined(separator: "&")
        }
        let conditions = [
            stub.map { "stub \($0)" }, variant.map { "variant \($0)" }, unmatchedOnly ? "unmatched" : nil,
            bodyContains.map { "body containing \($0.debugDescription)" }, change.map { "\($0.rawValue)" },
            key.map { "key \($0)" },
        ]
        .compactMap { $0 }
        return conditions.isEmpty ? text : "\(text) (\(conditions.joined(separator: ", ")))"
    }
}

/// The requests a server received, oldest first: a ring of the most recent `capacity` entries.
package struct RequestJournal {
    /// Most bytes of a body kept per entry, so that a full journal of large uploads stays small.
    static let maxStoredBody = 65_536
    let capacity: Int
    /// Secrets kept out of every entry.
    let redaction: Redaction
    private var ring: [JournalEntry] = []
    /// Where the oldest entry is once the ring is full.
    private var oldest = 0
    private var nextID = 1

    package init(capacity: Int, redaction: Redaction = Redaction()) {
        self.capacity = max(1, capacity)
        self.redaction = redaction
    }

    /// Records `request` and what answered it; returns the entry's `id`.
    @discardableResult
    package mutating func record(
        _ request: Request, stub: String?, variant: String?, status: Int?, fault: StubVariant.Fault?,
        closest: [StubMiss]? = nil, forwarded: String? = nil, draw: JournalEntry.Draw? = nil,
        violations: [String]? = nil, stream: JournalEntry.StreamKind? = nil
    ) -> Int {
        let entry = JournalEntry(
            id: nextID, time: Date(), method: request.method, path: request.path,
            target: redaction.redacted(target: request.target),
            query: request.query.map { item in
                JournalEntry.QueryItem(
                    name: item.name, value: redaction.query.contains(item.name) ? Redaction.placeholder : item.value)
            },
            headers: request.headers.map { field in
                HeaderField(
                    name: field.name, value: redaction.redacts(header: field.name) ? Redaction.placeholder : field.value
                )
            },
            body: Data(request.body.prefix(Self.maxStoredBody)), bodySize: request.body.count, stub: stub,
            variant: variant, status: status, fault: fault, closest: closest, forwarded: forwarded, draw: draw,
            operationName: Self.operationName(of: request), contractViolations: violations, stream: stream)
        nextID += 1
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
        return entry.id
    }

    /// Changes entry `id`, if it is still kept.
    package mutating func update(entry id: Int, _ change: (inout JournalEntry) -> Void) {
        // Ids are consecutive: the entry is `age` places before the newest.
        let age = nextID - 1 - id
        guard age >= 0, age < ring.count else { return }
        let newest = ring.count < capacity ? ring.count - 1 : (oldest + capacity - 1) % capacity
        let index = (newest - age + capacity) % capacity
        if ring[index].id == id { change(&ring[index]) }
    }

    /// Notes how many events the stream answering entry `id` sent, if the entry is still kept.
    package mutating func noteEventsSent(_ count: Int, entry id: Int) {
        update(entry: id) { $0.eventsSent = count }
    }

    /// The GraphQL operation names `request` carries, if it names any; the body is read only when it mentions
    /// `operationName`, so other requests cost nothing.
    static func operationName(of request: Request) -> String? {
        guard
            request.queryValue("operationName") != nil
                || request.body.withUnsafeBufferPointer({ Self.mentionsOperationName($0) })
        else { return nil }
        let names = GraphQLOperation.all(in: request, body: RequestBody(request.body)).compactMap(\.operationName)
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    private static func mentionsOperationName(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = Array("\"operationName\"".utf8)
        guard body.count >= needle.count else { return false }
        for start in 0...(body.count - needle.count) where body[start] == 0x22 {
            if needle.indices.allSatisfy({ body[start + $0] == needle[$0] }) { return true }
        }
        return false
    }

    package func entries(matching query: JournalQuery) -> [JournalEntry] {
        (ring[oldest...] + ring[..<oldest]).filter(query.accepts)
    }

    package mutating func clear() {
        ring.removeAll()
        oldest = 0
    }
}
