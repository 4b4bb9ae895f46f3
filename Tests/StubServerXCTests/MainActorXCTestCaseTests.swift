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
        let server = try await startStubServer(transport: .socket, fixtures: fixtures)
        let remote = try await startStubServer(transport: .remote(server.baseURL))
        try await remote.setVariant("bad", forStub: "top-albums")
        let answer = try await get("/api/v1/us/apple-music/top-albums/all/100/explicit.json", from: server)
        XCTAssertEqual(answer.header("X-Stub-Variant"), "bad")
        await XCTAssertRequested(remote, JournalQuery(stub: "top-albums"))
        let stubs = try await startStubServer(
            transport: .inProcess, fixtures: fixtures, variants: ["top-albums": "nil"])
        XCTAssertEqual(stubs.requestCount(), 0)
        XCTAssertEqual(stubs.variant(forStub: "top-albums"), "nil")
    }

    /// The starters from before the transport was a parameter still compile (with a warning naming the new one:
    /// this test is deprecated itself so that the build shows none) and start what they started.
    @available(*, deprecated)
    func testTheOldStarters_stillStartTheirStubs() async throws {
        let fixtures = try XCTUnwrap(StubCatalog.findFolder())
        let server = try startStubServer(fixtures: fixtures)
        let remote = try await connectRemoteStubs(url: server.baseURL)
        try await remote.setVariant("bad", forStub: "top-albums")
        XCTAssertEqual(server.variant(forStub: "top-albums"), "bad")
        XCTAssertEqual(try startInProcessStubs(fixtures: "MockData").catalog.root?.lastPathComponent, "MockData")
        XCTAssertEqual(try startStubServer().catalog.root?.lastPathComponent, "MockData")
    }

    /// The starters find a fixtures folder by name, beside the test file or above it, as the traits do.
    func testTheStarters_findTheFolderByName() async throws {
        let server = try await startStubServer(transport: .socket)
        XCTAssertEqual(server.catalog.root?.lastPathComponent, "MockData")
        let stubs = try await startStubServer(transport: .inProcess, fixtures: "MockData")
        XCTAssertEqual(stubs.catalog.root?.lastPathComponent, "MockData")
        do {
            _ = try await startStubServer(transport: .socket, fixtures: "NoSuchFolder")
            XCTFail("a folder that is not there was found")
        } catch {
            XCTAssertTrue("\(error)".contains("NoSuchFolder: no such fixtures folder beside "), "\(error)")
        }
    }
}
