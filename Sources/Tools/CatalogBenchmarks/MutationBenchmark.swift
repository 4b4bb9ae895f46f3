import AlbumsFeature
import Foundation
import Networking
import StubCore
import StubMutations
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sweep's costs on MockData's albums feed (108 KB, 100 albums): listing its mutants, and running the albums
/// screen against them in process, a fresh server per case as `StubMutant.withStubs` starts one.
enum MutationBenchmark {
    static func mockData() throws -> URL {
        guard let folder = StubCatalog.findFolder(named: "MockData", from: #filePath) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return folder
    }

    /// Every mutant of the feed listed from its bytes (parsed, its value shapes collected, the IDs made), with no
    /// cache: what the first request for a mutant of an answer costs.
    static func generate() async throws -> BenchmarkResult {
        let body = Array(try Data(contentsOf: mockData().appendingPathComponent("albums/top-albums.good.json")))
        var count = 0
        var result = await BenchmarkResult.measure(iterations: 20, unit: "listing") {
            count = Mutations.listed(fromScratch: body).count
        }
        result.unit = "listing of \(count) mutants, \(perSecond(count, result)) mutants/s"
        return result
    }

    /// The albums screen loaded by the real URLSession client against each of the feed's first 200 value mutants and
    /// its whole-answer ones but the late and hanging ones, each case with a fresh in-process server.
    @MainActor
    static func sweepAlbums() async throws -> BenchmarkResult {
        let catalog = try StubCatalog.load(from: mockData())
        let ids = try catalog.existingVariant("good", ofStub: "top-albums").mutants.map(\.id)
            .filter { !$0.hasPrefix("fault:hang") && !$0.hasPrefix("delay:") }.prefix(220)
        var result = try await BenchmarkResult.measure(iterations: 5, warmup: 1, unit: "sweep") {
            for id in ids {
                let stubs = InProcessStubs.start(catalog: catalog)
                try stubs.setMutation(id, forStub: "top-albums")
                let session = URLSession(configuration: stubs.sessionConfiguration)
                let model = AlbumListViewModel(
                    client: LiveAlbumsClient(http: BoundedClient(session: session), baseURL: AlbumsEndpoint.v2Host))
                await model.viewAppeared()
                session.invalidateAndCancel()
                await stubs.stop()
            }
        }
        result.unit = "sweep of \(ids.count) cases, \(perSecond(ids.count, result)) cases/s"
        return result
    }

    static func perSecond(_ count: Int, _ result: BenchmarkResult) -> Int {
        let median = result.percentile(0.5)
        let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
        return Int((Double(count) / seconds).rounded())
    }

    /// Every request bounded by 2 s, as the sweeps' client is: in process only the request's own timeout applies.
    private struct BoundedClient: HTTPClient {
        let base: URLSessionHTTPClient

        init(session: URLSession) { base = URLSessionHTTPClient(session: session) }

        func send(_ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
            var request = request
            request.timeout = request.timeout ?? 2
            return try await base.send(request)
        }
    }
}
