import Foundation
import StubCore
import StubTestSupport
import TestTurns
import Testing

@testable import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TLS failures in process: each `https` request ends with the failure's `URLError`, and none reaches the stubs.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct InProcessTLSFailureTests {
    @Test(arguments: TLSFailure.allCases)
    func eachFailure_endsHTTPSRequestsWithItsURLError_andNoneReachesTheStubs(_ failure: TLSFailure) async throws {
        let stubs = InProcessStubs.start(
            catalog: try await MockData.catalog(), configuration: InProcessStubs.Configuration(tlsFailure: failure))
        var request = URLRequest(url: InProcessStubsTests.search)
        // A stalled handshake is a silence the request's timeout ends: a 1 s window.
        if failure == .handshakeStall { request.timeoutInterval = 1 }
        let error = await #expect(throws: URLError.self) { _ = try await stubs.urlSession.data(for: request) }
        let expected: URLError.Code =
            switch failure {
            case .expired: .serverCertificateHasBadDate
            case .notYetValid: .serverCertificateNotYetValid
            case .wrongHost, .selfSigned, .unknownAuthority: .serverCertificateUntrusted
            case .otherKey: .unsupportedURL
            case .oldProtocol, .handshakeReset: .secureConnectionFailed
            case .handshakeStall: .timedOut
            }
        #expect(error?.code == expected)
        if failure != .handshakeStall {
            #expect(error?.localizedDescription.hasSuffix("(tls-failure \(failure.id))") == true)
        }
        #expect(stubs.journal().isEmpty)
        await stubs.stop()
    }

    @Test func plainHTTPRequests_areAnsweredAsUsual() async throws {
        let stubs = InProcessStubs.start(
            catalog: try await MockData.catalog(), configuration: InProcessStubs.Configuration(tlsFailure: .expired))
        var components = URLComponents(url: InProcessStubsTests.search, resolvingAgainstBaseURL: false)!
        components.scheme = "http"
        let (_, response) = try await stubs.urlSession.data(from: components.url!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        await stubs.stop()
    }
}
