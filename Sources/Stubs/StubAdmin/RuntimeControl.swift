import StubCore

/// The one control over a runtime, for the routes: `LocalStubControl`'s operations, nothing of a transport.
final class RuntimeControl: LocalStubControl {
    let runtime: StubRuntime

    init(runtime: StubRuntime) {
        self.runtime = runtime
    }

    func stop() async {}
}
