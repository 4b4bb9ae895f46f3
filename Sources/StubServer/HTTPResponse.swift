import Foundation

/// An answer the server writes: status, header fields and body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer made from an `Encodable` value.
    static func json(_ status: HTTPStatus, _ value: some Encodable, headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var headers = headers
        headers.set("Content-Type", "application/json")
        var body = (try? encoder.encode(value)).map { [UInt8]($0) } ?? []
        body.append(0x0A)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A JSON error answer: `{"error": message}` plus any extra fields.
    static func error(_ error: HTTPError, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        json(error.status, ["error": error.message], headers: headers)
    }

    /// The status line and header fields on the wire: the given fields plus `Date`, `Content-Length`, a
    /// `Content-Type` when none is given and, when closing, `Connection: close`; then the blank line.
    func head(date: String, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status.code) \(status.reason)\r\nDate: \(date)\r\nContent-Length: \(body.count)\r\n"
        if headers["Content-Type"] == nil {
            head += "Content-Type: application/octet-stream\r\n"
        }
        for (name, value) in headers where !name.caseInsensitiveEquals("Content-Length") {
            head += "\(name): \(value)\r\n"
        }
        if !keepAlive {
            head += "Connection: close\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// The whole answer on the wire, head and body.
    func serialized(date: String, keepAlive: Bool) -> [UInt8] {
        head(date: date, keepAlive: keepAlive) + body
    }
}
