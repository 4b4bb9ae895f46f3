import HTTPMessages

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A validated set of stubs, loaded from a `MockData`-style folder or built in code.
public struct StubCatalog: Sendable {
    /// The stubs in load order: API folders sorted by name, stubs in file order.
    public let stubs: [Stub]
    /// The folder the catalog was loaded from, if any; `reload` reads it again.
    package let root: URL?
    /// Stub indices sorted most specific first, ties by load order.
    private let order: [Int]

    /// Builds a catalog from stubs made in code.
    /// - Throws: `CatalogError` listing every problem (duplicate names, missing variants, bad sequences).
    package init(stubs: [Stub], root: URL? = nil) throws(CatalogError) {
        let problems = Self.problems(in: stubs)
        guard problems.isEmpty else { throw CatalogError(root: root, problems: problems) }
        self.stubs = stubs
        self.root = root
        self.order = stubs.indices.sorted { lhs, rhs in
            let (left, right) = (stubs[lhs].request.specificity, stubs[rhs].request.specificity)
            return left == right ? lhs < rhs : left.lexicographicallyPrecedes(right, by: >)
        }
    }

    /// The stub named `name`.
    package func stub(named name: String) -> Stub? {
        stubs.first { $0.name == name }
    }

    /// The stub named `name`, or the error that names the stubs there are.
    package func existingStub(_ name: String) throws(StubServerError) -> Stub {
        guard let found = stub(named: name) else { throw .unknownStub(name, known: stubs.map(\.name)) }
        return found
    }

    /// Resource stub `name` and its resource, or the error that names the stubs or resources there are.
    package func existingResource(_ name: String) throws(StubServerError) -> (Stub, StubResource) {
        let found = try existingStub(name)
        guard let resource = found.resource else {
            throw .notAResource(name, resources: stubs.filter { $0.resource != nil }.map(\.name))
        }
        return (found, resource)
    }

    /// Stub `stub`'s variant `variant`, or the error that names the stubs or variants there are.
    package func existingVariant(_ variant: String, ofStub stub: String) throws(StubServerError) -> StubVariant {
        let found = try existingStub(stub)
        guard let chosen = found.variants[variant] else {
            throw .unknownVariant(variant, stub: stub, available: found.variantNames)
        }
        return chosen
    }

    /// The most specific stub that matches `request` with its scenario in the right state, or why none does.
    /// - Parameters:
    ///   - host: the host the request was sent to, checked against stubs' `hosts` (in process); nil ignores them.
    ///   - scenarios: the current state of each scenario that has left `start`.
    func match(_ request: Request, host: String? = nil, scenarios: [String: String] = [:]) -> StubMatch {
        var allowed: [String] = []
        // A stub with this method and path that missed on something else makes a 404 with reasons, not a 405.
        var methodStubbedHere = false
        let body = RequestBody(request.body)
        for index in order {
            let stub = stubs[index]
            let captures: [String: String]
            // A resource answers its collection's path and one item's below it, each with its methods.
            var resourceMethods: [String]?
            if stub.resource != nil {
                guard let target = StubResource.target(of: request.path, base: stub.request.path.description) else {
                    continue
                }
                if case .item(let key) = target { captures = ["key": key] } else { captures = [:] }
                resourceMethods = StubResource.methods(for: target)
            } else {
                guard let found = stub.request.path.match(request.path) else { continue }
                captures = found
            }
            let methodMatches =
                resourceMethods?.contains { Self.methodMatches($0, request.method) }
                ?? Self.methodMatches(stub.request.method, request.method)
            guard Self.hostMismatch(stub, host) == nil, Self.mismatchesOfQueryAndHeaders(stub.request, request).isEmpty,
                stub.request.body?.accepts(body) ?? true,
                stub.request.graphql?.mismatches(of: request, body: body).isEmpty ?? true,
                Self.scenarioMismatch(stub, scenarios) == nil
            else {
                methodStubbedHere = methodStubbedHere || methodMatches
                continue
            }
            if methodMatches { return .matched(stub, pathParameters: captures) }
            if let resourceMethods { allowed += resourceMethods } else { allowed.append(stub.request.method) }
        }
        if !allowed.isEmpty, !methodStubbedHere {
            if allowed.contains("GET") { allowed.append("HEAD") }
            return .methodNotAllowed(allowed: Array(Set(allowed)).sorted())
        }
        return .unmatched(closest: closestMisses(for: request, host: host, body: body, scenarios: scenarios))
    }

    static func methodMatches(_ expected: String, _ actual: String) -> Bool {
        expected == actual || (expected == "GET" && actual == "HEAD")
    }

    /// Every scenario the stubs take part in, each with the states they name (`start` first).
    package var scenarios: [String: [String]] {
        var states: [String: [String]] = [:]
        for scenario in stubs.compactMap(\.scenario) {
            var known = states[scenario.name] ?? [StubScenario.start]
            for state in [scenario.when, scenario.then].compactMap({ $0 }) where !known.contains(state) {
                known.append(state)
            }
            states[scenario.name] = known
        }
        return states
    }

    /// Up to three stubs that came nearest to matching, each with every field that did not match.
    private func closestMisses(
        for request: Request, host: String?, body: RequestBody, scenarios: [String: String]
    ) -> [StubMiss] {
        let misses = stubs.map { stub in
            var mismatches: [StubMiss.Mismatch] = []
            if let missed = Self.hostMismatch(stub, host) { mismatches.append(missed) }
            if !Self.methodMatches(stub.request.method, request.method) {
                mismatches.append(.init(field: "method", expected: stub.request.method, actual: request.method))
            }
            if stub.request.path.match(request.path) == nil {
                mismatches.append(.init(field: "path", expected: stub.request.path.description, actual: request.path))
            }
            mismatches += Self.mismatchesOfQueryAndHeaders(stub.request, request)
            mismatches += stub.request.body?.mismatches(of: body) ?? []
            mismatches += stub.request.graphql?.mismatches(of: request, body: body) ?? []
            if let missed = Self.scenarioMismatch(stub, scenarios) { mismatches.append(missed) }
            return StubMiss(stub: stub.name, file: stub.file, mismatches: mismatches)
        }
        let pathMissed = { (miss: StubMiss) in miss.mismatches.contains { $0.field == "path" } }
        return misses.enumerated().sorted { lhs, rhs in
            let left = (pathMissed(lhs.element) ? 1 : 0, lhs.element.mismatches.count, lhs.offset)
            let right = (pathMissed(rhs.element) ? 1 : 0, rhs.element.mismatches.count, rhs.offset)
            return left < right
        }.prefix(3).map(\.element)
    }

    /// The hosts a stub answers, when `host` is not one of them.
    private static func hostMismatch(_ stub: Stub, _ host: String?) -> StubMiss.Mismatch? {
        guard let host, !stub.hosts.isEmpty, !stub.hosts.contains(host.lowercased()) else { return nil }
        return .init(field: "host", expected: stub.hosts.joined(separator: " or "), actual: host)
    }

    /// The scenario state a stub waits for, when its scenario is elsewhere.
    private static func scenarioMismatch(_ stub: Stub, _ scenarios: [String: String]) -> StubMiss.Mismatch? {
        guard let scenario = stub.scenario, let wanted = scenario.when else { return nil }
        let current = scenarios[scenario.name] ?? StubScenario.start
        guard current != wanted else { return nil }
        return .init(
            field: "scenario.\(scenario.name)", expected: "state \(wanted.debugDescription)",
            actual: "state \(current.debugDescription)")
    }

    private static func mismatchesOfQueryAndHeaders(_ pattern: RequestPattern, _ request: Request) -> [StubMiss
        .Mismatch]
    {
        var mismatches: [StubMiss.Mismatch] = []
        for (name, matcher) in pattern.query {
            let value = request.queryValue(name)
            if !matcher.accepts(value) {
                mismatches.append(
                    .init(field: "query.\(name)", expected: matcher.description, actual: value ?? "(absent)"))
            }
        }
        for (name, matcher) in pattern.headers {
            let value = request.headers[name]
            if !matcher.accepts(value) {
                mismatches.append(
                    .init(field: "header.\(name)", expected: matcher.description, actual: value ?? "(absent)"))
            }
        }
        return mismatches
    }
}

/// The outcome of matching a request against a catalog.
enum StubMatch {
    case matched(Stub, pathParameters: [String: String])
    /// Some stub matches everything but the method.
    case methodNotAllowed(allowed: [String])
    case unmatched(closest: [StubMiss])

    var isMatched: Bool {
        if case .matched = self { return true }
        return false
    }
}

/// A stub that did not match a request, with each field that missed.
public struct StubMiss: Sendable, Equatable, Codable {
    public var stub: String
    package var file: String
    public var mismatches: [Mismatch]

    /// One field that did not match: what the stub expected and what the request had.
    public struct Mismatch: Sendable, Equatable, Codable {
        public var field: String
        public var expected: String
        public var actual: String
    }
}
