import HTTPEngine
import HTTPMessages
import StubCore

extension HTTPResponse {
    /// A JSON answer made from an `Encodable` value, pretty-printed with sorted keys (`StubAnswer.json`).
    static func json(_ status: HTTPStatus, _ value: some Encodable, headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse
    {
        let answer = StubAnswer.json(status, value, headers: headers)
        return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
