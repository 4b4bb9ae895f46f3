import HTTPEngine
import HTTPMessages
import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HTTPResponse {
    /// A JSON answer made from an `Encodable` value, pretty-printed with sorted keys.
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
}
