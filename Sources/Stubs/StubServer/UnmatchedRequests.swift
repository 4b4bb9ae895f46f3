/// What a test does with requests no stub matched: the `.stubServer` trait and `XCTestCase.startStubServer` take
/// the same policy, over every transport.
public enum UnmatchedRequests: Sendable {
    /// Each one fails the test when it ends, with the stubs that came closest, field by field.
    case fail
    /// They are answered 404 and nothing more.
    case allow
}
