public import Foundation
public import StubServer

/// What a server does with requests its fixtures do not answer.
public enum RecordingMode: Sendable, Equatable {
    /// Records requests no stub matches.
    case missing(upstream: URL)
    /// Records every request, in sequences.
    case all(upstream: URL)
    /// Answers requests no stub matches from the upstream, writing nothing.
    case proxy(upstream: URL)

    var isRecording: Bool {
        if case .proxy = self { return false }
        return true
    }
}

extension StubServer {
    /// Starts a server on `fixtures` that records (or proxies) what they do not answer; the folder may be missing
    /// or empty. Recording is refused when `environment` has `CI` set, unless `allowInCI`: a test run in CI must
    /// not depend on the network.
    /// - Parameters:
    ///   - api: the folder recordings go to; by default named after the upstream's host.
    ///   - environment: the process environment, passed in so that the CI rule can be tested anywhere.
    ///   - log: told what was recorded.
    /// - Throws: `RecordingError.refusedInCI`, `CatalogError` for invalid fixtures, `StubServerError.bindFailed`.
    public static func start(
        fixtures: URL, recording: RecordingMode, api: String? = nil,
        configuration: Configuration = Configuration(), timeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment, allowInCI: Bool = false,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> StubServer {
        if recording.isRecording, environment["CI"] != nil, !allowInCI { throw RecordingError.refusedInCI }
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        var configuration = configuration
        switch recording {
        case .missing(let upstream), .all(let upstream):
            configuration.forwarder = Recorder(
                upstream: upstream, fixtures: fixtures, api: api,
                mode: recording == .all(upstream: upstream) ? .all : .missing,
                redaction: configuration.redaction, timeout: timeout, log: log)
        case .proxy(let upstream):
            configuration.forwarder = Proxy(upstream: upstream, timeout: timeout)
        }
        return try start(catalog: catalog(in: fixtures), configuration: configuration)
    }

    /// The fixtures in `folder`, or an empty catalog rooted there when it has no API folder yet.
    private static func catalog(in folder: URL) throws -> StubCatalog {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let hasStubs = entries.contains { entry in
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(entry).appendingPathComponent("stubs.json").path)
        }
        guard hasStubs else { return try StubCatalog(stubs: [], root: folder) }
        return try StubCatalog.load(from: folder)
    }
}

/// Runs `body` with a server on `fixtures` that records (or proxies) what they do not answer, the way snapshot
/// tests record a missing reference on their first run; stops it afterwards.
public func withRecordingStubServer<T>(
    fixtures: URL, recording: RecordingMode, api: String? = nil,
    configuration: StubServer.Configuration = StubServer.Configuration(),
    environment: [String: String] = ProcessInfo.processInfo.environment, allowInCI: Bool = false,
    isolation: isolated (any Actor)? = #isolation, _ body: (StubServer) async throws -> T
) async throws -> T {
    try await StubServer.start(
        fixtures: fixtures, recording: recording, api: api, configuration: configuration, environment: environment,
        allowInCI: allowInCI
    ).serving(body)
}
