import HTTPMessages

/// How the answer as a whole is changed: its body, its type, its status, or the connection.
enum WholeChange: Sendable, Equatable {
    case body(Body)
    case contentType(String?)
    case status(Int)
    case fault(String)
    /// A delay past URLSession's default request timeout (60 s).
    case delayPastTimeout

    enum Body: String, CaseIterable, Sendable {
        case empty
        case truncated = "truncated-half"
        case null
        case emptyArray = "[]"
        case emptyObject = "{}"
        case htmlErrorPage = "html-error-page"
        case invalidUTF8 = "invalid-utf8"
        case byteOrderMark = "bom"
    }

    /// Every whole-answer change, in the order mutants list them.
    static let all: [WholeChange] =
        Body.allCases.map(WholeChange.body) + [.contentType(nil), .contentType("text/plain")]
        + [204, 301, 401, 404, 429, 500, 503].map(WholeChange.status)
        + ["drop", "reset", "truncate", "malformed", "hang"].map(WholeChange.fault) + [.delayPastTimeout]

    static let delayMs = 61_000

    /// Whether what the change serves depends on the body alone (not on the status or headers).
    var dependsOnTheBodyAlone: Bool {
        if case .body(let body) = self { return body != .htmlErrorPage }
        return false
    }

    /// Whether the change's claim is about the body's bytes (`body:bom`, `body:truncated-half`: bytes a decoder may
    /// read past), not the JSON it writes (`null`, `[]`, `{}`).
    var claimsBytes: Bool {
        dependsOnTheBodyAlone && ![.body(.null), .body(.emptyArray), .body(.emptyObject)].contains(self)
    }

    var id: String {
        switch self {
        case .body(let body): "body:\(body.rawValue)"
        case .contentType(nil): "content-type:removed"
        case .contentType(let type?): "content-type:\(type)"
        case .status(let status): "status:\(status)"
        case .fault(let fault): "fault:\(fault)"
        case .delayPastTimeout: "delay:past-timeout"
        }
    }

    var description: String {
        switch self {
        case .body(.empty): "an empty body"
        case .body(.truncated): "the body cut at half its bytes"
        case .body(.null): "the body is null"
        case .body(.emptyArray): "the body is []"
        case .body(.emptyObject): "the body is {}"
        case .body(.htmlErrorPage): "an HTML error page with status 200 (a proxy's or a captive portal's)"
        case .body(.invalidUTF8): "a byte that is not UTF-8 (0xFF) inside the body"
        case .body(.byteOrderMark): "a UTF-8 byte-order mark before the body"
        case .contentType(nil): "no Content-Type"
        case .contentType(let type?): "Content-Type \(type)"
        case .status(204): "204 No Content, no body"
        case .status(301): "301 Moved Permanently without a Location"
        case .status(429): "429 Too Many Requests, Retry-After: 1"
        case .status(let status): "\(status) \(Self.reason(status)), a plain-text body"
        case .fault(let fault): "the \(fault) fault instead of an answer"
        case .delayPastTimeout: "the answer after \(Self.delayMs / 1_000) s, past URLSession's default timeout"
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    static let htmlPage = Array(
        ("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>"
            + "<body><h1>Bad Gateway</h1><p>The upstream server is not answering.</p></body></html>\n").utf8)

    func apply(to answer: MutableAnswer) -> MutatedAnswer {
        var answer = answer
        switch self {
        case .body(let body):
            switch body {
            case .empty: answer.body = []
            case .truncated: answer.body = Array(answer.body.prefix(answer.body.count / 2))
            case .null: answer.body = Array("null".utf8)
            case .emptyArray: answer.body = Array("[]".utf8)
            case .emptyObject: answer.body = Array("{}".utf8)
            case .htmlErrorPage:
                answer.status = 200
                answer.headers.set("Content-Type", "text/html; charset=utf-8")
                answer.body = Self.htmlPage
            case .invalidUTF8:
                // Inside the first string when there is one, so a JSON body stays JSON in shape.
                let quote = answer.body.firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? 0
                answer.body.insert(0xFF, at: quote)
            case .byteOrderMark: answer.body = [0xEF, 0xBB, 0xBF] + answer.body
            }
        case .contentType(let type):
            if let type { answer.headers.set("Content-Type", type) } else { answer.headers.remove("Content-Type") }
        case .status(let status):
            answer.status = status
            answer.headers.remove("Content-Type")
            switch status {
            case 204, 301: answer.body = []
            case 429:
                answer.headers.set("Retry-After", "1")
                answer.body = Array("Too Many Requests\n".utf8)
            default:
                answer.headers.set("Content-Type", "text/plain; charset=utf-8")
                answer.body = Array("\(Self.reason(status))\n".utf8)
            }
        case .fault(let fault): return .fault(fault)
        case .delayPastTimeout: answer.delayMs += Self.delayMs
        }
        return .answer(answer)
    }
}
