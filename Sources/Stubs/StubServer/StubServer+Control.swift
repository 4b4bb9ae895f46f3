import StubCore

// The control operations are `LocalStubControl`'s, written once over the runtime for both transports.
extension StubServer: LocalStubControl {
    /// The environment an app under test reads the server's address from: `[key: baseURL]`, for
    /// `XCUIApplication.launchEnvironment` or `Process.environment`.
    public func launchEnvironment(key: String = "STUB_SERVER_URL") -> [String: String] {
        [key: baseURL.absoluteString]
    }
}
