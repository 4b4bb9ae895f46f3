import Foundation
import HTTPEngine

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
    public var headers: [Field]
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
    public var fault: String?

    /// One header field, as sent.
    public typealias Field = HeaderField

    /// One decoded `name=value` pair of the query string (`+` reads as a space).
    public struct QueryItem: Sendable, Equatable, Codable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
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
    public var stub: String?
    public var variant: String?
    public var method: String?
    public var path: String?
    /// Only requests no stub matched.
    public var unmatchedOnly: Bool

    public init(
        stub: String? = nil, variant: String? = nil, method: String? = nil, path: String? = nil,
        unmatchedOnly: Bool = false
    ) {
        self.stub = stub
        self.variant = variant
        self.method = method
        self.path = path
        self.unmatchedOnly = unmatchedOnly
    }

    func accepts(_ entry: JournalEntry) -> Bool {
        (stub == nil || entry.stub == stub) && (variant == nil || entry.variant == variant)
            && (method == nil || entry.method == method) && (path == nil || entry.path == path)
            && (!unmatchedOnly || entry.stub == nil)
    }
}

/// The requests a server received, oldest first: a ring of the most recent `capacity` entries.
struct RequestJournal {
    /// Most bytes of a body kept per entry, so that a full journal of large uploads stays small.
    static let maxStoredBody = 65_536
    let capacity: Int
    private var ring: [JournalEntry] = []
    /// Where the oldest entry is once the ring is full.
    private var oldest = 0
    private var nextID = 1

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func record(_ request: HTTPRequest, stub: String?, variant: String?, status: Int?, fault: String?) {
        let entry = JournalEntry(
            id: nextID, time: Date(), method: request.method, path: request.path, target: request.target,
            query: request.query.map { JournalEntry.QueryItem(name: $0.name, value: $0.value) },
            headers: request.headers.map { JournalEntry.Field(name: $0.name, value: $0.value) },
            body: Data(request.body.prefix(Self.maxStoredBody)), bodySize: request.body.count, stub: stub,
            variant: variant, status: status, fault: fault)
        nextID += 1
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    func entries(matching query: JournalQuery) -> [JournalEntry] {
        (ring[oldest...] + ring[..<oldest]).filter(query.accepts)
    }

    mutating func clear() {
        ring.removeAll()
        oldest = 0
    }
}
