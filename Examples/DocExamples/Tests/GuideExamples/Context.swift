// The guides' Swift examples are written here by .ci/check-doc-examples.py (Example*.swift) and built. A fragment
// of statements is written inside a main-actor test case's method; what the guides' prose gives it is here.
import Foundation

/// The fixtures folder the guides' fragments pass as `mockData` ("a MockData-style folder"), as a test finds it.
let mockData = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../MockData")
