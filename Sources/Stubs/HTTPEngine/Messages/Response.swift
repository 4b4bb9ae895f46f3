/// An answer the server writes: status, header fields and body.

package import HTTPMessages

package struct Response: Sendable, Equatable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    /// The body; setting it drops `file`.
    package var body: [UInt8] {
        didSet { file = nil }
    }
    /// The same bytes as `body` in a file the kernel sends from, for a large body answered often; nil to write
    /// `body` itself.
    package var file: FileBody?

    package init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer whose body is sent from `file`.
    package init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), file: FileBody) {
        self.init(status: status, headers: headers, body: file.bytes)
        self.file = file
    }

    /// A JSON error answer, `{"error": message}`, with the error's status.
    package static func error(_ error: HTTPError, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        var headers = headers
        headers.set("Content-Type", "application/json")
        return Response(status: error.status, headers: headers, body: error.jsonBody)
    }

    /// The status line and header fields on the wire: the given fields plus `Date`, `Content-Length` (of
    /// `contentLength`, else the body), `Content-Type: application/octet-stream` for content of no stated type and,
    /// when closing, `Connection: close`; then the blank line. With `chunked`, `Transfer-Encoding: chunked` replaces
    /// the length. A status that carries no content (1xx, 204, 304) gets neither, nor a made-up type.
    package func head(date: String, keepAlive: Bool, contentLength: Int? = nil, chunked: Bool = false) -> [UInt8] {
        // Built as bytes into one buffer: string interpolation cost a third of the engine's own time per answer.
        var head: [UInt8] = []
        head.reserveCapacity(160 + headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        func line(_ name: String, _ value: String) {
            head.append(contentsOf: name.utf8)
            head.append(contentsOf: ": ".utf8)
            head.append(contentsOf: value.utf8)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: "HTTP/1.1 ".utf8)
        head.append(contentsOf: String(status.code).utf8)
        head.append(0x20)
        head.append(contentsOf: status.reason.utf8)
        head.append(contentsOf: "\r\n".utf8)
        line("Date", date)
        let length = contentLength ?? body.count
        if !status.allowsContent {
            // No framing: the answer ends with its head.
        } else if chunked {
            line("Transfer-Encoding", "chunked")
        } else {
            line("Content-Length", String(length))
        }
        if headers["Content-Type"] == nil, status.allowsContent, chunked || length > 0 {
            line("Content-Type", "application/octet-stream")
        }
        for (name, value) in headers
        where !name.caseInsensitiveEquals("Content-Length") && !name.caseInsensitiveEquals("Transfer-Encoding") {
            line(name, value)
        }
        if !keepAlive {
            line("Connection", "close")
        }
        head.append(contentsOf: "\r\n".utf8)
        return head
    }

    /// The whole answer on the wire, head and body (none for a status that carries no content).
    package func serialized(date: String, keepAlive: Bool) -> [UInt8] {
        head(date: date, keepAlive: keepAlive) + (status.allowsContent ? body : [])
    }
}
