import Foundation
import TestTurns
import Testing

@testable import Networking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct APIErrorTests {
    @Test(arguments: [
        (APIError.transport("refused"), "Couldn't reach the server. Check your connection and try again."),
        (.timeout, "The server took too long to answer. Try again."),
        (.offline, "You're offline. Connect to the internet and try again."),
        (.status(503, body: Data()), "The server had a problem (error 503). Try again later."),
        (.status(404, body: Data()), "That wasn't found on the server (error 404)."),
        (.status(401, body: Data()), "The server refused the request (error 401)."),
        (.emptyBody, "The server sent an empty answer."),
        (.decoding(path: "a", description: "b"), "The server's answer couldn't be read."),
        (.invalidURL("x"), "The request couldn't be made (invalid address)."),
        (.cancelled, "The request was cancelled."),
    ])
    func message_isReadable(_ error: APIError, expected: String) {
        #expect(error.message == expected)
    }

    @Test func description_keepsTheDetail() {
        #expect(APIError.status(500, body: Data("boom".utf8)).description == "HTTP 500: boom")
        #expect(
            APIError.decoding(path: "feed.results[3].id", description: "expected a string").description
                == "undecodable body at feed.results[3].id: expected a string")
    }

    @Test(
        arguments: [
            (URLError(.timedOut), APIError.timeout),
            (URLError(.notConnectedToInternet), .offline),
            (URLError(.cancelled), .cancelled),
            (URLError(.badURL), .invalidURL("")),
        ] as [(any Error, APIError)])
    func urlErrors_mapToTheirCase(_ error: any Error, expected: APIError) {
        #expect(URLSessionHTTPClient.apiError(for: error) == expected)
    }

    @Test func otherErrors_areTransportFailures() {
        guard case .transport = URLSessionHTTPClient.apiError(for: URLError(.networkConnectionLost)) else {
            Issue.record("expected a transport failure")
            return
        }
        #expect(URLSessionHTTPClient.apiError(for: CancellationError()) == .cancelled)
    }
}

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TimeoutTests {
    @Test func subSecondTimeouts_roundUpWhereURLSessionTruncatesThem() {
        #if canImport(FoundationNetworking)
            #expect(URLSessionHTTPClient.effectiveTimeout(0.3) == 1)
            #expect(URLSessionHTTPClient.effectiveTimeout(1.5) == 2)
        #else
            #expect(URLSessionHTTPClient.effectiveTimeout(0.3) == 0.3)
        #endif
    }
}
