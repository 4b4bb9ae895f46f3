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
        let stubs = try await startStubServer(transport: .socket, fixtures: fixtures)
        let server = try XCTUnwrap(stubs.server)
        let remote = try await startStubServer(transport: .remote(server.baseURL))
        try await remote.setVariant("bad", forStub: "top-albums")
        let answer = try await get("/api/v1/us/apple-music/top-albums/all/100/explicit.json", from: server)
        XCTAssertEqual(answer.header("X-Stub-Variant"), "bad")
        await XCTAssertRequested(remote, JournalQuery(stub: "top-albums"))
        let inProcess = try await startStubServer(
            transport: .inProcess, fixtures: fixtures, variants: ["top-albums": "nil"])
        let count = try await inProcess.requestCount()
        let variant = try await inProcess.variant(forStub: "top-albums")
        XCTAssertEqual(count, 0)
        XCTAssertEqual(variant, "nil")
    }

    /// The starters find a fixtures folder by name, beside the test file or above it, as the traits do.
    func testTheStarters_findTheFolderByName() async throws {
        let server = try await startStubServer(transport: .socket)
        XCTAssertEqual(server.server?.catalog.root?.lastPathComponent, "MockData")
        let stubs = try await startStubServer(transport: .inProcess, fixtures: "MockData")
        XCTAssertEqual(stubs.inProcess?.catalog.root?.lastPathComponent, "MockData")
        do {
            _ = try await startStubServer(transport: .socket, fixtures: "NoSuchFolder")
            XCTFail("a folder that is not there was found")
        } catch {
            XCTAssertTrue("\(error)".contains("NoSuchFolder: no such fixtures folder beside "), "\(error)")
        }
    }
}
