package import Foundation
package import StubCore

/// The package's `MockData/` folder and its catalog, loaded once for the whole test process.
///
/// Loading the folder takes tens of milliseconds in a debug build; a hundred tests loading it each as they start
/// kept the cooperative pool busy for seconds at the start of every run, and every timed wait of that moment
/// waited behind them. A catalog is an immutable value: each server made from it keeps its own state.
package enum MockData {
    /// The folder, found from the working directory (`swift test` runs in the package root).
    package static let folder: URL? = StubCatalog.findFolder()

    private static let loading = Task.detached { () throws -> StubCatalog in
        guard let folder else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "MockData"]) }
        return try StubCatalog.load(from: folder)
    }

    /// The folder's catalog; the first call loads it, later ones wait for that load.
    package static func catalog() async throws -> StubCatalog {
        try await loading.value
    }
}
