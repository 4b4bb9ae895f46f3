/// A stub's part in a named scenario: it answers only while the scenario is in state `when`, and moves it to
/// `then` once it has answered. Every scenario starts in `start`.
package struct StubScenario: Sendable, Equatable, CustomStringConvertible {
    /// The state every scenario starts in, and returns to on reset.
    package static let start = "start"

    package var name: String
    /// The state the scenario must be in; nil for any state.
    package var when: String?
    /// The state the scenario moves to after this stub answers; nil to leave it.
    package var then: String?

    package init(name: String, when: String? = nil, then: String? = nil) {
        self.name = name
        self.when = when
        self.then = then
    }

    /// Reads as `cart: empty -> has-item`.
    package var description: String {
        "\(name): \(when ?? "any") -> \(then ?? "same")"
    }
}
