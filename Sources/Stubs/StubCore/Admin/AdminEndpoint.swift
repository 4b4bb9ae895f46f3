/// One endpoint of the admin API under `/__stub/`: the contract `AdminAPI` routes by and `RemoteStubs` calls
/// through, written once. The DocC article "The admin API" lists every one (a test holds it to this list).
package enum AdminEndpoint: String, CaseIterable, Sendable {
    case index, controlScript, controlStyle, icon, health
    case stubs, setVariant, clearVariant, setStubVariant, clearStubVariant
    case setStubMutation, clearStubMutation, stubMutations
    case journal, clearJournal, journalCount, unmatched
    case resourceItems, setResourceItems
    case scenarios, setScenarioState, resetScenarios, resetScenario
    case webSockets, webSocketSend, webSocketClose
    case setCoverageTest, clearCoverageTest
    case reset, reload

    /// The methods it answers; the first is the one a client sends. `HEAD` is answered as `GET`.
    package var methods: [String] {
        switch self {
        case .index, .controlScript, .controlStyle, .icon, .health, .stubs, .stubMutations, .journal, .journalCount,
            .unmatched, .resourceItems, .scenarios, .webSockets:
            ["GET"]
        case .setVariant, .setStubVariant, .setStubMutation, .setScenarioState, .setCoverageTest: ["PUT", "POST"]
        case .setResourceItems: ["PUT"]
        case .clearVariant, .clearStubVariant, .clearStubMutation, .clearJournal, .clearCoverageTest: ["DELETE"]
        case .resetScenarios, .resetScenario, .webSocketSend, .webSocketClose, .reset, .reload: ["POST"]
        }
    }

    /// Its path, with `{name}` for the stub, resource or scenario it is about.
    package var path: String {
        switch self {
        case .index: "/__stub"
        case .controlScript: "/__stub/control.js"
        case .controlStyle: "/__stub/control.css"
        case .icon: "/__stub/icon.svg"
        case .health: "/__stub/health"
        case .stubs: "/__stub/stubs"
        case .setVariant, .clearVariant: "/__stub/variant"
        case .setStubVariant, .clearStubVariant: "/__stub/stubs/{name}/variant"
        case .setStubMutation, .clearStubMutation: "/__stub/stubs/{name}/mutation"
        case .stubMutations: "/__stub/stubs/{name}/mutations"
        case .journal, .clearJournal: "/__stub/journal"
        case .journalCount: "/__stub/journal/count"
        case .unmatched: "/__stub/unmatched"
        case .resourceItems, .setResourceItems: "/__stub/resources/{name}"
        case .scenarios: "/__stub/scenarios"
        case .setScenarioState: "/__stub/scenarios/{name}/state"
        case .resetScenarios: "/__stub/scenarios/reset"
        case .resetScenario: "/__stub/scenarios/{name}/reset"
        case .webSockets: "/__stub/websockets"
        case .webSocketSend: "/__stub/websockets/{name}/send"
        case .webSocketClose: "/__stub/websockets/{name}/close"
        case .setCoverageTest, .clearCoverageTest: "/__stub/coverage/test"
        case .reset: "/__stub/reset"
        case .reload: "/__stub/reload"
        }
    }

    /// `PUT|POST /__stub/variant`: how the help and the reference name it.
    package var route: String { "\(methods.joined(separator: "|")) \(path)" }

    /// Its path for the stub, resource or scenario `name`, escaped as one path segment.
    package func path(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@".utf8)
        var segment = ""
        for byte in name.utf8 {
            if allowed.contains(byte) {
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                segment += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == "{name}" ? segment : String($0) }.joined(separator: "/")
    }

    /// Whether a request path's segments after `/__stub` (`["stubs", "albums", "variant"]`) are this endpoint's.
    package func matches(_ parts: [String]) -> Bool {
        let pattern = path.split(separator: "/").dropFirst()
        return pattern.count == parts.count && zip(pattern, parts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}
