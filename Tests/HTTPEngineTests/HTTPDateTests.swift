import TestTurns
import Testing

@testable import HTTPEngine

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct HTTPDateTests {
    @Test func httpDate_formatsIMFFixdate() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
