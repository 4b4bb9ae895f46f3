public import Foundation
public import StubCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stubs answering in another process, controlled through their admin API (`/__stub/`): a `stub-server serve`
/// started by a script, or an app that started `InProcessStubs` from its launch environment with a control port.
/// It is a `StubControl` like a local server: the testing helpers (`expectRequests`, `expectNoUnmatchedRequests`,
/// `XCTAssertRequested`) take it and word their failures alike.
///
/// ```swift
/// let stubs = RemoteStubs(url: URL(string: "http://127.0.0.1:8080")!)
/// try await stubs.setVariant("bad", forStub: "top-albums")
/// // ... drive the app ...
/// await expectRequests(JournalQuery(stub: "top-albums"), on: stubs)
/// ```
///
/// A call the other side refuses throws the `StubServerError` it threw there; a call that reaches no stub server
/// throws `StubServerError.controlFailed`. Every call is bounded by `timeout`.
public final class RemoteStubs: StubControl {
    /// The environment variable a test process or an app reads a stub server's base URL from.
    public static let environmentKey = "STUB_SERVER_URL"

    /// The server's base URL (the admin API is under `/__stub/`).
    public let url: URL
    /// How long one call may take.
    public let timeout: Duration
    private let session: URLSession

    /// - Parameters:
    ///   - url: the server's base URL, `http://127.0.0.1:PORT`.
    ///   - timeout: how long one call may take: 30 s by default, as the recorder's, so that a busy simulator or CI
    ///     machine is not taken for a dead app.
    public init(url: URL, timeout: Duration = .seconds(30)) {
        self.url = url
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.seconds(timeout)
        configuration.timeoutIntervalForResource = Self.seconds(timeout)
        session = URLSession(configuration: configuration)
    }

    public var serverVariant: String? {
        get async throws(StubServerError) { try await stubList().serverVariant }
    }

    public func setVariant(_ variant: String?) async throws(StubServerError) {
        if let variant {
            try await send(.setVariant, body: ["variant": variant])
        } else {
            try await send(.clearVariant)
        }
    }

    public func setVariant(_ variant: String?, forStub stub: String) async throws(StubServerError) {
        if let variant {
            try await send(.setStubVariant, stub, body: ["variant": variant])
        } else {
            try await send(.clearStubVariant, stub)
        }
    }

    public func variant(forStub stub: String) async throws(StubServerError) -> String? {
        try await item(stub).choice
    }

    public func setMutation(_ mutation: String?, forStub stub: String) async throws(StubServerError) {
        if let mutation {
            try await send(.setStubMutation, stub, body: ["mutation": mutation])
        } else {
            try await send(.clearStubMutation, stub)
        }
    }

    public func mutation(forStub stub: String) async throws(StubServerError) -> String? {
        try await item(stub).mutation
    }

    public func items(ofResource name: String) async throws(StubServerError) -> Data {
        try await send(.resourceItems, name).body
    }

    public func setItems(_ items: Data, ofResource name: String) async throws(StubServerError) {
        try await send(.setResourceItems, name, data: items)
    }

    public var scenarios: [String: String] {
        get async throws(StubServerError) {
            let list: AdminBody.ScenarioList = try await decode(try await send(.scenarios))
            return Dictionary(uniqueKeysWithValues: list.scenarios.map { ($0.name, $0.state) })
        }
    }

    public func setScenario(_ name: String, to newState: String) async throws(StubServerError) {
        try await send(.setScenarioState, name, body: ["state": newState])
    }

    public func journal(_ query: JournalQuery = JournalQuery()) async throws(StubServerError) -> [JournalEntry] {
        let page: AdminBody.JournalPage = try await decode(try await send(.journal, query: query.queryItems))
        return page.entries
    }

    public func requestCount(_ query: JournalQuery = JournalQuery()) async throws(StubServerError) -> Int {
        let count: AdminBody.Count = try await decode(try await send(.journalCount, query: query.queryItems))
        return count.count
    }

    public func unmatchedRequests() async throws(StubServerError) -> [JournalEntry] {
        try await journal(JournalQuery(unmatchedOnly: true))
    }

    public func clearJournal() async throws(StubServerError) {
        try await send(.clearJournal)
    }

    public func reset() async throws(StubServerError) {
        try await send(.reset)
    }

    /// Names the test the other process's answers are for in its coverage records (nil: none), as a trait names
    /// its own server's.
    package func recordCoverage(as test: String?) async throws(StubServerError) {
        if let test {
            try await send(.setCoverageTest, body: ["test": test])
        } else {
            try await send(.clearCoverageTest)
        }
    }

    /// Asks the other process to load its fixtures folder again; on failure it keeps serving the previous catalog.
    /// - Throws: `CatalogError` with the other side's problems (file and key path), or `StubServerError`.
    @discardableResult
    public func reload() async throws -> ReloadReport {
        let answer = try await exchange(.reload, path: AdminEndpoint.reload.path, query: [], body: nil)
        switch answer.status {
        case 200:
            let health: AdminBody.Health = try await decode(answer)
            guard let report = health.lastReload else {
                throw StubServerError.controlFailed(url: url.absoluteString, reason: "the reload answer has no report")
            }
            return report
        case 422:
            let failure: AdminBody.ReloadFailure = try await decode(answer)
            throw CatalogError(root: failure.fixtures.map { URL(fileURLWithPath: $0) }, problems: failure.problems)
        default:
            throw refusal(answer, "POST \(AdminEndpoint.reload.path)")
        }
    }

    /// Lets go of the connection; the other process goes on serving.
    public func stop() async {
        session.invalidateAndCancel()
    }
}

extension RemoteStubs {
    /// One answer of the admin API.
    struct Answer {
        var status: Int
        var body: Data
    }

    /// Calls `endpoint` (about the stub, resource or scenario `name`, if its path has one) and returns its answer
    /// when it succeeded (2xx).
    /// - Throws: the `StubServerError` the server sent back, or `.controlFailed`.
    @discardableResult
    func send(
        _ endpoint: AdminEndpoint, _ name: String = "", query: [URLQueryItem] = [], body: [String: String]? = nil,
        data: Data? = nil
    ) async throws(StubServerError) -> Answer {
        let path = endpoint.path(name)
        let answer = try await exchange(endpoint, path: path, query: query, body: body, data: data)
        guard (200..<300).contains(answer.status) else { throw refusal(answer, "\(endpoint.methods[0]) \(path)") }
        return answer
    }

    /// Calls `endpoint` at `path` with `body` as a JSON object, or `data` as it is (JSON), and returns its answer.
    func exchange(
        _ endpoint: AdminEndpoint, path: String, query: [URLQueryItem], body: [String: String]?, data: Data? = nil
    ) async throws(StubServerError) -> Answer {
        let method = endpoint.methods[0]
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .controlFailed(url: url.absoluteString, reason: "not a URL with a host")
        }
        components.path =
            components.path.hasSuffix("/") ? String(components.path.dropLast()) + path : components.path + path
        // Encoded here: URLComponents leaves `+` as it is, which the server reads as a space.
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "+&=;"))
        components.percentEncodedQuery =
            query.isEmpty
            ? nil
            : query.map { item in
                [item.name, item.value ?? ""].map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
                    .joined(separator: "=")
            }.joined(separator: "&")
        guard let target = components.url else {
            throw .controlFailed(url: url.absoluteString, reason: "cannot build a URL for \(path)")
        }
        var request = URLRequest(url: target, timeoutInterval: Self.seconds(timeout))
        request.httpMethod = method
        if let bytes = data ?? body.flatMap({ try? JSONEncoder().encode($0) }) {
            request.httpBody = bytes
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw StubServerError.controlFailed(url: url.absoluteString, reason: "no HTTP answer")
            }
            return Answer(status: http.statusCode, body: data)
        } catch let error as StubServerError {
            throw error
        } catch {
            throw .controlFailed(url: url.absoluteString, reason: "\(method) \(path): \(error.localizedDescription)")
        }
    }

    /// The error a refused call carries: the server's own `StubServerError` when it sent one.
    func refusal(_ answer: Answer, _ call: String) -> StubServerError {
        if let failure = try? JSONDecoder().decode(AdminBody.ControlFailure.self, from: answer.body) {
            return failure.kind
        }
        let message = (try? JSONDecoder().decode(AdminBody.Failure.self, from: answer.body))?.error
        return .controlFailed(
            url: url.absoluteString,
            reason: "answered \(answer.status) to \(call)" + (message.map { ": \($0)" } ?? ""))
    }

    func decode<Value: Decodable>(_ answer: Answer) async throws(StubServerError) -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Value.self, from: answer.body)
        } catch {
            throw .controlFailed(url: url.absoluteString, reason: "an answer that is not the admin API's: \(error)")
        }
    }

    func stubList() async throws(StubServerError) -> AdminBody.StubList {
        try await decode(try await send(.stubs))
    }

    func item(_ stub: String) async throws(StubServerError) -> AdminBody.StubList.Item {
        let list = try await stubList()
        guard let item = list.stubs.first(where: { $0.name == stub }) else {
            throw .unknownStub(stub, known: list.stubs.map(\.name))
        }
        return item
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension JournalQuery {
    /// The query as the admin API reads it (`GET /__stub/journal?stub=...&query.term=...`).
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let stub { items.append(URLQueryItem(name: "stub", value: stub)) }
        if let variant { items.append(URLQueryItem(name: "variant", value: variant)) }
        if let method { items.append(URLQueryItem(name: "method", value: method)) }
        if let path { items.append(URLQueryItem(name: "path", value: path)) }
        for (name, value) in query.sorted(by: { $0.key < $1.key }) {
            items.append(URLQueryItem(name: "query." + name, value: value))
        }
        if unmatchedOnly { items.append(URLQueryItem(name: "unmatched", value: "true")) }
        if let bodyContains { items.append(URLQueryItem(name: "body", value: bodyContains)) }
        if let change { items.append(URLQueryItem(name: "change", value: change.rawValue)) }
        if let key { items.append(URLQueryItem(name: "key", value: key)) }
        return items
    }
}

extension RemoteStubs: JournalOrigin {
    package var journalOrigin: String { url.absoluteString }
}
