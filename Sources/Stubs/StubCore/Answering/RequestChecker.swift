package import HTTPMessages

/// Checks a matched request against the API contract its stub stands for (`Stub.contract`). `StubContracts`
/// implements it; `serve` and the testing helpers install it. The answer does not change: what it finds is kept
/// beside the request's journal entry and reported like a request no stub matched.
package protocol RequestChecker: Sendable {
    /// Each problem of `request` for `stub`, such as `query.limit: expected integer, got "ten"`; none when it holds.
    func problems(of request: Request, for stub: Stub, pathParameters: [String: String]) -> [String]
}
