// swift-tools-version: 6.0
// A package of a user's own, as the README's "Add the package" block sets one up: it depends on CatalogKit by path,
// builds in Swift 6 language mode, and imports products only. `.ci/check-doc-examples.py` writes every Swift
// example of the README and the guides into its test targets (generated files, not committed), builds them all,
// and runs the README's.
import PackageDescription

let products: [Target.Dependency] = [
    "StubServer", "StubServerInProcess", "StubServerRemote", "StubServerTesting", "StubServerXCTest",
    "StubServerRecording", "Networking", "AlbumsFeature",
].map { .product(name: $0, package: "CatalogKit") }

let package = Package(
    name: "DocExamples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    // A path's last component is the package's identity: `name:` keeps "CatalogKit" whatever the clone's folder is.
    dependencies: [.package(name: "CatalogKit", path: "../..")],
    targets: [
        // The few UI-testing types the guides' UI tests use, declared on Linux only (Apple's XCTest has them).
        .target(name: "XCUIStandIn"),
        .testTarget(name: "ReadmeExamples", dependencies: products),
        // Fixtures shipped as test resources, as the guides' on-device example has them (`Bundle.module`).
        .testTarget(name: "GuideExamples", dependencies: products + ["XCUIStandIn"], resources: [.copy("MockData")]),
    ]
)
