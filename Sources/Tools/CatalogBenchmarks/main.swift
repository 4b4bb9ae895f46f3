import Foundation

/// `swift run -c release CatalogBenchmarks [NAME ...]`: runs the named benchmarks (all by default) and prints
/// the median and spread of their timings.
let available: [String: () async throws -> BenchmarkResult] = [
    "coverage-record-200": CoverageBenchmark.recorded,
    "coverage-unrecorded-200": CoverageBenchmark.unrecorded,
    "coverage-report-100k": CoverageBenchmark.report,
    "harness-in-process": HarnessBenchmark.inProcess,
    "harness-socket": HarnessBenchmark.socket,
    "movie-store-replace-1000": MovieStoreBenchmark.replaceThousand,
    "mutations-albums-feed": MutationBenchmark.generate,
    "mutations-chat-stream": StreamMutationBenchmark.list,
    "sweep-albums-in-process": MutationBenchmark.sweepAlbums,
    "sweep-chat-stream-in-process": StreamMutationBenchmark.sweep,
    "stream-chat-timing": StreamBenchmark.chat,
    "transport-in-process-vs-loopback": TransportBenchmark.compare,
    "turn-render-four-formats": TurnBenchmark.render,
    "turn-mutants-anthropic-stream": TurnBenchmark.listAnthropic,
    "xml-bare-xmlparser": XMLParserBenchmark.bare,
    "xml-path-parser": XMLParserBenchmark.pathParser,
    "xml-path-parser-vs-bare": XMLParserBenchmark.compare,
    "xml-top-songs-feed": XMLParserBenchmark.songs,
    "yaml-read-1mb": YAMLBenchmark.read,
]
let names =
    CommandLine.arguments.dropFirst().isEmpty ? available.keys.sorted() : Array(CommandLine.arguments.dropFirst())
for name in names {
    guard let run = available[name] else {
        FileHandle.standardError.write(
            Data(
                "CatalogBenchmarks: unknown benchmark '\(name)'; known: \(available.keys.sorted().joined(separator: ", "))\n"
                    .utf8))
        exit(64)
    }
    print(try await run().line(name))
}
