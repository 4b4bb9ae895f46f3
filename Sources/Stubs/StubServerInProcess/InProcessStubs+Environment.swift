public import Foundation
import StubAdmin
import StubCore

extension InProcessStubs {
    /// The launch environment `startFromEnvironment()` reads, by name.
    public enum Environment {
        /// The fixtures folder: a path the app can read (a folder of its bundle, or one the simulator shares).
        public static let fixtures = "STUB_FIXTURES"
        /// The server-wide variant.
        public static let variant = "STUB_VARIANT"
        /// Variants per stub: `top-albums=bad,search=slow`.
        public static let variants = "STUB_VARIANTS"
        /// The loopback port of the admin API, for `RemoteStubs` in the test; `0` takes a free one.
        public static let controlPort = "STUB_CONTROL_PORT"
    }

    /// Starts stubs inside an app from its launch environment, for its UI tests: the app calls this at start in
    /// its debug build and gives its sessions `sessionConfiguration` (on Apple platforms `URLSession.shared` is
    /// answered too), so its requests keep their real https URLs and are answered from the fixtures. With
    /// `STUB_CONTROL_PORT`, the admin API is served on `127.0.0.1` (only there, and nothing else), and the UI test
    /// drives the stubs with `RemoteStubs`: variants, the journal, strictness.
    ///
    /// ```swift
    /// // In the app, debug builds only:
    /// let stubs = try InProcessStubs.startFromEnvironment()
    /// let session = stubs.map { URLSession(configuration: $0.sessionConfiguration) } ?? .shared
    /// ```
    /// - Parameter environment: the process's environment by default.
    /// - Returns: the running stubs, or nil, having done nothing, when `STUB_FIXTURES` is not set.
    /// - Throws: `CatalogError` for invalid fixtures, `InProcessStubsError.invalidEnvironment` for a variable it
    ///   cannot read, `StubServerError` for a variant the fixtures lack or a port it cannot listen on.
    public static func startFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> InProcessStubs?
    {
        guard let folder = environment[Environment.fixtures], !folder.isEmpty else { return nil }
        var port: UInt16?
        if let text = environment[Environment.controlPort] {
            guard let number = UInt16(text) else {
                throw InProcessStubsError.invalidEnvironment(
                    Environment.controlPort, value: text, expected: "a port number from 0 to 65535")
            }
            port = number
        }
        let stubs = try start(fixtures: URL(fileURLWithPath: folder))
        do {
            try stubs.setVariant(environment[Environment.variant].flatMap { $0.isEmpty ? nil : $0 })
            for (stub, variant) in try variants(environment[Environment.variants] ?? "") {
                try stubs.setVariant(variant, forStub: stub)
            }
            if let port { _ = try stubs.serveControl(port: port) }
        } catch {
            stubs.release()
            throw error
        }
        if canInterceptSharedSession { try? stubs.interceptSharedSession() }
        return stubs
    }

    /// The launch environment that makes an app's `startFromEnvironment()` serve `fixtures`, with these
    /// variants, and its admin API on `controlPort` (none when nil), for `XCUIApplication.launchEnvironment`.
    public static func launchEnvironment(
        fixtures: String, variants: [String: String] = [:], variant: String? = nil, controlPort: Int? = nil
    ) -> [String: String] {
        var environment = [Environment.fixtures: fixtures]
        if let variant { environment[Environment.variant] = variant }
        if !variants.isEmpty {
            environment[Environment.variants] = variants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: ",")
        }
        if let controlPort { environment[Environment.controlPort] = String(controlPort) }
        return environment
    }

    /// Serves this server's admin API on `127.0.0.1:port` (0: a free port) and nothing else, so a test in another
    /// process controls these stubs with `RemoteStubs(url:)`; the stubs still answer in process only.
    /// - Returns: the control's base URL (also `controlURL`).
    /// - Throws: `StubServerError.bindFailed` when the port is taken.
    @discardableResult
    public func serveControl(port: UInt16 = 0) throws -> URL {
        try control.withLock { control in
            if let running = control { return running.baseURL }
            let started = try AdminServer.start(runtime: runtime, port: port)
            control = started
            return started.baseURL
        }
    }

    /// The admin API's base URL once `serveControl(port:)` started it.
    public var controlURL: URL? { control.withLock { $0?.baseURL } }

    /// `STUB_VARIANTS` read: `stub=variant` pairs separated by commas.
    static func variants(_ text: String) throws(InProcessStubsError) -> [(stub: String, variant: String)] {
        try text.split(separator: ",").map { pair throws(InProcessStubsError) in
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .invalidEnvironment(
                    Environment.variants, value: text, expected: "stub=variant pairs, comma-separated")
            }
            return (parts[0], parts[1])
        }
    }
}
