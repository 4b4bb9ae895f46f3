import ChildProcesses
import Foundation
import StubTestSupport
import Testing

@testable import StubCore
@testable import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server over HTTPS, as clients meet it: a strict TLS client that verifies the certificate, curl, and
/// URLSession; and what hostile bytes on the TLS port do.
#if canImport(COpenSSL)
    @Suite(.timeLimit(.minutes(1)))
    struct HTTPSTests {
        /// A server of the test catalog over HTTPS with an authority of its own in a fresh folder.
        private func withHTTPSServer(
            hosts: [String] = [], headerTimeout: Duration = .seconds(10),
            _ body: (StubServer, _ authority: String) async throws -> Void
        ) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = StubServer.Configuration(
                headerTimeout: headerTimeout,
                https: StubServer.HTTPS(authorityFolder: folder, hosts: hosts))
            try await withTestServer(configuration) { server, _ in
                try await body(server, folder.appendingPathComponent("ca.pem").path)
            }
        }

        private func get(_ client: TLSTestClient, _ target: String) async throws -> String {
            try await client.send("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            return String(decoding: try await client.readUntilClosed(), as: UTF8.self)
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

        @Test func aPlainHTTPRequest_onTheTLSPort_getsA400ThatSaysSo() async throws {
            try await withHTTPSServer { server, _ in
                let response = try await RawHTTPClient.get("/albums/1", port: server.port)
                #expect(response.status == 400)
                #expect(response.text.contains("this port speaks HTTPS"))
                #expect(response.header("Connection") == "close")
            }
        }

        /// Hostile first bytes: each connection ends (closed, or an alert and closed) and the server serves on.
        @Test(arguments: HostileHello.allCases)
        func hostileBytes_onTheTLSPort_endTheConnection_andTheServerServesOn(_ hello: HostileHello) async throws {
            // The truncated and stalled hellos wait for the header timeout: a 1 s window.
            try await withHTTPSServer(headerTimeout: .seconds(1)) { server, authority in
                let raw = try await RawHTTPClient(port: server.port)
                try await raw.send(hello.bytes)
                let answer = await raw.readToEnd()
                #expect(answer.isEmpty || answer[0] == 0x15, "nothing, or a TLS alert record: \(answer.prefix(8))")
                let client = try await TLSTestClient(port: server.port, authority: authority)
                #expect(try await get(client, "/albums/3").hasSuffix(#"{"id":"3"}"#))
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

        /// Runs curl; `--max-time` bounds it.
        private static func curl(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let curl = try ChildProcess("/usr/bin/curl", arguments: ["--max-time", "60"] + arguments)
            var ended = await curl.exit(within: 60)
            if ended == nil { ended = await curl.kill() }
            let output = await curl.stdout!.end(within: 60) ?? curl.stdout!.received
            return (ended?.status ?? -1, String(decoding: output, as: UTF8.self))
        }
    }
#endif
