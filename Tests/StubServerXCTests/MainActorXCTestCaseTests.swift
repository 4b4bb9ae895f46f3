import Foundation
import StubServer
import StubServerXCTest
import StubTestSupport
import XCTest

/// The XCTest helpers from a main-actor test case, as a UI test is (`XCUIApplication` is main-actor): each compiles
/// in Swift 6 mode without sending the test case off the main actor, and works.
@MainActor
final class MainActorXCTestCaseTests: XCTestCase {
    func testTheHelpers_runOnTheMainActor() async throws {
        let fixtures = try XCTUnwrap(StubCatalog.findFolder())
        let server = try startStubServer(fixtures: fixtures)
        let remote = try await connectRemoteStubs(url: server.baseURL)
        try await remote.setVariant("bad", forStub: "top-albums")
        let answer = try await get("/api/v1/us/apple-music/top-albums/all/100/explicit.json", from: server)
        XCTAssertEqual(answer.header("X-Stub-Variant"), "bad")
        await XCTAssertRequested(remote, JournalQuery(stub: "top-albums"))
        let stubs = try startInProcessStubs(fixtures: fixtures)
        XCTAssertEqual(stubs.requestCount(), 0)
    }

    /// The starters find a fixtures folder by name, beside the test file or above it, as the traits do.
    func testTheStarters_findTheFolderByName() async throws {
        let server = try startStubServer()
        XCTAssertEqual(server.catalog.root?.lastPathComponent, "MockData")
        XCTAssertEqual(try startInProcessStubs(fixtures: "MockData").catalog.root?.lastPathComponent, "MockData")
        XCTAssertThrowsError(try startStubServer(fixtures: "NoSuchFolder")) { error in
            XCTAssertTrue(
                "\(error)".contains("NoSuchFolder: no such fixtures folder beside "), "\(error)")
        }
    }
}
