import Foundation
import Networking
import StubServer
import StubTestSupport
import TestTurns
import Testing

@testable import HTTPEngine
@testable import Networking

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// An app that pins its host's key, swept over every TLS failure a server can present, beside two fragile
/// clients: one that accepts any chain, one that checks the pin and not the chain. Each handshake is real (a
/// server per failure, OpenSSL on the client's side gathering the facts a platform's TLS gives a delegate).
#if canImport(COpenSSL)
    // Ten minutes: CI's sweep step (its name has "Sweep") starts it beside every screen's sweep at once.
    @Suite(.takesTurns(.heavy), .timeLimit(.minutes(10)))
    struct PinningSweepTests {
        /// How a client ended with a server.
        enum Outcome: Equatable, CustomStringConvertible {
            /// It sent the request and read the fixture.
            case answered
            /// It refused the server after the handshake, saying why.
            case refused(String)
            /// The handshake itself failed.
            case failed(String)

            var description: String {
                switch self {
                case .answered: "answered"
                case .refused(let why): "refused: \(why)"
                case .failed(let why): "failed: \(why)"
                }
            }

            var kind: String { String(description.prefix { $0 != ":" }) }
        }

        /// The clients swept: how each decides once the handshake showed it the facts.
        enum Client: String, CaseIterable, CustomTestStringConvertible {
            case careful
            case acceptsAnyChain
            case checksThePinOnly

            var testDescription: String { rawValue }

            func decide(_ facts: ServerTrustFacts, pin: String) -> KeyPinning.Decision {
                switch self {
                case .careful: KeyPinning(pins: [pin]).decide(facts)
                case .acceptsAnyChain: .accept
                case .checksThePinOnly:
                    KeyPinning(pins: [pin]).decide(ServerTrustFacts(chainFailure: nil, keyPin: facts.keyPin))
                }
            }

            /// What it is predicted to do against a server with `failure` (nil: none).
            func predicted(_ failure: TLSFailure?) -> String {
                switch failure {
                case nil: return "answered"
                case .oldProtocol, .handshakeReset, .handshakeStall: return "failed"
                case .otherKey: return self == .acceptsAnyChain ? "answered" : "refused"
                case .expired, .notYetValid, .wrongHost, .selfSigned, .unknownAuthority:
                    return self == .careful ? "refused" : "answered"
                }
            }
        }

        static let cases: [TLSFailure?] = [nil] + TLSFailure.allCases.map { $0 }

        @Test(arguments: Client.allCases, cases)
        func eachClient_againstEachTLSFailure_endsAsPredicted(_ client: Client, _ failure: TLSFailure?) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let authority = folder.appendingPathComponent("ca.pem").path
            // The handshake runs under the idle timer: in CI's sweep step a case's task can resume more than the
            // default 30 s after the server's flight, and the server would close the connection before the request.
            let configuration = StubServer.Configuration(
                idleTimeout: testServerTimeout, headerTimeout: testServerTimeout,
                https: StubServer.HTTPS(authorityFolder: folder, failure: failure))
            try await withStubServer(catalog: try await MockData.catalog(), configuration: configuration) { server in
                let pin = try LocalAuthority.loadOrCreate(in: folder.path).serverKeyPin()
                let outcome = await Self.run(
                    client, port: server.port, authority: authority, pin: pin, stalls: failure == .handshakeStall)
                #expect(outcome.kind == client.predicted(failure), "\(outcome)")
                switch (client, failure, outcome) {
                case (.careful, .otherKey, .refused(let why)):
                    #expect(why.hasPrefix("the server's key sha256//") && why.hasSuffix(" is not one the app pins"))
                    #expect(!why.contains(pin))
                case (.careful, .some(let failure), .refused(let why)):
                    #expect(why == "the server's certificate is not trusted: \(Self.openSSLSays(failure))")
                case (_, _, .answered):
                    #expect(server.journal().map(\.stub) == ["top-albums"], "the request reached the stub")
                default:
                    #expect(server.journal().isEmpty, "no request got through")
                }
            }
        }

        /// OpenSSL's words for each certificate the chain check refuses.
        static func openSSLSays(_ failure: TLSFailure) -> String {
            switch failure {
            case .expired: "certificate has expired"
            case .notYetValid: "certificate is not yet valid"
            case .wrongHost: "hostname mismatch"
            case .selfSigned: "self-signed certificate"
            case .unknownAuthority: "unable to get local issuer certificate"
            default: "(not a certificate failure)"
            }
        }

        /// Handshakes without giving up on an unverified certificate, lets `client` decide, and on acceptance asks
        /// for the top albums.
        static func run(_ client: Client, port: Int, authority: String, pin: String, stalls: Bool) async -> Outcome {
            let connection: TLSTestClient
            do {
                // A stalled handshake is a silence: the client gives up after a 2 s window. Any other waits up to a
                // minute: in CI's sweep step a handshake can take seconds.
                connection = try await TLSTestClient(
                    port: port, authority: authority, verifying: false, timeout: stalls ? 2 : 60)
            } catch {
                return .failed("\(error)")
            }
            let facts = ServerTrustFacts(chainFailure: connection.verifyFailure, keyPin: connection.serverKeyPin)
            if case .refuse(let why) = client.decide(facts, pin: pin) { return .refused(why) }
            do {
                try await connection.send(
                    "GET /api/v1/us/apple-music/top-albums/all/100/explicit.json HTTP/1.1\r\nHost: localhost\r\n"
                        + "Connection: close\r\n\r\n")
                let answer = String(decoding: try await connection.readUntilClosed(), as: UTF8.self)
                return answer.hasPrefix("HTTP/1.1 200 OK") ? .answered : .failed("answered \(answer.prefix(40))")
            } catch {
                return .failed("\(error)")
            }
        }

        /// The SubjectPublicKeyInfo head an Apple app puts before the key's bytes to pin it (Security gives the key
        /// without it) is OpenSSL's for a key of each kind, and what follows is the key as Security writes it: an EC
        /// point `04 || X || Y`, or a PKCS#1 `RSAPublicKey` (a SEQUENCE of the modulus and 65537).
        @Test(arguments: PublicKeyKind.allCases)
        func theKeyHeadOfEachKind_isOpenSSLs(_ kind: PublicKeyKind) throws {
            let algorithm = kind == .ecP256 || kind == .ecP384 ? "EC" : "RSA"
            let context = try #require(EVP_PKEY_CTX_new_from_name(nil, algorithm, nil))
            defer { EVP_PKEY_CTX_free(context) }
            #expect(EVP_PKEY_keygen_init(context) == 1)
            switch kind {
            case .ecP256: #expect(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1)
            case .ecP384: #expect(EVP_PKEY_CTX_set_group_name(context, "P-384") == 1)
            case .rsa2048: #expect(EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1)
            case .rsa4096: #expect(EVP_PKEY_CTX_set_rsa_keygen_bits(context, 4096) == 1)
            }
            var key: OpaquePointer?
            #expect(EVP_PKEY_generate(context, &key) == 1)
            defer { EVP_PKEY_free(key) }
            var pointer: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &pointer)
            let bytes = try #require(pointer)
            defer { copenssl_free(bytes) }
            let der = Array(UnsafeBufferPointer(start: bytes, count: Int(count)))
            let head = kind.subjectPublicKeyInfoHeader
            #expect(Array(der.prefix(head.count)) == head)
            #expect(der.count == head.count + kind.keyByteCount)
            let rest = der.dropFirst(head.count)
            if algorithm == "EC" {
                #expect(rest.first == 0x04, "an uncompressed point")
            } else {
                #expect(Array(rest.prefix(2)) == [0x30, 0x82])
                #expect(Array(rest.suffix(5)) == [0x02, 0x03, 0x01, 0x00, 0x01], "exponent 65537 last")
            }
            let bits = kind == .ecP256 ? 256 : kind == .ecP384 ? 384 : kind == .rsa2048 ? 2048 : 4096
            #expect(PublicKeyKind(elliptic: algorithm == "EC", bits: bits) == kind)
            #expect(PublicKeyKind(elliptic: algorithm == "EC", bits: bits + 8) == nil)
        }
    }
#endif
