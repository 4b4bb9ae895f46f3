import Foundation
import StubServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends forwarded requests to the real API with URLSession (so `https://` upstreams work) and turns every
/// outcome into a `ForwardedAnswer`: the answer (decoded when it was compressed), or 502 or 504 with the cause.
struct UpstreamClient: Sendable {
    let upstream: URL
    let timeout: Duration

    /// Request headers not passed on: URLSession negotiates compression itself and decodes the body.
    static let droppedRequestHeaders = ["Accept-Encoding"]
    /// Answer headers that describe the bytes on the upstream's wire, not the decoded body handed on.
    static let droppedAnswerHeaders = ForwardedRequest.hopByHopHeaders + ["Content-Encoding", "Date"]

    func send(_ request: ForwardedRequest) async -> ForwardedAnswer {
        let base =
            upstream.absoluteString.hasSuffix("/")
            ? String(upstream.absoluteString.dropLast()) : upstream.absoluteString
        guard let url = URL(string: base + request.target) else {
            return .failed(status: 502, message: "cannot build an upstream URL from \(upstream) and \(request.target)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up))
        for field in request.headers where !Self.droppedRequestHeaders.contains(where: { same($0, field.name) }) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = urlRequest.timeoutInterval
        configuration.timeoutIntervalForResource = urlRequest.timeoutInterval
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                return .failed(status: 502, message: "upstream \(upstream) answered with something other than HTTP")
            }
            var headers: [HeaderField] = []
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String, let value = value as? String,
                    !Self.droppedAnswerHeaders.contains(where: { same($0, name) })
                else { continue }
                headers.append(HeaderField(name: name, value: value))
            }
            headers.sort { $0.name.lowercased() < $1.name.lowercased() }
            return .response(status: http.statusCode, headers: headers, body: [UInt8](data))
        } catch let error as URLError where error.code == .timedOut {
            return .failed(
                status: 504, message: "upstream \(upstream) did not answer within \(Int(urlRequest.timeoutInterval)) s")
        } catch {
            return .failed(
                status: 502, message: "upstream \(upstream) cannot be reached: \(error.localizedDescription)")
        }
    }

    private func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.lowercased() == rhs.lowercased()
    }
}
