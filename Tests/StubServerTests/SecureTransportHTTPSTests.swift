#if os(iOS)
    import Foundation
    import Security
    import StubCore
    import StubTestSupport
    import TestTurns
    import Testing

    @testable import HTTPEngine
    @testable import StubServer

    /// On iOS the server's TLS is Secure Transport's (Linux's TLS tests drive OpenSSL's): a URLSession that trusts
    /// the local authority reads a fixture over HTTPS, and one that trusts only the system's roots is refused.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct SecureTransportHTTPSTests {
        /// Trusts the authority's certificate (DER) as the only anchor: SecTrustSetAnchorCertificates and
        /// SecTrustEvaluateWithError (Security-61901 trust/headers/SecTrust.h:302, :426).
        final class TrustingTheAuthority: NSObject, URLSessionDelegate, Sendable {
            let authority: Data

            init(authority: Data) {
                self.authority = authority
            }

            func urlSession(
                _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
            ) {
                guard let trust = challenge.protectionSpace.serverTrust,
                    let anchor = SecCertificateCreateWithData(nil, authority as CFData)
                else { return completionHandler(.cancelAuthenticationChallenge, nil) }
                SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
                guard SecTrustEvaluateWithError(trust, nil) else {
                    return completionHandler(.cancelAuthenticationChallenge, nil)
                }
                completionHandler(.useCredential, URLCredential(trust: trust))
            }
        }

        @Test func aFixture_isServedOverHTTPS_toAClientTrustingTheAuthority_andRefusedToOneThatDoesNot() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let configuration = StubServer.Configuration(
                idleTimeout: testServerTimeout, headerTimeout: testServerTimeout,
                https: StubServer.HTTPS(authorityFolder: folder))
            try await withTestServer(configuration) { server, _ in
                let pem = try String(contentsOf: folder.appendingPathComponent("ca.pem"), encoding: .utf8)
                let authority = try #require(try PEMText.decode(pem, label: "CERTIFICATE").first)
                let url = server.baseURL.appendingPathComponent("albums/1")
                #expect(url.scheme == "https")
                let trusting = URLSession(
                    configuration: .ephemeral, delegate: TrustingTheAuthority(authority: Data(authority)),
                    delegateQueue: nil)
                defer { trusting.invalidateAndCancel() }
                let (_, response) = try await trusting.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let untrusting = URLSession(configuration: .ephemeral)
                defer { untrusting.invalidateAndCancel() }
                await #expect(throws: URLError.self) { try await untrusting.data(from: url) }
                #expect(server.journal().map(\.path) == ["/albums/1"], "only the trusting client got through")
            }
        }
    }
#endif
