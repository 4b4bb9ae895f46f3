// swift-tools-version: 6.1
// Peer servers for bench/load.sh, in a package of their own: the product's Package.swift depends on nothing.
// Each executable answers every GET with one file as application/json: PEER PORT FILE (127.0.0.1).
import PackageDescription

let package = Package(
    name: "bench-peers",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        .executableTarget(
            name: "peer-hummingbird", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
        .executableTarget(name: "peer-flyingfox", dependencies: [.product(name: "FlyingFox", package: "FlyingFox")]),
    ]
)
