import Foundation
import StubCoverage
import StubHarness
import StubServer
import StubServerInProcess
import StubServerTesting
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What servers record for the coverage report: one line per answer, over either transport, each the journal's
/// entry (nothing lost, nothing doubled), naming the test that started the server.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CoverageRecordingTests {
    static let albumsPath = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"

    /// A new, empty coverage folder.
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
    }

    /// Sends the requests a test might: good, a variant by header, a mutant, an unmatched path, a resource's list.
    static func requests(to base: URL, session: URLSession) async throws {
        let albums = base.appendingPathComponent(Self.albumsPath)
        for headers in [[:], ["X-Stub-Variant": "bad"], ["X-Stub-Mutation": "status:503"], ["X-Stub-Variant": "nil"]] {
            var request = URLRequest(url: albums, timeoutInterval: 60)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            _ = try await session.data(for: request)
        }
        _ = try await session.data(
            for: URLRequest(url: base.appendingPathComponent("no/such/path"), timeoutInterval: 60))
    }

    @Test(arguments: ["socket", "in process"])
    func eachAnswer_isRecordedOnce_asTheJournalHasIt(transport: String) async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = TestStubSettings(
            fixtures: mockData, variants: [:], serverVariant: nil, contracts: true, test: "Tests.Suite/aTest()")
        let stubs: any LocalStubControl
        let base: URL
        let session: URLSession
        if transport == "socket" {
            let server = try await StubTransport.socket(StubServer.Configuration(coverage: folder)).start(settings)
            (stubs, base, session) = (server, server.baseURL, URLSession(configuration: .ephemeral))
        } else {
            let inProcess = try await StubTransport.inProcess(InProcessStubs.Configuration(coverage: folder)).start(
                settings)
            (stubs, base, session) = (
                inProcess, URL(string: "https://rss.applemarketingtools.com")!, inProcess.urlSession
            )
        }
        try await Self.requests(to: base, session: session)
        await stubs.stop()

        let records = try CoverageInput.records(in: folder)
        let journal = stubs.journal()
        #expect(records.count == journal.count)
        for (record, entry) in zip(records, journal) {
            #expect(record.test == "Tests.Suite/aTest()")
            #expect(record.transport == transport)
            #expect(record.fixtures == mockData.path)
            #expect(record.stub == entry.stub)
            #expect(record.variant == entry.variant)
            #expect(record.mutation == entry.mutation)
            #expect(record.status == entry.status)
            #expect(record.path == entry.path)
        }
        #expect(records.map(\.variant) == ["good", "bad", "good", "nil", nil])
        #expect(records.map(\.mutation) == [nil, nil, "status:503", nil, nil])
        #expect(records.map(\.status) == [200, 200, 503, 200, 404])
        // The albums stub has no OpenAPI operation (MockData's chat stub has one: the CLI test reads it).
        #expect(records.allSatisfy { $0.operation == nil })
    }

    /// The transports that serve TLS failures here: the socket server's HTTPS is OpenSSL's (Linux) for now.
    #if canImport(COpenSSL)
        static let tlsTransports = ["socket", "in process"]
    #else
        static let tlsTransports = ["in process"]
    #endif

    /// A connection that meets a TLS failure is recorded once, before any request, and the report counts it under
    /// its failure for the test that started the server: over a socket per connection accepted, in process per
    /// request failed.
    @Test(arguments: tlsTransports)
    func eachConnectionMeetingATLSFailure_isRecorded_andTheReportCountsIt(transport: String) async throws {
        let folder = Self.folder()
        let authority = Self.folder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: authority)
        }
        let settings = TestStubSettings(
            fixtures: mockData, variants: [:], serverVariant: nil, contracts: true, test: "Tests.Suite/aTest()")
        let stubs: any LocalStubControl
        if transport == "socket" {
            let https = StubServer.HTTPS(authorityFolder: authority, failure: .expired)
            let server = try await StubTransport.socket(StubServer.Configuration(coverage: folder, https: https))
                .start(settings)
            for _ in 0..<2 {
                // Plain HTTP on the TLS port: the server says so and closes, so the connection is over for sure.
                let client = try await RawHTTPClient(port: server.port)
                try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().status == 400)
                _ = await client.readToEnd()
            }
            stubs = server
        } else {
            let inProcess = try await StubTransport.inProcess(
                InProcessStubs.Configuration(coverage: folder, tlsFailure: .expired)
            ).start(settings)
            for _ in 0..<2 {
                let url = URL(string: "https://rss.applemarketingtools.com\(Self.albumsPath)")!
                await #expect(throws: URLError.self) {
                    try await inProcess.urlSession.data(for: URLRequest(url: url, timeoutInterval: 60))
                }
            }
            stubs = inProcess
        }
        await stubs.stop()

        let records = try CoverageInput.records(in: folder)
        #expect(records.map(\.tlsFailure) == ["expired", "expired"])
        #expect(records.allSatisfy { $0.test == "Tests.Suite/aTest()" && $0.transport == transport && $0.stub == nil })
        #expect(stubs.journal().isEmpty)
        let report = CoverageReport(
            catalog: try StubCatalog.load(from: mockData), input: CoverageInput(records: records))
        let expired = try #require(report.tlsFailures.first { $0.failure == "expired" })
        #expect(expired.connections == 2)
        #expect(expired.tests == ["Tests.Suite/aTest()"])
        #expect(report.tlsFailures.filter(\.served).map(\.failure) == ["expired"])
        #expect(report.unmatched.isEmpty)
    }

    /// A mutant's stubs record their answers under the test running the mutant.
    @Test func aMutantsStubs_nameTheTestRunningIt() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mutant = try #require(try StubMutant.all(of: "top-albums").first { $0.id == "status:503" })
        try await mutant.withStubs(configuration: InProcessStubs.Configuration(coverage: folder)) { stubs in
            let albums = URL(string: "https://rss.applemarketingtools.com" + Self.albumsPath)!
            _ = try await stubs.urlSession.data(for: URLRequest(url: albums, timeoutInterval: 60))
        }
        let records = try CoverageInput.records(in: folder)
        #expect(records.map(\.test) == ["EndToEndTests.CoverageRecordingTests/aMutantsStubs_nameTheTestRunningIt()"])
        #expect(records.map(\.mutation) == ["status:503"])
    }

    /// Without a folder and without `STUB_COVERAGE_DIR`, nothing is recorded.
    @Test func noFolder_recordsNothing() async throws {
        let environment = ProcessInfo.processInfo.environment["STUB_COVERAGE_DIR"]
        try await withStubServer(fixtures: mockData) { server in
            #expect((server.runtime.coverage == nil) == (environment == nil))
        }
    }
}

/// The trait names the test in its server's records, as `swift test --xunit-output` names it.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CoverageTraitTests {
    static let folder = CoverageRecordingTests.folder()

    @Test(.stubServer(transport: .socket(StubServer.Configuration(coverage: CoverageTraitTests.folder))))
    func theTrait_namesTheTestInItsRecords() async throws {
        defer { try? FileManager.default.removeItem(at: Self.folder) }
        let server = try #require(TestStubs.current?.server)
        _ = try await URLSession(configuration: .ephemeral).data(
            from: server.baseURL.appendingPathComponent(CoverageRecordingTests.albumsPath))
        let records = try CoverageInput.records(in: Self.folder)
        #expect(records.map(\.test) == ["EndToEndTests.CoverageTraitTests/theTrait_namesTheTestInItsRecords()"])
        #expect(records.map(\.stub) == ["top-albums"])
    }
}
