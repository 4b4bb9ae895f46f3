/// A request the server refuses, with the status to answer and a message a person can act on.
package struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    package var status: HTTPStatus
    package var message: String

    package init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    package var description: String { "\(status.code) \(status.reason): \(message)" }

    /// The error as the body of a JSON answer, `{"error": message}`.
    package var jsonBody: [UInt8] {
        Array("{\n  \"error\" : \"\(jsonEscaped(message))\"\n}\n".utf8)
    }
}

/// An HTTP status code and its reason phrase.
package struct HTTPStatus: Equatable, Hashable, Sendable {
    package var code: Int

    package init(_ code: Int) {
        self.code = code
    }

    /// Whether an answer with this status may carry content: not 1xx, 204 or 304 (RFC 9110, 8.6; RFC 9112, 6.3),
    /// whose answers also carry no `Content-Length` or `Transfer-Encoding`.
    package var allowsContent: Bool {
        code >= 200 && code != 204 && code != 304
    }

    package static let ok = HTTPStatus(200)
    package static let badRequest = HTTPStatus(400)
    package static let notFound = HTTPStatus(404)
    package static let methodNotAllowed = HTTPStatus(405)
    package static let requestTimeout = HTTPStatus(408)
    package static let conflict = HTTPStatus(409)
    package static let contentTooLarge = HTTPStatus(413)
    package static let uriTooLong = HTTPStatus(414)
    package static let unprocessableContent = HTTPStatus(422)
    package static let headerFieldsTooLarge = HTTPStatus(431)
    package static let internalServerError = HTTPStatus(500)
    package static let notImplemented = HTTPStatus(501)
    package static let serviceUnavailable = HTTPStatus(503)
    package static let versionNotSupported = HTTPStatus(505)

    /// The standard reason phrase, or `Status` for codes without one.
    package var reason: String {
        Self.reasons[code] ?? "Status"
    }

    private static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
        204: "No Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot", 422: "Unprocessable Content",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
