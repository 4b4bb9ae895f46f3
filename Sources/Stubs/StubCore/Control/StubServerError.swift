/// A run-time request to a stub server, over the wire or in process, that it cannot carry out.
///
/// The admin API sends it beside its message (`{"error": "...", "kind": {...}}`), so a `RemoteStubs` throws the case
/// the other process threw.
public enum StubServerError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// No stub has this name.
    case unknownStub(String, known: [String])
    /// The stub has no such variant.
    case unknownVariant(String, stub: String, available: [String])
    /// No stub at all has this variant, so choosing it server-wide would change nothing.
    case variantNowhere(String)
    /// The catalog was not loaded from a folder, so there is nothing to reload.
    case notReloadable
    /// The system refused to watch the fixtures folder (for example, too many inotify watches).
    case watchFailed(String)
    /// An admin request that sets a value (`variant`, `state`) did not give one.
    case valueMissing(String)
    /// No stub takes part in a scenario of this name.
    case unknownScenario(String, known: [String])
    /// No stub of the scenario names this state.
    case unknownScenarioState(String, scenario: String, states: [String])
    /// The server could not listen on the address: the port is taken, the host is not an address of this machine,
    /// or the process has no descriptor left; `reason` is the system's (`bind 127.0.0.1:8080 failed: Address
    /// already in use`).
    case bindFailed(host: String, port: Int, reason: String)
    /// The server could not serve HTTPS: the local authority's folder cannot be written or does not load, or
    /// the platform has no TLS for the server; `reason` says which.
    case httpsFailed(reason: String)
    /// A WebSocket close code a close frame may not carry (RFC 6455, 7.4).
    case invalidCloseCode(UInt16)
    /// A remote control could not carry out a call: nothing answered at `url`, or what answered was not a stub
    /// server's admin API; `reason` says which (`connection refused`, `answered 404 for GET /__stub/journal`).
    case controlFailed(url: String, reason: String)
    /// The stub is no resource (it has no `resource` key); `resources` are those that are.
    case notAResource(String, resources: [String])
    /// Items given to replace a resource's collection that it cannot hold: `reason` names the item and field.
    case invalidItems(resource: String, reason: String)
    /// No variant of the stub has a mutant of this ID; `closest` are the nearest IDs it has (a typo's fix).
    case unknownMutant(String, stub: String, closest: [String])

    public var description: String {
        switch self {
        case .unknownStub(let name, let known):
            "no stub named \(name.debugDescription); stubs: \(known.joined(separator: ", "))"
        case .unknownVariant(let variant, let stub, let available):
            "stub \(stub.debugDescription) has no variant \(variant.debugDescription); variants: \(available.joined(separator: ", "))"
        case .variantNowhere(let variant):
            "no stub has a variant \(variant.debugDescription)"
        case .notReloadable:
            "this catalog was not loaded from a folder, so it cannot be reloaded"
        case .watchFailed(let message):
            "cannot watch the fixtures folder: \(message)"
        case .valueMissing(let key):
            "no \(key) given: send {\"\(key)\": \"NAME\"}, ?\(key)=NAME or the name as plain text"
        case .unknownScenario(let name, let known):
            "no scenario named \(name.debugDescription); scenarios: "
                + (known.isEmpty ? "(none)" : known.joined(separator: ", "))
        case .unknownScenarioState(let state, let scenario, let states):
            "scenario \(scenario.debugDescription) has no state \(state.debugDescription); states: "
                + states.joined(separator: ", ")
        case .bindFailed(let host, let port, let reason):
            "cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port): \(reason)"
        case .httpsFailed(let reason):
            "cannot serve HTTPS: \(reason)"
        case .invalidCloseCode(let code):
            "close code \(code) may not be sent: use 1000-1003, 1007-1014 or 3000-4999"
        case .controlFailed(let url, let reason):
            "cannot control the stubs at \(url): \(reason)"
        case .notAResource(let name, let resources):
            "stub \(name.debugDescription) is not a resource; resources: "
                + (resources.isEmpty ? "(none)" : resources.joined(separator: ", "))
        case .invalidItems(let resource, let reason):
            "cannot replace the items of \(resource): \(reason)"
        case .unknownMutant(let id, let stub, let closest):
            "no variant of stub \(stub.debugDescription) has a mutant \(id.debugDescription)"
                + (closest.isEmpty ? "" : "; nearest: \(closest.joined(separator: ", "))")
                + " (\(AdminEndpoint.stubMutations.methods[0]) \(AdminEndpoint.stubMutations.path(stub)) lists them)"
        }
    }
}
