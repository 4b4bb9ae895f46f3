import Foundation
import StubServer

/// The fixtures folder a trait names: `url` when given, an absolute path, or a folder named `fixtures` found
/// beside the test file `filePath` or in a folder above it.
func resolveFixtures(_ fixtures: String, url: URL?, from filePath: String) throws -> URL {
    if let url { return url }
    if fixtures.hasPrefix("/") { return URL(fileURLWithPath: fixtures) }
    guard let folder = StubCatalog.findFolder(named: fixtures, from: filePath) else {
        throw StubServerTestingError.fixturesNotFound(fixtures, from: filePath)
    }
    return folder
}

/// A stub server trait that could not set up its server.
public enum StubServerTestingError: Error, Equatable, CustomStringConvertible {
    case fixturesNotFound(String, from: String)

    public var description: String {
        switch self {
        case .fixturesNotFound(let name, let file):
            "no folder named \(name) beside \(file) or in any directory above it"
        }
    }
}
