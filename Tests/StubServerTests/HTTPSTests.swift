import ChildProcesses
import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine
@testable import StubCore
@testable import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server over HTTPS, as clients meet it: a strict TLS client that verifies the certificate, curl, and
/// URLSession; and what hostile bytes on the TLS port do.
#if canImport(COpenSSL)
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
    struct HTTPSTests {
        /// A server of the test catalog over HTTPS with an authority of its own in a fresh folder.
        /// Each TLS failure, as a strict client that trusts the authority meets it, and as curl reports it.
        @Test(arguments: TLSFailure.allCases)
        func eachTLSFailure_failsAStrictClient_andCurl_withItsOwnError(_ failure: TLSFailure) async throws {
            try await withHTTPSServer(failure: failure) { server, authority in
                let pin = try LocalAuthority.loadOrCreate(in: (authority as NSString).deletingLastPathComponent)
                    .serverKeyPin()
                // A stalled handshake is a silence: the client gives up after a 2 s window.
                let strict: String
                do {
                    let client = try await TLSTestClient(port: server.port, authority: authority, timeout: 2)
                    strict = client.serverKeyPin == pin ? "accepted" : "accepted another key"
                } catch let failure as TLSTestClient.Failure {
                    strict = failure.description
                } catch RawHTTPClient.ClientError.readFailed(let code) {
                    strict = code == EAGAIN ? "no answer" : "read failed: errno \(code)"
                }
                let curl = try await Self.curl([
                    "-sS", "--max-time", "2", "--cacert", authority, "--pinnedpubkey", pin,
                    "\(server.baseURL)/albums/1",
                ])
                let expected: (strict: String, curl: Int32, says: String) =
                    switch failure {
                    case .expired: ("certificate has expired", 60, "certificate has expired")
                    case .notYetValid: ("certificate is not yet valid", 60, "certificate is not yet valid")
                    case .wrongHost: ("hostname mismatch", 60, "no alternative certificate subject name matches")
                    case .selfSigned: ("self-signed certificate", 60, "self-signed certificate")
                    case .unknownAuthority: ("unable to get local issuer certificate", 60, "unable to get local issuer")
                    case .otherKey: ("accepted another key", 90, "public key does not match pinned public key")
                    case .oldProtocol: ("alert protocol version", 35, "SSL routines")
                    case .handshakeReset: ("read failed: errno \(ECONNRESET)", 35, "Connection reset by peer")
                    case .handshakeStall: ("no answer", 28, "timed out")
                    }
                #expect(strict.contains(expected.strict), "\(strict)")
                #expect(curl.status == expected.curl, "\(curl.stderr)")
                #expect(curl.stderr.contains(expected.says), "\(curl.stderr)")
                #expect(server.journal().isEmpty, "no request got through")
            }
        }

        @Test func withoutAFailure_theStrictClientSeesTheServerKey_andCurlPinningItGetsTheFixture() async throws {
            try await withHTTPSServer { server, authority in
                let pin = try LocalAuthority.loadOrCreate(in: (authority as NSString).deletingLastPathComponent)
                    .serverKeyPin()
                let client = try await TLSTestClient(port: server.port, authority: authority)
                #expect(client.serverKeyPin == pin)
                let curl = try await Self.curl([
                    "-sS", "--cacert", authority, "--pinnedpubkey", pin, "\(server.baseURL)/albums/1",
                ])
                #expect(curl.output == #"{"id":"1"}"#)
            }
        }

        /// Its idle timeout, which bounds a handshake, is a minute: a test task may run seconds late on a busy machine.
        private func withHTTPSServer(
            hosts: [String] = [], failure: TLSFailure? = nil, idleTimeout: Duration = testServerTimeout,
            maxConnections: Int? = nil, _ body: (StubServer, _ authority: String) async throws -> Void
        ) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = StubServer.Configuration(
                idleTimeout: idleTimeout, maxConnections: maxConnections,
                https: StubServer.HTTPS(authorityFolder: folder, hosts: hosts, failure: failure))
            try await withTestServer(configuration) { server, _ in
                try await body(server, folder.appendingPathComponent("ca.pem").path)
            }
        }

        private func get(_ client: TLSTestClient, _ target: String) async throws -> String {
            try await client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            return String(decoding: try await client.readUntilClosed(), as: UTF8.self)
        }

        /// With `plainPort`, plain HTTP is served beside HTTPS from the same stubs, choices and journal, and `stop`
        /// closes both listeners.
        @Test func plainHTTPBeside_servesTheSameChoicesAndJournal() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let fixtures = try TestCatalog.fixtures()
            defer { fixtures.remove() }
            let server = try StubServer.start(
                fixtures: fixtures.root,
                configuration: StubServer.Configuration(
                    idleTimeout: testServerTimeout, headerTimeout: testServerTimeout,
                    https: StubServer.HTTPS(authorityFolder: folder, plainPort: 0)))
            let plainURL = try #require(server.plainBaseURL)
            let plainPort = try #require(plainURL.port)
            #expect(plainURL.absoluteString == "http://127.0.0.1:\(plainPort)")
            #expect(plainPort != server.port)
            try server.setVariant("special", forStub: "album")
            let plain = try await RawHTTPClient(port: plainPort)
            try await plain.send(StubTestSupport.get("/albums/1"))
            #expect(try await plain.readResponse().header("X-Stub-Variant") == "special")
            let tls = try await TLSTestClient(
                port: server.port, authority: folder.appendingPathComponent("ca.pem").path)
            #expect(try await get(tls, "/albums/2").contains("X-Stub-Variant: special\r\n"))
            #expect(server.journal().map(\.path) == ["/albums/1", "/albums/2"])
            await server.stop()
            #expect(server.hasStopped)
            #expect(await plain.readToEnd().isEmpty, "the plain listener's connection is closed too")
            await #expect(throws: RawHTTPClient.ClientError.self) {
                try await RawHTTPClient(port: plainPort)
            }
        }

        /// A host no certificate can name is refused at start, saying which and what to write instead.
        @Test func aHostNameThatIsNotASCII_failsTheStart_sayingHowToWriteIt() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let fixtures = try TestCatalog.fixtures()
            defer { fixtures.remove() }
            #expect(
                throws: StubServerError.httpsFailed(
                    reason: "bücher.example is not an ASCII host name: write it as IDNA does (xn--...)")
            ) {
                try StubServer.start(
                    fixtures: fixtures.root,
                    configuration: StubServer.Configuration(
                        https: StubServer.HTTPS(authorityFolder: folder, hosts: ["bücher.example"])))
            }
        }

        /// Beyond the connection limit the TLS port closes the connection (a 503 would need a handshake first); the
        /// connection it holds is served on, and once it closes another is served.
        @Test func aConnectionBeyondTheLimit_isClosed_andTheOneHeldIsServedOn() async throws {
            try await withHTTPSServer(maxConnections: 1) { server, authority in
                let held = try await TLSTestClient(port: server.port, authority: authority)
                let refused = try await RawHTTPClient(port: server.port)
                #expect(await refused.readToEnd().isEmpty, "closed without a byte")
                let answer = try await get(held, "/albums/1")
                #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
                // The held connection's close frees its place: a new client handshakes and is answered.
                try await waitUntil("the held connection is gone") { server.openConnections == 0 }
                let next = try await TLSTestClient(port: server.port, authority: authority)
                #expect(try await get(next, "/albums/2").hasSuffix(#"{"id":"2"}"#))
            }
        }

        @Test(arguments: ["localhost", "127.0.0.1", "::1", "stub.test"])
        func aClientTrustingTheAuthority_readsAFixture_underEachNameTheCertificateGives(_ host: String) async throws {
            try await withHTTPSServer(hosts: ["stub.test"]) { server, authority in
                #expect(server.baseURL.absoluteString == "https://127.0.0.1:\(server.port)")
                #expect(server.certificateAuthorityFile?.path == authority)
                let client = try await TLSTestClient(port: server.port, authority: authority, host: host)
                #expect(client.version == "TLSv1.3")
                let answer = try await get(client, "/albums/42")
                #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(answer.hasSuffix(#"{"id":"42"}"#))
            }
        }

        @Test(arguments: [(2, "TLSv1.2"), (3, "TLSv1.3")] as [(Int32, String)])
        func eachVersion_isSpoken(_ minor: Int32, _ name: String) async throws {
            try await withHTTPSServer { server, authority in
                let client = try await TLSTestClient(port: server.port, authority: authority, versions: minor...minor)
                #expect(client.version == name)
                #expect(try await get(client, "/albums/7").hasSuffix(#"{"id":"7"}"#))
            }
        }

        @Test func tls11_isRefused_andTheServerServesOn() async throws {
            try await withHTTPSServer { server, authority in
                await #expect(throws: TLSTestClient.Failure.self) {
                    _ = try await TLSTestClient(port: server.port, authority: authority, versions: 1...1)
                }
                let client = try await TLSTestClient(port: server.port, authority: authority)
                #expect(try await get(client, "/albums/1").hasSuffix(#"{"id":"1"}"#))
            }
        }

        @Test func aClientWithoutTheAuthority_orAskingForAnotherHost_failsVerification() async throws {
            try await withHTTPSServer { server, authority in
                let untrusted = await #expect(throws: TLSTestClient.Failure.self) {
                    _ = try await TLSTestClient(port: server.port, authority: nil)
                }
                #expect(untrusted?.description.contains("unable to get local issuer certificate") == true)
                let wrongHost = await #expect(throws: TLSTestClient.Failure.self) {
                    _ = try await TLSTestClient(port: server.port, authority: authority, host: "example.com")
                }
                #expect(wrongHost?.description.contains("hostname mismatch") == true)
            }
        }

        /// Also after a body larger than one read: the rest is read and dropped, so the close is no reset that
        /// would hide the answer.
        @Test(arguments: [0, 300_000])
        func aPlainHTTPRequest_onTheTLSPort_getsA400ThatSaysSo(_ bodyBytes: Int) async throws {
            try await withHTTPSServer { server, _ in
                let client = try await RawHTTPClient(port: server.port)
                try await client.send(
                    bodyBytes == 0
                        ? StubTestSupport.get("/albums/1") : post("/upload", String(repeating: "x", count: bodyBytes)))
                let response = try await client.readResponse()
                #expect(response.status == 400)
                #expect(response.text.contains("this port speaks HTTPS"))
                #expect(response.header("Connection") == "close")
                #expect(try await client.readUntilClosed().isEmpty, "then the end, not a reset")
            }
        }

        /// A client's `close_notify` ends the connection at once, though it keeps its socket open.
        @Test func aClientsCloseNotify_endsTheConnection() async throws {
            try await withHTTPSServer { server, authority in
                let client = try await TLSTestClient(port: server.port, authority: authority)
                try await client.send("GET /albums/5 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await client.closeNotify()
                let rest = String(decoding: try await client.readUntilClosed(), as: UTF8.self)
                #expect(rest.hasSuffix(#"{"id":"5"}"#), "the answer, then the end")
                try await waitUntil("the server forgot the connection") { server.openConnections == 0 }
            }
        }

        /// A client that goes away without a `close_notify`, between requests, is forgotten at once, not at the idle
        /// timeout (five minutes here, past the test's limit).
        @Test func aClientThatClosesWithoutCloseNotify_isForgotten() async throws {
            try await withHTTPSServer(idleTimeout: .seconds(300)) { server, authority in
                let client = try await TLSTestClient(port: server.port, authority: authority)
                try await client.send("GET /albums/6 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                try await waitUntil("the answer was written") { server.journal().count == 1 }
                await client.hangUp()
                try await waitUntil("the server forgot the connection") { server.openConnections == 0 }
            }
        }

        /// Hostile first bytes the server refuses at once: the connection ends (closed, or an alert and closed) and
        /// the server serves on.
        @Test(arguments: [HostileHello.randomBytes, .sslv2Hello])
        func bytesThatAreNoTLS_endTheConnection_andTheServerServesOn(_ hello: HostileHello) async throws {
            try await withHTTPSServer { server, authority in
                let raw = try await RawHTTPClient(port: server.port)
                // The server may refuse the first bytes and close before taking the rest: the send may fail.
                try? await raw.send(hello.bytes)
                do {
                    let answer = try await raw.readUntilClosed()
                    #expect(answer.isEmpty || answer[0] == 0x15, "nothing, or a TLS alert record: \(answer.prefix(8))")
                } catch RawHTTPClient.ClientError.readFailed(let code) {
                    #expect(code != EAGAIN, "the server never ended the connection")
                }
                let client = try await TLSTestClient(port: server.port, authority: authority)
                #expect(try await get(client, "/albums/3").hasSuffix(#"{"id":"3"}"#))
            }
        }

        /// A hello that stops short: the server waits for the rest until its idle timeout, which bounds a
        /// handshake, then ends the connection itself.
        @Test(arguments: [HostileHello.truncatedClientHello, .stalledAfterTheRecordHeader])
        func aHelloThatStopsShort_isEndedAtTheIdleTimeout(_ hello: HostileHello) async throws {
            // The server's idle timeout is a 1 s window; the client waits 30 s, so the server, not the client, ends it.
            try await withHTTPSServer(idleTimeout: .seconds(1)) { server, _ in
                let raw = try await RawHTTPClient(port: server.port, timeout: 30)
                try await raw.send(hello.bytes)
                do {
                    #expect(try await raw.readUntilClosed().isEmpty)
                } catch RawHTTPClient.ClientError.readFailed(let code) {
                    #expect(code != EAGAIN, "the server never ended the connection")
                }
            }
        }

        enum HostileHello: String, CaseIterable, CustomTestStringConvertible {
            case randomBytes, truncatedClientHello, sslv2Hello, stalledAfterTheRecordHeader

            var testDescription: String { rawValue }

            var bytes: [UInt8] {
                switch self {
                case .randomBytes:
                    var generator = SystemRandomNumberGenerator()
                    // A first byte no TLS record and no request line starts with.
                    return [0x07] + (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) }
                case .truncatedClientHello:
                    // A handshake record that promises 512 bytes and sends a ClientHello's first 40.
                    return [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]
                        + Array(repeating: 0x2a, count: 29)
                case .sslv2Hello:
                    // An SSL 2.0 CLIENT-HELLO (RFC 6101 appendix E.1): length with the high bit, type 1, version 2.
                    return [0x80, 0x2e, 0x01, 0x00, 0x02, 0x00, 0x15, 0x00, 0x00, 0x00, 0x10]
                        + [
                            0x01, 0x00, 0x80, 0x07, 0x00, 0xc0, 0x03, 0x00, 0x80, 0x06, 0x00, 0x40, 0x02, 0x00, 0x80,
                            0x04, 0x00, 0x80, 0x00, 0x00, 0x04,
                        ]
                        + Array(repeating: 0x11, count: 16)
                case .stalledAfterTheRecordHeader:
                    return [0x16, 0x03, 0x01]
                }
            }
        }

        /// A body larger than the socket's buffers (sent from its file in TLS records the socket takes a part at a
        /// time) arrives whole.
        @Test func aFourMegabyteBody_arrivesWhole() async throws {
            // 2^18 numbered lines of 16 bytes: a piece lost, repeated or out of order shows. Made without a random
            // number per byte, which held a thread of the pool for seconds on one core.
            let body = (0..<(1 << 18)).map { index in
                let number = String(index)
                return String(repeating: "0", count: 15 - number.count) + number + "\n"
            }.joined()
            let fixtures = try TemporaryFixtures([
                "big/stubs.json":
                    #"{"stubs": [{"name": "big", "request": {"path": "/big"}, "variants": {"good": {"bodyFile": "big.txt"}, "bad": {"body": "{"}, "nil": {"body": ""}}}]}"#,
                "big/big.txt": body,
            ])
            defer { fixtures.remove() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = StubServer.Configuration(
                idleTimeout: testServerTimeout, headerTimeout: testServerTimeout,
                https: StubServer.HTTPS(authorityFolder: folder))
            try await withStubServer(fixtures: fixtures.root, configuration: configuration) { server in
                let client = try await TLSTestClient(
                    port: server.port, authority: folder.appendingPathComponent("ca.pem").path)
                try await client.send("GET /big HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                let answer = try await client.readUntilClosed()
                let end = try #require(answer.firstRange(of: Array("\r\n\r\n".utf8)))
                #expect(
                    String(decoding: answer[..<end.lowerBound], as: UTF8.self).contains("Content-Length: \(4 << 20)"))
                // Bytes, not strings: comparing 4 MB of text by characters takes seconds in a debug build.
                #expect(Array(answer[end.upperBound...]) == Array(body.utf8))
            }
        }

        // curl runs as a process of its own: there is none on iOS, tvOS, watchOS or visionOS.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
        func curl_trustingTheAuthority_getsFixturesOnOneConnection_andWithoutItFailsVerification() async throws {
            try await withHTTPSServer { server, authority in
                let both = try await Self.curl([
                    "-sS", "--cacert", authority, "-w", "|%{http_code}|%{num_connects}|%{ssl_verify_result}\\n",
                    "\(server.baseURL)/albums/1", "\(server.baseURL)/albums/2",
                ])
                #expect(both.status == 0)
                #expect(both.output == #"{"id":"1"}|200|1|0"# + "\n" + #"{"id":"2"}|200|0|0"# + "\n")
                let untrusted = try await Self.curl(["-sS", "\(server.baseURL)/albums/1"])
                #expect(untrusted.status == 60, "CURLE_PEER_FAILED_VERIFICATION")
            }
        }

        /// On Linux, URLSession trusts the system's authorities only (libcurl's bundle) and reports a certificate
        /// it cannot verify as `URLError.unknown` with curl's words; Apple platforms say
        /// `.serverCertificateUntrusted`.
        /// A streamed answer (server-sent events with pauses, chunked) reads the same over HTTPS as over HTTP.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
        func aStreamedTurn_readsTheSameOverHTTPSAsOverHTTP() async throws {
            let catalog = try await MockData.catalog()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = [
                "-sS", "-N", "-H", "Content-Type: application/json", "--data",
                #"{"model": "catalog-assistant-1", "stream": true, "messages": []}"#,
            ]
            let plain = try await withStubServer(catalog: catalog) { server in
                try await Self.curl(request + ["\(server.baseURL)/v1/chat/completions"])
            }
            let configuration = StubServer.Configuration(
                idleTimeout: testServerTimeout, headerTimeout: testServerTimeout,
                https: StubServer.HTTPS(authorityFolder: folder))
            let secure = try await withStubServer(catalog: catalog, configuration: configuration) { server in
                try await Self.curl(
                    request + [
                        "--cacert", folder.appendingPathComponent("ca.pem").path,
                        "\(server.baseURL)/v1/chat/completions",
                    ])
            }
            #expect(plain.status == 0 && secure.status == 0)
            #expect(plain.output.contains("data: [DONE]"))
            #expect(secure.output == plain.output)
        }

        @Test func urlSession_withoutTheAuthorityInItsTrust_refusesTheCertificate() async throws {
            try await withHTTPSServer { server, _ in
                let configuration = URLSessionConfiguration.ephemeral
                configuration.timeoutIntervalForRequest = 60
                let session = URLSession(configuration: configuration)
                let error = await #expect(throws: URLError.self) {
                    _ = try await session.data(from: server.baseURL.appendingPathComponent("/albums/1"))
                }
                #expect(error?.code == .unknown)
                #expect(
                    "\(String(describing: error))".contains(
                        "SSL certificate problem: unable to get local issuer certificate"))
                #expect(server.journal().isEmpty, "no request got through")
            }
        }

        /// The leaf follows Apple's rules for a server certificate from a user-trusted authority: subject alternative
        /// names, `serverAuth`, at most 825 days; `openssl verify` accepts it for a TLS server of each name.
        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
        func theLeaf_isAServerCertificateForEachName() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let authority = try LocalAuthority.loadOrCreate(in: folder.path)
            let leaf = folder.appendingPathComponent("leaf.pem")
            try Data(try authority.issue(hosts: ["stub.test"]).certificateChainPEM.utf8).write(to: leaf)
            let text = try await Self.run(
                "/usr/bin/openssl",
                [
                    "x509", "-in", leaf.path, "-noout", "-ext", "subjectAltName,extendedKeyUsage,basicConstraints",
                    "-dates",
                ])
            #expect(
                text.output.contains("DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:stub.test"))
            #expect(text.output.contains("TLS Web Server Authentication"))
            #expect(text.output.contains("CA:FALSE"))
            for name in [
                "-verify_hostname localhost", "-verify_ip 127.0.0.1", "-verify_ip ::1", "-verify_hostname stub.test",
            ] {
                let verified = try await Self.run(
                    "/usr/bin/openssl",
                    ["verify", "-CAfile", authority.certificatePath, "-purpose", "sslserver"]
                        + name.split(separator: " ").map(String.init) + [leaf.path])
                #expect(verified.status == 0, "\(name): \(verified.output)")
            }
            let other = try await Self.run(
                "/usr/bin/openssl",
                ["verify", "-CAfile", authority.certificatePath, "-verify_hostname", "example.com", leaf.path])
            #expect(other.status != 0)
        }

        private static func run(_ program: String, _ arguments: [String]) async throws -> (
            status: Int32, output: String
        ) {
            let child = try ChildProcess(program, arguments: arguments)
            var ended = await child.exit(within: 60)
            if ended == nil { ended = await child.kill() }
            let output = await child.stdout!.end(within: 60) ?? child.stdout!.received
            return (ended?.status ?? -1, String(decoding: output, as: UTF8.self))
        }

        /// Runs curl; `--max-time` bounds it (a later `--max-time` in `arguments` wins).
        private static func curl(_ arguments: [String]) async throws -> (status: Int32, output: String, stderr: String)
        {
            let curl = try ChildProcess("/usr/bin/curl", arguments: ["--max-time", "60"] + arguments)
            var ended = await curl.exit(within: 60)
            if ended == nil { ended = await curl.kill() }
            let output = await curl.stdout!.end(within: 60) ?? curl.stdout!.received
            let errors = await curl.stderr!.end(within: 60) ?? curl.stderr!.received
            return (
                ended?.status ?? -1, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
            )
        }
    }
#endif
