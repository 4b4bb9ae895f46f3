/// One route of a fixture catalog: what requests it answers and the variants it can answer with.
public struct Stub: Sendable, Equatable {
    /// The stub's name, unique in its catalog; answers carry it in `X-Stub-Name`.
    public var name: String
    /// The API folder it was loaded from, such as `albums`.
    public var api: String
    /// The fixture file it was declared in, relative to the catalog's root, such as `albums/stubs.json`.
    public var file: String
    public var request: RequestPattern
    /// The variants by name; every stub has at least `good`, `bad` and `nil`.
    public var variants: [String: StubVariant]
    /// Variants answered to the 1st, 2nd, ... call; the last one repeats.
    public var sequence: [String]
    /// A request the drift check sends for this stub, when its matchers alone do not make one.
    public var replay: Replay?

    public init(
        name: String, api: String = "", file: String = "", request: RequestPattern, variants: [String: StubVariant],
        sequence: [String] = [], replay: Replay? = nil
    ) {
        self.name = name
        self.api = api
        self.file = file
        self.request = request
        self.variants = variants
        self.sequence = sequence
        self.replay = replay
    }

    /// An example request: a literal path and query values.
    public struct Replay: Sendable, Equatable {
        public var path: String
        public var query: [String: String]

        public init(path: String, query: [String: String] = [:]) {
            self.path = path
            self.query = query
        }
    }

    /// The variant names, sorted with `good`, `bad`, `nil` first.
    public var variantNames: [String] {
        let leading = ["good", "bad", "nil"].filter { variants[$0] != nil }
        return leading + variants.keys.filter { !leading.contains($0) }.sorted()
    }
}

/// What a request must look like to match a stub.
public struct RequestPattern: Sendable, Equatable {
    /// The method; a `GET` stub also answers `HEAD`.
    public var method: String
    public var path: PathPattern
    public var query: [(name: String, matcher: ValueMatcher)]
    public var headers: [(name: String, matcher: ValueMatcher)]

    public init(
        method: String = "GET", path: PathPattern, query: [(name: String, matcher: ValueMatcher)] = [],
        headers: [(name: String, matcher: ValueMatcher)] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// Orders stubs by how specific they are: literal path segments, then exact matchers, then regular
    /// expressions, then any matchers at all (`present`, `absent`).
    var specificity: [Int] {
        let matchers = query.map(\.matcher) + headers.map(\.matcher)
        let patterns = matchers.filter { if case .matches = $0 { true } else { false } }
        return [path.literalCount, matchers.filter(\.isExact).count, patterns.count, matchers.count]
    }

    public static func == (lhs: RequestPattern, rhs: RequestPattern) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path
            && lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.matcher == $1.matcher }
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.matcher == $1.matcher }
    }
}
