/// One route of a fixture catalog: what requests it answers and the variants it can answer with.
public struct Stub: Sendable, Equatable {
    /// The stub's name, unique in its catalog; answers carry it in `X-Stub-Name`.
    public var name: String
    /// The API folder it was loaded from, such as `albums`.
    package var api: String
    /// The fixture file it was declared in, relative to the catalog's root, such as `albums/stubs.json`.
    package var file: String
    package var request: RequestPattern
    /// The variants by name; every stub has at least `good`, `bad` and `nil`.
    public var variants: [String: StubVariant]
    /// Variants answered to the 1st, 2nd, ... call; the last one repeats.
    package var sequence: [String]
    /// A request the drift check sends for this stub, when its matchers alone do not make one.
    package var replay: Replay?
    /// The scenario this stub answers in, if any.
    package var scenario: StubScenario?
    /// The hosts it answers in process (lowercased), from its file's `hosts`; empty for any host. The socket
    /// server ignores them: its requests all carry its own address.
    package var hosts: [String] = []
    /// The OpenAPI operation this stub stands for, from its `openapi` key: what its answers are validated against
    /// and its requests checked against.
    package var contract: Contract?
    /// The collection this stub stands for, from its `resource` key: its `good` answers are the collection's.
    package var resource: StubResource?

    package init(
        name: String, api: String = "", file: String = "", request: RequestPattern, variants: [String: StubVariant],
        sequence: [String] = [], replay: Replay? = nil, scenario: StubScenario? = nil
    ) {
        self.name = name
        self.api = api
        self.file = file
        self.request = request
        self.variants = variants
        self.sequence = sequence
        self.replay = replay
        self.scenario = scenario
    }

    /// An example request: a literal path and query values.
    package struct Replay: Sendable, Equatable {
        package var path: String
        package var query: [String: String]
        /// A JSON body, sent with the stub's method (a POST to a model API); nil for none.
        package var body: [UInt8]?

        package init(path: String, query: [String: String] = [:], body: [UInt8]? = nil) {
            self.path = path
            self.query = query
            self.body = body
        }
    }

    /// An operation of an OpenAPI document.
    package struct Contract: Sendable, Equatable {
        /// The document's path, relative to the stub's API folder.
        package var spec: String
        package var operation: Operation

        package init(spec: String, operation: Operation) {
            self.spec = spec
            self.operation = operation
        }

        /// How the operation is named: its `operationId`, else its method and path template.
        package enum Operation: Sendable, Equatable, CustomStringConvertible {
            case id(String)
            case route(method: String, path: String)
            /// For a resource stub, which answers several operations: the one each request's method and path name.
            case eachRequest

            package var description: String {
                switch self {
                case .id(let id): id
                case .route(let method, let path): "\(method) \(path)"
                case .eachRequest: "the operation of each request"
                }
            }
        }
    }

    /// Whether `host` is a host name or address as `hosts` holds them: letters, digits, `-`, `.`, or an IPv6
    /// address in brackets; no scheme, port or path.
    package static func isValidHost(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 {
            return host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !host.isEmpty
            && host.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D
                    || byte == 0x2E
            }
    }

    /// A name for a stub made from a request or an operation: `get-search`, `get-api-json-v1-1-lookup-php`, the
    /// method and the path's words.
    package static func suggestedName(method: String, path: String) -> String {
        var words: [String] = []
        var word = ""
        for character in path.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return ([method.lowercased()] + (words.isEmpty ? ["root"] : words)).joined(separator: "-")
    }

    /// The variant names, sorted with `good`, `bad`, `nil` first.
    package var variantNames: [String] {
        let leading = ["good", "bad", "nil"].filter { variants[$0] != nil }
        return leading + variants.keys.filter { !leading.contains($0) }.sorted()
    }
}

/// What a request must look like to match a stub.
package struct RequestPattern: Sendable, Equatable {
    /// The method; a `GET` stub also answers `HEAD`.
    package var method: String
    package var path: PathPattern
    package var query: [(name: String, matcher: ValueMatcher)]
    package var headers: [(name: String, matcher: ValueMatcher)]
    /// What the body must hold; nil for any body.
    package var body: BodyMatcher?
    /// The GraphQL operations the request must carry; nil for any request.
    package var graphql: GraphQLMatcher?
    /// For a WebSocket stub: its handshake options. Its variants with a `script` answer the handshake with `101`.
    package var webSocket: WebSocketRoute?

    package init(
        method: String = "GET", path: PathPattern, query: [(name: String, matcher: ValueMatcher)] = [],
        headers: [(name: String, matcher: ValueMatcher)] = [], body: BodyMatcher? = nil, graphql: GraphQLMatcher? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.graphql = graphql
    }

    /// Orders stubs by how specific they are: literal path segments, then exact matchers, then regular
    /// expressions, then any matchers at all (`present`, `absent`). Body conditions count like matchers.
    var specificity: [Int] {
        let matchers = query.map(\.matcher) + headers.map(\.matcher)
        let patterns = matchers.filter { if case .matches = $0 { true } else { false } }
        let conditions = body?.conditions ?? []
        let graphql = self.graphql?.conditions ?? (exact: 0, patterns: 0, all: 0)
        return [
            path.literalCount, matchers.filter(\.isExact).count + conditions.filter(\.isExact).count + graphql.exact,
            patterns.count + conditions.filter(\.isPattern).count + graphql.patterns,
            matchers.count + conditions.count + graphql.all,
        ]
    }

    /// The path plus its conditions, such as `/search ?term="jack johnson" ?offset=present [Accept matches /json/]`
    /// and `{body ...}` when the stub matches on its body.
    package var summary: String {
        let query = self.query.map { "?\($0.name)=\($0.matcher)" }
        let headers = self.headers.map { "[\($0.name) \($0.matcher)]" }
        let body = self.body.map { ["{body \($0)}"] } ?? []
        let graphql = self.graphql.map { ["{graphql \($0)}"] } ?? []
        let webSocket = self.webSocket.map { _ in ["[websocket]"] } ?? []
        return ([path.description] + query + headers + body + graphql + webSocket).joined(separator: " ")
    }

    package static func == (lhs: RequestPattern, rhs: RequestPattern) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.body == rhs.body && lhs.graphql == rhs.graphql
            && lhs.webSocket == rhs.webSocket
            && lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.matcher == $1.matcher }
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.matcher == $1.matcher }
    }
}
