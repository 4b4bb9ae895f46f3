import Foundation
import StubHarness
import Testing

/// A stub trait that a suite and its tests can both carry. Swift Testing gives a test its suites' recursive traits
/// ahead of its own, so one test sees several traits of this kind: only the one nearest the test starts a server,
/// with the settings it was given over those of the traits around it, and the others step aside. A test gets one
/// server, not one per trait.
protocol NestedTrait: Trait {
    /// Tells this trait's copies from other traits of its kind (a suite's from a test's).
    var identity: UUID { get }
    /// The settings this trait was given explicitly; the others come from the traits around it.
    var given: Set<TraitSetting> { get }
    /// This trait with every setting it was not given taken from `outer`, and the per-stub variants of both
    /// (this trait's winning for a stub both name).
    func merged(over outer: Self) -> Self
}

/// A setting of a stub trait, which a trait nearer the test overrides only when it was given.
enum TraitSetting: Hashable {
    case transport, fixtures, variant, unmatched, contracts

    /// The settings a trait's factory was given: those passed, not left out (nil, or the default transport).
    static func given<Stubs>(
        transport: StubTransport<Stubs>, fixtures: Any?, variant: String?, unmatched: Any?, contracts: Any?
    ) -> Set<Self> {
        var given: Set<Self> = []
        if !transport.isDefault { given.insert(.transport) }
        if fixtures != nil { given.insert(.fixtures) }
        if variant != nil { given.insert(.variant) }
        if unmatched != nil { given.insert(.unmatched) }
        if contracts != nil { given.insert(.contracts) }
        return given
    }
}

extension NestedTrait {
    /// The trait that starts `test`'s server: nil unless this is the trait of its kind nearest the test, which then
    /// carries the outer ones' settings beneath its own.
    func scope(for test: Test) -> Self? {
        let chain = test.traits.compactMap { $0 as? Self }
        guard let nearest = chain.last, nearest.identity == identity else {
            // Not among the test's traits (a trait applied by hand): it starts a server of its own.
            return chain.contains { $0.identity == identity } ? nil : self
        }
        return chain.dropLast().reversed().reduce(nearest) { inner, outer in inner.merged(over: outer) }
    }
}
