public import Testing
import XCTest

/// Records a failure in whichever framework runs the current test.
///
/// Swift Testing sets `Test.current` (a task-local, inherited by the tasks a test starts) while one of its tests
/// runs; when it is nil the caller is an XCTest case, and `XCTFail` reports to it.
public enum TestFailure {
    /// Records `message` as a failure of the running test, at `sourceLocation` under Swift Testing.
    public static func record(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        } else {
            XCTFail(message)
        }
    }
}
