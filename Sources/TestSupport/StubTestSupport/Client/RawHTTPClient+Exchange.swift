extension RawHTTPClient {
    /// Sends `request` on a new connection to `127.0.0.1:port` and reads its answer.
    package static func exchange(_ request: String, port: Int) async throws -> RawResponse {
        let client = try await RawHTTPClient(port: port)
        try await client.send(request)
        return try await client.readResponse()
    }

    /// `GET target` on a new connection that closes after the answer; `headers` are lines ending in CRLF.
    package static func get(_ target: String, port: Int, headers: String = "") async throws -> RawResponse {
        try await exchange(StubTestSupport.get(target, headers + "Connection: close\r\n"), port: port)
    }
}

/// A GET request with the headers HTTP/1.1 requires; `headers` are lines ending in CRLF.
package func get(_ target: String, _ headers: String = "") -> String {
    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n"
}

/// A POST request with a body and the headers HTTP/1.1 requires.
package func post(_ target: String, _ body: String, type: String = "application/json", _ headers: String = "") -> String
{
    "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
        + "\(headers)\r\n\(body)"
}
