import Foundation
import HTTPEngine

/// Fills `{{baseURL}}`, `{{query.NAME}}` and `{{path.NAME}}` placeholders in a body.
enum Template {
    /// The body with every known placeholder replaced; unknown placeholders stay as written.
    static func render(_ body: [UInt8], baseURL: String, request: HTTPRequest, pathParameters: [String: String])
        -> [UInt8]
    {
        let text = String(decoding: body, as: UTF8.self)
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if let value = value(of: name, baseURL: baseURL, request: request, pathParameters: pathParameters) {
                output += value
            } else {
                output += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        output += rest
        return Array(output.utf8)
    }

    private static func value(
        of name: String, baseURL: String, request: HTTPRequest, pathParameters: [String: String]
    ) -> String? {
        if name == "baseURL" { return baseURL }
        if name.hasPrefix("query.") { return request.queryValue(String(name.dropFirst(6))) ?? "" }
        if name.hasPrefix("path.") { return pathParameters[String(name.dropFirst(5))] }
        return nil
    }
}
