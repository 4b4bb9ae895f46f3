import StubCore

extension StubServer {
    /// Every scenario the catalog's stubs take part in, with its current state.
    public var scenarios: [String: String] {
        state.withLock { state in
            state.catalog.scenarios.mapValues { _ in StubScenario.start }.merging(
                state.scenarios.filter { state.catalog.scenarios[$0.key] != nil }
            ) { _, current in current }
        }
    }

    /// Moves scenario `name` to `newState`, as if a stub had answered.
    /// - Throws: `StubServerError.unknownScenario` or `.unknownScenarioState` (states are `start` and those the
    ///   stubs name).
    public func setScenario(_ name: String, to newState: String) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            let known = state.catalog.scenarios
            guard let states = known[name] else { throw .unknownScenario(name, known: known.keys.sorted()) }
            guard states.contains(newState) else {
                throw .unknownScenarioState(newState, scenario: name, states: states)
            }
            state.scenarios[name] = newState
        }
    }

    /// Returns scenario `name` to `start`, or every scenario when `name` is nil.
    /// - Throws: `StubServerError.unknownScenario` for a name no stub uses.
    public func resetScenario(_ name: String? = nil) throws(StubServerError) {
        try state.withLock { (state: inout StubState) throws(StubServerError) in
            guard let name else {
                state.scenarios = [:]
                return
            }
            let known = state.catalog.scenarios
            guard known[name] != nil else { throw .unknownScenario(name, known: known.keys.sorted()) }
            state.scenarios[name] = nil
        }
    }
}
