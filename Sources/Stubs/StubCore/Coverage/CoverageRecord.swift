/// One answer a server gave, as the coverage report counts it: a line of JSON in a `served-*.jsonl` file of the
/// coverage folder (`STUB_COVERAGE_DIR`). Contributing/Coverage.md documents the format; `version` is in every
/// line, and a reader skips lines of a version it does not know.
package struct CoverageRecord: Codable, Equatable, Sendable {
    /// The format's version.
    package var version = 1
    /// The test that was running, as `Module.Suite/name()` (what `swift test --xunit-output` calls
    /// `classname/name`); nil outside a test.
    package var test: String?
    /// `socket` or `in process`.
    package var transport: String
    /// The fixtures folder served, as the server was given it; nil for a catalog made in code. A report reads
    /// only its own folder's records.
    package var fixtures: String?
    /// The stub that answered; nil for a request no stub matched.
    package var stub: String?
    package var variant: String?
    /// The mutant served, by ID.
    package var mutation: String?
    /// The status sent; nil when a fault sent none.
    package var status: Int?
    package var fault: String?
    /// The stub's OpenAPI operation (`operationId`, or `METHOD /path`), when it has a contract.
    package var operation: String?
    /// What the request did to a resource's collection (`created`, `refused`, ...).
    package var change: String?
    package var method: String
    package var path: String
    /// The TLS failure a connection met before any request (`expired`, a `TLSFailure` ID); method and path are then
    /// empty and no stub answered.
    package var tlsFailure: String?

    package init(
        test: String?, transport: String, fixtures: String? = nil, stub: String?, variant: String?, mutation: String?,
        status: Int?,
        fault: String?, operation: String?, change: String?, method: String, path: String, tlsFailure: String? = nil
    ) {
        self.test = test
        self.transport = transport
        self.fixtures = fixtures
        self.stub = stub
        self.variant = variant
        self.mutation = mutation
        self.status = status
        self.fault = fault
        self.operation = operation
        self.change = change
        self.method = method
        self.path = path
        self.tlsFailure = tlsFailure
    }
}
