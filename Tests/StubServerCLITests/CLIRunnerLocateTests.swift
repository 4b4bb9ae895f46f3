// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import TestTurns
    import Testing

    /// The built tool is found beside the test bundle wherever that is, not only beside `CommandLine.arguments[0]`
    /// (on macOS that is `xctest` or the toolchain's testing helper, outside `.build`).
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct CLIRunnerLocateTests {
        static let products = "/work/app/.build/arm64-apple-macosx/debug"

        @Test(arguments: [
            // macOS: the loaded bundle is a folder; the runner is the toolchain's.
            ["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", products + "/CatalogKitPackageTests.xctest"],
            // Linux: the bundle is the running executable.
            [products + "/CatalogKitPackageTests.xctest"],
            // A bundle's executable, deeper inside it.
            [products + "/CatalogKitPackageTests.xctest/Contents/MacOS/CatalogKitPackageTests"],
        ])
        func theTool_isFoundBesideTheTestBundle(places: [String]) {
            let found = CLIRunner.locate(
                "stub-server", override: nil, near: places.map { URL(fileURLWithPath: $0) },
                isExecutable: { $0 == Self.products + "/stub-server" })
            #expect(found?.path == Self.products + "/stub-server")
        }

        @Test func anOverride_winsWhenExecutable_andIsNotSecondGuessed() {
            let places = [URL(fileURLWithPath: Self.products + "/CatalogKitPackageTests.xctest")]
            let executables: Set = ["/opt/stub-server", Self.products + "/stub-server"]
            #expect(
                CLIRunner.locate(
                    "stub-server", override: "/opt/stub-server", near: places, isExecutable: executables.contains)?
                    .path == "/opt/stub-server")
            #expect(
                CLIRunner.locate("stub-server", override: "/missing", near: places, isExecutable: executables.contains)
                    == nil)
        }

        @Test func nothingBuilt_isNil() {
            let places = [URL(fileURLWithPath: Self.products + "/CatalogKitPackageTests.xctest")]
            #expect(CLIRunner.locate("stub-server", override: nil, near: places, isExecutable: { _ in false }) == nil)
        }
    }
#endif
