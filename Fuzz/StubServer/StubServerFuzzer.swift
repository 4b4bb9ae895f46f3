// libFuzzer target for what the stub server reads from a request beyond its framing: query, header and Host
// values inserted by templates, and bodies read by body matchers. Compiled by Fuzz/run.sh against
// Sources/Stubs/StubCore (HTTPMessages, JSONModel and Locking as libraries). Properties, not only survival:
// - a JSON template stays valid JSON whatever is inserted, and each inserted value reads back unchanged;
// - markup escaping leaves no `<`, `>`, quote or bare `&`, and unescapes to the value; a header value holds
//   no control character;
// - a Host accepted as `host[:port]` makes a URL Foundation parses;
// - every body condition's `accepts` agrees with its `mismatches` being empty, and JSON contains itself;
// - a body the JSON decoder reads passes JSONSyntax's one-pass check and is of BodyKind JSON.
//
// Input layout: bytes 0-2 are the lengths of the query value, the header value and the Host; then those three
// values; the rest is the request body.

import Foundation
import HTTPMessages
import JSONModel

@testable import StubCore

let jsonTemplate = #"{"q":"{{query.q}}","h":"{{header.X}}","u":"{{baseURL}}","b":"{{body.a}}","p":"{{body.[0].a}}"}"#

func percentEncoded(_ bytes: some Collection<UInt8>) -> String {
    bytes.map { byte in
        let hex = String(byte, radix: 16, uppercase: true)
        return "%" + (hex.count == 1 ? "0" + hex : hex)
    }.joined()
}

func unescapeMarkup(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
}

func checkTemplates(query: ArraySlice<UInt8>, header: String, host: String, body: [UInt8]) {
    let request: Request
    do {
        request = try Request(
            method: "POST", target: "/t?q=" + percentEncoded(query), headers: HTTPHeaders([("X", header)]), body: body)
    } catch {
        // Not valid UTF-8 once decoded: the server answers 400 before any template.
        return
    }
    let value = request.queryValue("q") ?? ""
    let valid = Template.isValidHost(host)
    if valid, URL(string: "http://\(host)/x")?.host == nil {
        fatalError("host \(host.debugDescription) passed validation but makes no URL")
    }
    let baseURL = valid ? "http://\(host)" : "http://127.0.0.1:1"
    let template = Template(baseURL: baseURL, request: request, pathParameters: [:])
    let rendered = template.render(Array(jsonTemplate.utf8), escaping: .json)
    guard let object = try? JSONSerialization.jsonObject(with: Data(rendered)) as? [String: Any] else {
        fatalError("JSON template became invalid JSON: \(String(decoding: rendered, as: UTF8.self).debugDescription)")
    }
    precondition(object["q"] as? String == value, "query value changed on the way in")
    precondition(object["h"] as? String == header, "header value changed on the way in")
    precondition(object["u"] as? String == baseURL)

    for inserted in [value, header] {
        let markup = Template.escape(inserted, for: .markup)
        precondition(!markup.contains(where: { "<>\"'".contains($0) }), "markup escaping let a delimiter through")
        precondition(unescapeMarkup(markup) == inserted, "markup escaping does not read back")
        let field = Template.escape(inserted, for: .header)
        precondition(field.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }, "control in header")
        precondition(field.unicodeScalars.count == inserted.unicodeScalars.count)
    }
}

/// Conditions of every kind, compiled once.
let fixedConditions: [BodyMatcher.Condition] = {
    do {
        return [
            .equals("ping"), .matches(try ValueMatcher.Pattern("^a+b")),
            .json(.object(["a": .string("x"), "n": .array([.number(1), .null])]), exact: false),
            .json(.object(["a": .string("x")]), exact: true),
            .jsonPath(try JSONPath("a"), .exact("x")), .jsonPath(try JSONPath("[0].a"), .present),
            .form("a", .present), .form("b", .matches(try ValueMatcher.Pattern("[0-9]"))),
        ]
    } catch {
        fatalError("a fixed condition failed to compile: \(error)")
    }
}()

func checkBodyMatchers(body: [UInt8], pathText: String) {
    let view = RequestBody(body)
    var conditions = fixedConditions
    if let path = try? JSONPath(pathText) {
        precondition(path.description == pathText)
        conditions.append(.jsonPath(path, .absent))
    }
    // The one-pass check accepts all the decoder reads in UTF-8 (it also accepts what the decoder refuses for its
    // values: numbers past Double, nesting past 512, lone surrogate escapes), and such a body is JSON. The decoder
    // also reads UTF-16 and UTF-32, which it detects by NUL bytes; network JSON is UTF-8 (RFC 8259, 8.1). And it
    // never looks at a repeated key's later value (`{"a":1,"a":1e}` decodes), so JSONSerialization, which reads
    // every byte, must read the body too.
    if view.json != nil, !body.contains(0), String(validating: body, as: UTF8.self) != nil,
        (try? JSONSerialization.jsonObject(with: Data(body), options: .fragmentsAllowed)) != nil
    {
        precondition(JSONSyntax.isValid(body), "the decoder reads a body the syntax check refuses")
        precondition(BodyKind(body, contentType: "text/html") == .json, "a JSON body is not of kind JSON")
    }
    if let document = view.json {
        precondition(BodyMatcher.contains(document, document), "JSON does not contain itself")
        conditions.append(.json(document, exact: true))
        precondition(BodyMatcher([.json(document, exact: true)]).accepts(view), "JSON is not equal to itself")
    }
    for condition in conditions {
        let matcher = BodyMatcher([condition])
        let accepted = matcher.accepts(view)
        let mismatches = matcher.mismatches(of: view)
        if accepted != mismatches.isEmpty {
            fatalError("\(condition): accepts \(accepted) but mismatches \(mismatches)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubServer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 3 else { return 0 }
    var rest = input[3...]
    var fields: [ArraySlice<UInt8>] = []
    for length in input[0..<3] {
        let take = min(Int(length), rest.count)
        fields.append(rest.prefix(take))
        rest = rest.dropFirst(take)
    }
    let body = Array(rest)
    let header = String(decoding: fields[1], as: UTF8.self)
    let host = String(decoding: fields[2], as: UTF8.self)
    checkTemplates(query: fields[0], header: header, host: host, body: body)
    checkBodyMatchers(body: body, pathText: header)
    return 0
}
