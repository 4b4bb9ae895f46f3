// swift-tools-version: 6.1
// The stub server and the platform-independent core of the catalog apps.
// No package dependencies: only what the Swift toolchain ships.
import PackageDescription

/// `Sources/` by kind, each target in `Sources/KIND/NAME`: the stub server product and what it is built of
/// (`Stubs`), the five apps' cores (`Apps`), what both use (`Shared`), what tests use (`TestSupport`) and what
/// only the package's own scripts run (`Tools`, no products). Contributing/Architecture.md draws it.
let layout: [String: [String]] = [
    "Stubs": [
        "StubServer", "StubServerInProcess", "StubServerRemote", "StubServerTesting", "StubServerXCTest",
        "StubServerRecording", "StubAdmin", "StubHarness", "StubCoverage",
        "StubServerCLI", "StubServerRecordCLI", "StubCore", "StubContracts", "StubMutations", "CLISupport",
        "HTTPEngine", "HTTPMessages", "JSONModel", "YAMLParsing",
    ],
    "Apps": [
        "Networking", "ImageCache", "Persistence", "Playback", "AlbumsFeature", "DessertsFeature", "MoviesFeature",
        "TopSongsFeature", "TrackSearchFeature", "CSQLite",
    ],
    "Shared": ["CLinux", "COpenSSL", "Locking", "Spawning", "XMLPath"],
    "TestSupport": [
        "SharedTestSupport", "TestTurns", "StubTestSupport", "ChildProcesses", "NetworkingTestSupport",
        "PlaybackTestSupport",
    ],
    "Tools": ["CatalogBenchmarks", "InProcessProbe", "StubbedApp"],
]

/// Settings applied to every target.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "CatalogKit",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StubServer", targets: ["StubServer"]),
        .library(name: "StubServerInProcess", targets: ["StubServerInProcess"]),
        .library(name: "StubServerRemote", targets: ["StubServerRemote"]),
        .library(name: "StubServerTesting", targets: ["StubServerTesting"]),
        .library(name: "StubServerRecording", targets: ["StubServerRecording"]),
        .library(name: "StubServerXCTest", targets: ["StubServerXCTest"]),
        .executable(name: "stub-server", targets: ["StubServerCLI"]),
        .executable(name: "stub-server-record", targets: ["StubServerRecordCLI"]),
        .library(name: "Networking", targets: ["Networking"]),
        // SharedTestSupport (`waitUntil`, `Gate`) is public API of NetworkingTestSupport, which re-exports it.
        .library(name: "NetworkingTestSupport", targets: ["NetworkingTestSupport", "SharedTestSupport"]),
        .library(name: "ImageCache", targets: ["ImageCache"]),
        .library(name: "AlbumsFeature", targets: ["AlbumsFeature"]),
        .library(name: "DessertsFeature", targets: ["DessertsFeature"]),
        .library(name: "Persistence", targets: ["Persistence"]),
        .library(name: "MoviesFeature", targets: ["MoviesFeature"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "PlaybackTestSupport", targets: ["PlaybackTestSupport"]),
        .library(name: "TrackSearchFeature", targets: ["TrackSearchFeature"]),
        .library(name: "TopSongsFeature", targets: ["TopSongsFeature"]),
        .library(name: "XMLPath", targets: ["XMLPath"]),
    ],
    targets: [
        .target(name: "Locking", swiftSettings: settings),
        .systemLibrary(name: "CLinux"),
        .target(name: "HTTPMessages", swiftSettings: settings),
        // OpenSSL for TLS on Linux (libssl-dev); Apple platforms use the system's TLS.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "HTTPEngine",
            dependencies: [
                "CLinux", "HTTPMessages", "Locking", .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: settings),
        // JSON as the stub side reads it: values without a schema, a one-pass syntax check, paths into documents.
        .target(name: "JSONModel", dependencies: ["HTTPMessages"], swiftSettings: settings),
        // YAML 1.2 as OpenAPI documents use it, read into JSON values.
        .target(name: "YAMLParsing", dependencies: ["JSONModel"], swiftSettings: settings),
        // The hostile versions of a good answer (mutants), derived without I/O.
        .target(name: "StubMutations", dependencies: ["HTTPMessages", "Locking"], swiftSettings: settings),
        .target(
            name: "StubCore", dependencies: ["HTTPMessages", "JSONModel", "Locking", "StubMutations"],
            swiftSettings: settings),
        // OpenAPI documents: fixtures imported from one, answers validated against one, requests checked.
        .target(
            name: "StubContracts", dependencies: ["HTTPMessages", "JSONModel", "Locking", "StubCore", "YAMLParsing"],
            swiftSettings: settings),
        // The admin API under `/__stub/` (routes over the stubs' control) and its control page, which both
        // transports mount: the socket server on its port, in-process stubs on a loopback port of their own.
        .target(
            name: "StubAdmin", dependencies: ["HTTPEngine", "HTTPMessages", "JSONModel", "StubCore"],
            // The control page, as files embedded at build time (no Bundle, no Foundation needed to read them).
            resources: [
                .embedInCode("Page/control.html"), .embedInCode("Page/control.css"),
                .embedInCode("Page/control.js"), .embedInCode("Page/icon.svg"),
            ],
            swiftSettings: settings),
        .target(
            name: "StubServer",
            dependencies: ["HTTPEngine", "HTTPMessages", "Locking", "StubAdmin", "StubCore"],
            swiftSettings: settings),
        // Answers URLSession in process (URLProtocol), with the admin API on a loopback port when asked: FoundationNetworking
        // on Linux, so never linked by `serve`.
        .target(
            name: "StubServerInProcess", dependencies: ["HTTPMessages", "Locking", "StubAdmin", "StubCore"],
            swiftSettings: settings),
        // Controls stubs in another process through their admin API (URLSession: never linked by `serve`).
        .target(name: "StubServerRemote", dependencies: ["StubCore"], swiftSettings: settings),
        // What both test libraries share: the transport as a parameter (StubTransport), starting a test's stubs
        // over it, the catalogs they load, and what `import StubServerTesting` or `StubServerXCTest` reaches.
        .target(
            name: "StubHarness",
            dependencies: [
                "Locking", "StubContracts", "StubCore", "StubServer", "StubServerInProcess", "StubServerRemote",
            ],
            swiftSettings: settings),
        .target(
            name: "StubServerTesting",
            dependencies: [
                "Locking", "StubCore", "StubHarness", "StubServer", "StubServerInProcess", "StubServerRemote",
            ],
            swiftSettings: settings),
        .target(
            name: "StubServerRecording", dependencies: ["JSONModel", "Locking", "StubCore", "StubServer", "XMLPath"],
            swiftSettings: settings),
        .target(
            name: "StubServerXCTest",
            dependencies: [
                "StubCore", "StubHarness", "StubServer", "StubServerInProcess", "StubServerRemote",
            ],
            swiftSettings: settings),
        .target(name: "CLISupport", dependencies: ["Locking"], swiftSettings: settings),
        // posix_spawn without Foundation: the tests' ChildProcess and `stub-server sweep`.
        .target(name: "Spawning", dependencies: ["CLinux"], swiftSettings: settings),
        .executableTarget(
            name: "StubServerCLI",
            dependencies: [
                "CLISupport", "HTTPEngine", "Locking", "Spawning", "StubContracts", "StubCore", "StubMutations",
                "StubServer",
            ],
            swiftSettings: settings),
        // The coverage of failure modes: what a run's servers recorded, joined with the fixtures, the test results
        // and an OpenAPI document into reports and a gate (`stub-server coverage`, run by stub-server-record).
        .target(
            name: "StubCoverage", dependencies: ["StubCore", "XMLPath"], swiftSettings: settings),
        .executableTarget(
            name: "StubServerRecordCLI",
            dependencies: [
                "CLISupport", "StubContracts", "StubCoverage", "StubServer", "StubServerRecording",
            ],
            swiftSettings: settings),
        .target(name: "Networking", dependencies: ["Locking"], swiftSettings: settings),
        .target(
            name: "NetworkingTestSupport", dependencies: ["Locking", "Networking", "SharedTestSupport"],
            swiftSettings: settings),
        .target(name: "ImageCache", dependencies: ["Networking"], swiftSettings: settings),
        .target(name: "AlbumsFeature", dependencies: ["Networking", "ImageCache"], swiftSettings: settings),
        .target(name: "DessertsFeature", dependencies: ["Networking"], swiftSettings: settings),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        .target(name: "Persistence", dependencies: ["CSQLite", "Locking"], swiftSettings: settings),
        .target(name: "MoviesFeature", dependencies: ["Networking", "Persistence"], swiftSettings: settings),
        .target(name: "Playback", swiftSettings: settings),
        .target(name: "PlaybackTestSupport", dependencies: ["Playback"], swiftSettings: settings),
        .target(name: "TrackSearchFeature", dependencies: ["Networking", "Playback"], swiftSettings: settings),
        .target(name: "XMLPath", swiftSettings: settings),
        .target(name: "TopSongsFeature", dependencies: ["Networking", "Playback", "XMLPath"], swiftSettings: settings),
        .executableTarget(
            name: "CatalogBenchmarks",
            dependencies: [
                "AlbumsFeature", "HTTPMessages", "Locking", "MoviesFeature", "Networking", "StubCore", "StubCoverage",
                "StubMutations",
                "StubServer", "StubServerInProcess", "TopSongsFeature", "XMLPath", "YAMLParsing",
            ],
            swiftSettings: settings),
        // What both sides' test support share (no product): bounded waits (`waitUntil`, `Gate`), `RefusingPort`.
        .target(name: "SharedTestSupport", dependencies: ["Locking"], swiftSettings: settings),
        // Every suite's tests take turns (`.takesTurns`), so a test's minute runs while it runs (no product).
        .target(name: "TestTurns", swiftSettings: settings),
        // The stub side's test support (no product): the async raw HTTP and WebSocket client, temporary fixtures,
        // exchange helpers; blocking calls in tests live only here.
        .target(
            name: "StubTestSupport",
            dependencies: [
                "Locking", "StubCore", "StubServer", "SharedTestSupport",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: settings),
        // Starts the programs tests run (stub-server, curl, chromedriver) with posix_spawn.
        .target(
            name: "ChildProcesses", dependencies: ["CLinux", "Locking", "SharedTestSupport", "Spawning"],
            swiftSettings: settings),
        // Counts the sockets an in-process fetch opens, in a process of its own (StubServerCLITests runs it).
        .executableTarget(name: "InProcessProbe", dependencies: ["StubServerInProcess"], swiftSettings: settings),
        // Plays an app that starts its stubs from its launch environment (StubServerCLITests drives it remotely).
        .executableTarget(name: "StubbedApp", dependencies: ["StubServerInProcess"], swiftSettings: settings),
        .testTarget(name: "HTTPMessagesTests", dependencies: ["HTTPMessages", "TestTurns"], swiftSettings: settings),
        .testTarget(name: "LockingTests", dependencies: ["Locking", "TestTurns"], swiftSettings: settings),
        .testTarget(
            name: "SpawningTests", dependencies: ["SharedTestSupport", "Spawning", "TestTurns"], swiftSettings: settings
        ),
        .testTarget(
            name: "HTTPEngineTests",
            dependencies: [
                "HTTPEngine", "HTTPMessages", "StubTestSupport", "TestTurns",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "StubServerInProcessTests",
            dependencies: [
                "HTTPMessages", "Locking", "StubCore", "StubServerInProcess", "StubTestSupport", "TestTurns",
            ],
            swiftSettings: settings),
        .testTarget(name: "CLISupportTests", dependencies: ["CLISupport", "TestTurns"], swiftSettings: settings),
        .testTarget(
            name: "StubCoverageTests", dependencies: ["StubCore", "StubCoverage", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubTestSupportTests", dependencies: ["HTTPEngine", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "ChildProcessesTests", dependencies: ["ChildProcesses", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubMutationsTests",
            dependencies: ["HTTPMessages", "StubMutations", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(name: "JSONModelTests", dependencies: ["JSONModel", "TestTurns"], swiftSettings: settings),
        .testTarget(
            name: "YAMLParsingTests", dependencies: ["JSONModel", "StubCore", "YAMLParsing", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubCoreTests",
            dependencies: ["HTTPMessages", "JSONModel", "StubCore", "StubMutations", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubContractsTests",
            dependencies: [
                "HTTPMessages", "JSONModel", "StubContracts", "StubCore", "StubTestSupport", "YAMLParsing", "TestTurns",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "StubServerTests",
            dependencies: [
                "ChildProcesses", "HTTPEngine", "HTTPMessages", "JSONModel", "Locking", "StubCore", "StubServer",
                "StubTestSupport", "TestTurns",
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ControlPageBrowserTests",
            dependencies: ["ChildProcesses", "StubTestSupport", "StubContracts", "StubServer", "TestTurns"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "NetworkingTests",
            dependencies: ["Networking", "NetworkingTestSupport", "StubServer", "TestTurns"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "ImageCacheTests",
            dependencies: ["ImageCache", "Networking", "NetworkingTestSupport", "TestTurns"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "AlbumsFeatureTests",
            dependencies: [
                "Locking", "AlbumsFeature", "ImageCache", "Networking", "NetworkingTestSupport", "TestTurns",
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "DessertsFeatureTests",
            dependencies: ["Locking", "DessertsFeature", "Networking", "NetworkingTestSupport", "TestTurns"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "PlaybackTests", dependencies: ["Playback", "PlaybackTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "TrackSearchFeatureTests",
            dependencies: [
                "Locking", "TrackSearchFeature", "Networking", "NetworkingTestSupport", "Playback",
                "PlaybackTestSupport", "TestTurns",
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "TopSongsFeatureTests",
            dependencies: [
                "Locking", "TopSongsFeature", "Networking", "NetworkingTestSupport", "Playback", "PlaybackTestSupport",
                "XMLPath", "TestTurns",
            ],
            swiftSettings: settings
        ),
        .testTarget(name: "XMLPathTests", dependencies: ["XMLPath", "TestTurns"], swiftSettings: settings),
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "TestTurns"], swiftSettings: settings),
        .testTarget(
            name: "MoviesFeatureTests",
            dependencies: ["Locking", "MoviesFeature", "Networking", "NetworkingTestSupport", "TestTurns"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "AlbumsFeature", "DessertsFeature", "HTTPEngine", "HTTPMessages", "ImageCache", "Locking",
                "MoviesFeature", "Networking", "NetworkingTestSupport", "Playback", "PlaybackTestSupport",
                "StubCoverage", "StubHarness",
                "StubMutations", "StubServer", "StubServerInProcess", "StubServerRemote", "StubServerTesting",
                "StubTestSupport", "TopSongsFeature", "TrackSearchFeature",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])), "TestTurns",
            ],
            // Fixtures folders of the fragile clients' sweeps, found from the test file as MockData is.
            exclude: ["FragileFixtures", "AssistantFixtures"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "EndToEndXCTests",
            dependencies: ["AlbumsFeature", "Networking", "StubServer", "StubServerXCTest"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "StubServerRecordingTests",
            dependencies: [
                "Locking", "StubCore", "StubServer", "StubServerRecording", "StubTestSupport", "XMLPath", "TestTurns",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "StubAdminTests",
            dependencies: ["HTTPMessages", "StubAdmin", "StubCore", "StubServer", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubServerRemoteTests",
            dependencies: ["StubCore", "StubServer", "StubServerRemote", "StubTestSupport", "TestTurns"],
            swiftSettings: settings),
        .testTarget(
            name: "StubHarnessTests",
            dependencies: [
                "StubHarness", "StubServer", "StubServerInProcess", "StubServerRemote", "StubTestSupport", "TestTurns",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "StubServerTestingTests",
            dependencies: [
                "Locking", "StubTestSupport", "StubServer", "StubServerInProcess", "StubServerTesting", "TestTurns",
            ],
            // Fixtures as a test bundle's resources, the way they reach a test on a device.
            resources: [.copy("BundledFixtures")],
            swiftSettings: settings),
        .testTarget(
            name: "StubServerXCTests",
            dependencies: ["StubTestSupport", "StubServer", "StubServerInProcess", "StubServerXCTest"],
            swiftSettings: settings
        ),
        .testTarget(
            name: "StubServerCLITests",
            dependencies: [
                "ChildProcesses", "CLISupport", "InProcessProbe", "Locking", "SharedTestSupport", "StubbedApp",
                "StubCore", "StubServer", "StubServerCLI", "StubServerInProcess", "StubServerRecordCLI",
                "StubHarness", "StubServerRemote", "StubServerTesting",
                "StubTestSupport", "TestTurns",
            ],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .test {
    let kind = layout.first { $0.value.contains(target.name) }?.key
    precondition(kind != nil, "\(target.name) has no kind in `layout`")
    target.path = "Sources/\(kind!)/\(target.name)"
}
