import HTTPEngine
import HTTPMessages
import StubCore

extension Response {
    /// A JSON answer made from an `Encodable` value, pretty-printed with sorted keys (`StubAnswer.json`).
    static func json(_ status: HTTPStatus, _ value: some Encodable, headers: HTTPHeaders = HTTPHeaders())
        -> Response
    {
        let answer = StubAnswer.json(status, value, headers: headers)
        return Response(status: answer.status, headers: answer.headers, body: answer.body)
    }
}
