/// What a test does with requests no stub matched: the `.stubServer` and `.inProcessStubs` traits and
/// `XCTestCase.startStubServer` take the same policy.
public enum UnmatchedRequests: Sendable {
    /// Each one fails the test when it ends, with the stubs that came closest, field by field.
    case fail
    /// They are answered 404 and nothing more.
    case allow
}
