import HTTPEngine
import StubCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StubServer {
    /// How a server listens, what it accepts, and where it reports each request.
    public struct Configuration: Sendable {
        /// The address to listen on; loopback unless another address is asked for explicitly.
        package var host: String
        /// The port; 0 picks a free ephemeral port, which `StubServer.port` reports.
        public var port: UInt16
        /// The server-wide variant at start, nil for none (`good` unless a stub says otherwise).
        public var variant: String?
        /// Most bytes of request line plus headers; beyond that the answer is 431.
        package var maxHeaderBytes: Int
        /// Most bytes of a request body; beyond that the answer is 413.
        package var maxBodyBytes: Int
        /// How long a keep-alive connection may wait for its next request before it is closed.
        package var idleTimeout: Duration
        /// How long a client may take to send a whole request once its first byte arrived; then 408 and close.
        package var headerTimeout: Duration
        /// Most open connections; more are answered 503 and closed. Nil (the default): what the process's
        /// open-file limit leaves room for, less a margin for files (`StubServer.connectionLimit` says what it chose).
        package var maxConnections: Int?
        /// How many recent requests the journal keeps.
        package var journalCapacity: Int
        /// Headers and query parameters whose values never reach the journal; secrets by default.
        public var redaction: Redaction
        /// Who answers requests no stub matches (or every request): a proxy or a recorder (StubServerRecording
        /// sets it); nil to answer 404.
        package var forwarder: (any RequestForwarder)?
        /// Called after each answered request, from the server's thread.
        package var log: (@Sendable (RequestLog) -> Void)?
        /// Seeds the draws of variants' `faults` and of `chaos`; nil picks one at random (`StubServer.seed` says
        /// which, so a failing run can be replayed).
        public var seed: UInt64?
        /// The chance, 0...1, that any answer a stub gives is replaced by a fault: drop, reset, truncate or
        /// malformed. Admin requests and unmatched requests never draw.
        public var chaos: Double
        /// Reload the fixtures folder whenever a file under it changes (debounced); a broken edit keeps the
        /// last good catalog in service. Needs a catalog loaded from a folder.
        public var watchFixtures: Bool
        /// Called after every reload (watched, asked for through the admin API, or `reload()`), from the thread
        /// that reloaded.
        package var onReload: (@Sendable (ReloadReport) -> Void)?
        /// Called on the server's thread, with a line to show, each time it stops accepting because the process
        /// has no file descriptor to spare (see `acceptPauses`).
        package var onAcceptPause: (@Sendable (String) -> Void)?
        /// The folder every answer is recorded in for the coverage report (`stub-server coverage`): one JSON line
        /// each, with the test that was running. Nil: `STUB_COVERAGE_DIR`'s, when set; else nothing is recorded.
        public var coverage: URL?
        /// Serve HTTPS instead of HTTP, with a certificate the local authority signs; nil (the default): HTTP.
        public var https: HTTPS?

        /// - Parameters:
        ///   - port: 0 (the default) takes a free ephemeral port.
        ///   - variant: the server-wide variant at start.
        ///   - redaction: what never reaches the journal.
        ///   - seed: the seed of random faults and chaos; nil picks one.
        ///   - chaos: the chance that any answer is replaced by a fault.
        ///   - watchFixtures: reload the folder when a file under it changes.
        ///   - coverage: the folder coverage records go to.
        ///   - https: serve HTTPS instead of HTTP.
        public init(
            port: UInt16 = 0, variant: String? = nil, redaction: Redaction = Redaction(), seed: UInt64? = nil,
            chaos: Double = 0, watchFixtures: Bool = false, coverage: URL? = nil, https: HTTPS? = nil
        ) {
            self.init(
                host: "127.0.0.1", port: port, variant: variant, redaction: redaction, seed: seed, chaos: chaos,
                watchFixtures: watchFixtures, coverage: coverage, https: https)
        }

        /// Every setting, the engine's limits and the command line's hooks included.
        package init(
            host: String = "127.0.0.1", port: UInt16 = 0, variant: String? = nil, maxHeaderBytes: Int = 16_384,
            maxBodyBytes: Int = 1 << 20, idleTimeout: Duration = .seconds(30), headerTimeout: Duration = .seconds(10),
            maxConnections: Int? = nil, journalCapacity: Int = 1_000, redaction: Redaction = Redaction(),
            log: (@Sendable (RequestLog) -> Void)? = nil,
            seed: UInt64? = nil, chaos: Double = 0, watchFixtures: Bool = false,
            onReload: (@Sendable (ReloadReport) -> Void)? = nil, onAcceptPause: (@Sendable (String) -> Void)? = nil,
            coverage: URL? = nil, https: HTTPS? = nil
        ) {
            self.coverage = coverage
            self.https = https
            self.host = host
            self.port = port
            self.variant = variant
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.idleTimeout = idleTimeout
            self.headerTimeout = headerTimeout
            self.maxConnections = maxConnections
            self.journalCapacity = journalCapacity
            self.redaction = redaction
            self.forwarder = nil
            self.log = log
            self.seed = seed
            self.chaos = chaos
            self.watchFixtures = watchFixtures
            self.onReload = onReload
            self.onAcceptPause = onAcceptPause
        }

        var limits: HTTPServer.Limits {
            HTTPServer.Limits(
                maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes, idleTimeout: idleTimeout,
                headerTimeout: headerTimeout,
                maxConnections: maxConnections ?? OpenFileLimit.connections(underFileLimit: OpenFileLimit.current()))
        }
    }

    /// What the server did with one request, for a log line.
    package struct RequestLog: Sendable, Equatable {
        package var method: String
        package var target: String
        package var stub: String?
        package var variant: String?
        /// The status sent, nil when a fault sent none.
        package var status: Int?
        package var fault: String?
        /// Time from the complete request to the last byte written.
        package var milliseconds: Double
        /// How an upstream answered (`proxied`, `recorded`), nil for the catalog.
        package var forwarded: String?
        /// What the stub's API contract refuses in the request, each with its place; nil when nothing.
        package var contractViolations: [String]? = nil
        /// The mutant served instead of the variant as written, by its ID.
        package var mutation: String? = nil

        /// Reads as `GET /search?term=a top-albums good 200 0.4ms`, with `mutant=ID` after the variant when a mutant
        /// was served.
        package var line: String {
            let outcome = [
                mutation.map { "mutant=\($0)" }, status.map(String.init), fault.map { "fault=\($0)" }, forwarded,
            ].compactMap { $0 }.joined(separator: " ")
            let tenths = Int((milliseconds * 10).rounded())
            let line = "\(method) \(target) \(stub ?? "-") \(variant ?? "-") \(outcome) \(tenths / 10).\(tenths % 10)ms"
            // Each problem on a line of its own, indented: what the API would have refused.
            return line + (contractViolations ?? []).map { "\n  contract: \($0)" }.joined()
        }
    }
}
