import Foundation
import StubCore
import StubCoverage
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The coverage report's costs: recording an answer (in process, with and without a coverage folder), and reading
/// and reporting 100,000 recorded lines against MockData.
enum CoverageBenchmark {
    /// 200 in-process requests to MockData's top albums, recorded in a folder or not: the difference is what
    /// recording costs each answer.
    static func recording(into folder: URL?) async throws -> BenchmarkResult {
        let catalog = try StubCatalog.load(from: MutationBenchmark.mockData())
        let stubs = InProcessStubs.start(
            catalog: catalog, configuration: InProcessStubs.Configuration(coverage: folder))
        defer { Task { await stubs.stop() } }
        let url = URL(
            string: "https://rss.applemarketingtools.com/api/v1/us/apple-music/top-albums/all/10/explicit.json")!
        let result = try await BenchmarkResult.measure(iterations: 15, unit: "200 requests") {
            for _ in 0..<200 { _ = try await stubs.urlSession.data(from: url) }
        }
        return result
    }

    static func recorded() async throws -> BenchmarkResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var result = try await recording(into: folder)
        result.unit += " recorded"
        return result
    }

    static func unrecorded() async throws -> BenchmarkResult {
        var result = try await recording(into: nil)
        result.unit += " not recorded"
        return result
    }

    /// 100,000 lines over MockData's stubs and variants in 10 files, read and reported (text and JSON).
    static func report() async throws -> BenchmarkResult {
        let mockData = try MutationBenchmark.mockData()
        let catalog = try StubCatalog.load(from: mockData)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = JSONEncoder()
        let cells = catalog.stubs.flatMap { stub in stub.variantNames.map { (stub.name, $0) } }
        for file in 0..<10 {
            var lines = Data()
            for index in 0..<10_000 {
                let (stub, variant) = cells[(file * 10_000 + index) % cells.count]
                let record = CoverageRecord(
                    test: "Tests.Suite\(index % 40)/test\(index % 7)()", transport: "socket", fixtures: mockData.path,
                    stub: stub, variant: variant, mutation: index % 10 == 0 ? "results:null" : nil, status: 200,
                    fault: nil, operation: nil, change: nil, method: "GET", path: "/\(stub)")
                lines.append(try encoder.encode(record))
                lines.append(UInt8(ascii: "\n"))
            }
            try lines.write(to: folder.appendingPathComponent("served-\(file)-1-1.jsonl"))
        }
        var size = 0
        let result = try await BenchmarkResult.measure(iterations: 5, warmup: 1, unit: "report of 100,000 lines") {
            let input = CoverageInput(records: try CoverageInput.records(in: folder))
            let report = CoverageReport(catalog: catalog, input: input)
            size = report.text.utf8.count + report.json.utf8.count
        }
        precondition(size > 0)
        return result
    }
}
