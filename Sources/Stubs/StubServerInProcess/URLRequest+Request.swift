import Foundation
import HTTPMessages

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a `URLRequest` cannot become a request the catalog decides: the answer the socket server would give.
struct UnreadableRequest: Error {
    var error: HTTPError
}

extension URLRequest {
    /// The request as the socket server would have decoded it: method, target (percent-encoded path and query as
    /// sent), the fields set on the request plus `Host`, and the body from `httpBody` or `httpBodyStream`.
    /// - Throws: `UnreadableRequest` with 413 for a body over `maxBodyBytes`, 400 for a URL without host.
    func stubRequest(maxBodyBytes: Int) throws(UnreadableRequest) -> Request {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let host = components.host, !host.isEmpty
        else {
            throw UnreadableRequest(error: HTTPError(.badRequest, "the request has no URL with a host"))
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders()
        headers.add("Host", components.port.map { "\(host):\($0)" } ?? host)
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
        where name.lowercased() != "host" {
            headers.add(name, value)
        }
        let body = try readBody(limit: maxBodyBytes)
        do {
            return try Request(method: httpMethod ?? "GET", target: target, headers: headers, body: body)
        } catch {
            throw UnreadableRequest(error: error)
        }
    }

    /// `httpBody`, or what `httpBodyStream` holds (URLSession moves a data task's body there on Apple platforms).
    private func readBody(limit: Int) throws(UnreadableRequest) -> [UInt8] {
        let tooLarge = { (count: String) in
            UnreadableRequest(
                error: HTTPError(.contentTooLarge, "request body of \(count) bytes exceeds the limit of \(limit) bytes")
            )
        }
        if let httpBody {
            guard httpBody.count <= limit else { throw tooLarge(String(httpBody.count)) }
            return [UInt8](httpBody)
        }
        guard let stream = httpBodyStream else { return [] }
        stream.open()
        defer { stream.close() }
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&chunk, maxLength: chunk.count)
            if count <= 0 { break }
            body += chunk[..<count]
            guard body.count <= limit else { throw tooLarge("more than \(limit)") }
        }
        return body
    }

    /// `scheme://host[:port]` of the request's URL: what `{{baseURL}}` is in process.
    var origin: String {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "" }
        var origin = "\(components.scheme ?? "https")://\(components.host ?? "")"
        if let port = components.port { origin += ":\(port)" }
        return origin
    }
}
