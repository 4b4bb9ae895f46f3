// swift-tools-version: 6.1
// An app's networking in the shape the catalog apps have, and its tests against the stub server with fixtures
// shipped as test resources: what a user of this package writes. Depends on the package two folders up by path.
import PackageDescription

let package = Package(
    name: "CatalogApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [.library(name: "CatalogAPI", targets: ["CatalogAPI"])],
    dependencies: [.package(name: "CatalogKit", path: "../..")],
    targets: [
        .target(name: "CatalogAPI", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "CatalogAPITests",
            dependencies: [
                "CatalogAPI",
                .product(name: "StubServer", package: "CatalogKit"),
                .product(name: "StubServerTesting", package: "CatalogKit"),
            ],
            // The fixtures travel with the test bundle, so the tests also run on a device.
            resources: [.copy("MockData")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
