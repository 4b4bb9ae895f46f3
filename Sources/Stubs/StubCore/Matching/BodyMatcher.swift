import HTTPMessages
package import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a stub matches a request's body: every condition must hold.
package struct BodyMatcher: Sendable, Equatable {
    package var conditions: [Condition]

    package init(_ conditions: [Condition]) {
        self.conditions = conditions
    }

    /// One test of the body.
    package enum Condition: Sendable, Equatable {
        /// The body's text is exactly this.
        case equals(String)
        /// The body's text matches this regular expression somewhere.
        case matches(ValueMatcher.Pattern)
        /// The body is JSON that contains this value (objects by subset, arrays element by element), or equals it.
        case json(JSONValue, exact: Bool)
        /// The body is JSON and the value at this path satisfies the matcher (strings by their text, other values
        /// by their JSON text).
        case jsonPath(JSONPath, ValueMatcher)
        /// The body is `application/x-www-form-urlencoded` and this field satisfies the matcher.
        case form(String, ValueMatcher)

        /// Exact conditions count as more specific than patterns and presence checks.
        var isExact: Bool {
            switch self {
            case .equals, .json: true
            case .jsonPath(_, let matcher), .form(_, let matcher): matcher.isExact
            case .matches: false
            }
        }

        var isPattern: Bool {
            switch self {
            case .matches: true
            case .jsonPath(_, let matcher), .form(_, let matcher):
                if case .matches = matcher { true } else { false }
            case .equals, .json: false
            }
        }
    }

    /// Every condition `body` fails, each named by its path under `body`; empty when the body matches.
    package func mismatches(of body: RequestBody) -> [StubMiss.Mismatch] {
        var found: [StubMiss.Mismatch] = []
        for condition in conditions {
            switch condition {
            case .equals(let expected):
                if body.text != expected {
                    found.append(.init(field: "body", expected: expected.debugDescription, actual: body.shortText))
                }
            case .matches(let pattern):
                if !pattern.matches(body.text) {
                    found.append(.init(field: "body", expected: "matches /\(pattern.source)/", actual: body.shortText))
                }
            case .json(let expected, let exact):
                guard let document = body.json else {
                    found.append(.init(field: "body", expected: "JSON", actual: "not JSON"))
                    continue
                }
                Self.compare(expected, document, exact: exact, at: "body", into: &found)
            case .jsonPath(let path, let matcher):
                guard let document = body.json else {
                    found.append(.init(field: "body", expected: "JSON", actual: "not JSON"))
                    continue
                }
                let value = path.value(in: document)
                if !matcher.accepts(value?.matchText) {
                    found.append(
                        .init(
                            field: "body.\(path)", expected: matcher.description,
                            actual: value?.messageText ?? "(absent)"))
                }
            case .form(let name, let matcher):
                guard let form = body.form else {
                    found.append(.init(field: "body", expected: "a form", actual: "not a form"))
                    continue
                }
                let value = form.first { $0.name == name }?.value
                if !matcher.accepts(value) {
                    found.append(
                        .init(
                            field: "form.\(name)", expected: matcher.description,
                            actual: value?.debugDescription ?? "(absent)"))
                }
            }
        }
        return found
    }

    /// Whether `body` passes every condition, without building messages.
    package func accepts(_ body: RequestBody) -> Bool {
        conditions.allSatisfy { condition in
            switch condition {
            case .equals(let expected): body.text == expected
            case .matches(let pattern): pattern.matches(body.text)
            case .json(let expected, let exact):
                body.json.map { exact ? $0 == expected : Self.contains($0, expected) } ?? false
            case .jsonPath(let path, let matcher):
                body.json.map { matcher.accepts(path.value(in: $0)?.matchText) } ?? false
            case .form(let name, let matcher):
                body.form.map { form in matcher.accepts(form.first { $0.name == name }?.value) } ?? false
            }
        }
    }

    /// Whether `actual` contains `expected`: objects by subset, arrays of equal length element by element.
    static func contains(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (expected, actual) {
        case (.object(let wanted), .object(let fields)):
            wanted.allSatisfy { key, value in fields[key].map { contains($0, value) } ?? false }
        case (.array(let wanted), .array(let items)):
            wanted.count == items.count && zip(items, wanted).allSatisfy { contains($0, $1) }
        default:
            expected == actual
        }
    }

    /// Appends each place where `actual` does not contain (or, `exact`, equal) `expected`.
    static func compare(
        _ expected: JSONValue, _ actual: JSONValue?, exact: Bool, at path: String, into found: inout [StubMiss.Mismatch]
    ) {
        guard found.count < 10 else { return }
        switch (expected, actual) {
        case (.object(let wanted), .object(let fields)?):
            for key in wanted.keys.sorted() {
                compare(wanted[key]!, fields[key], exact: exact, at: "\(path).\(key)", into: &found)
            }
            if exact {
                for key in fields.keys.sorted() where wanted[key] == nil {
                    found.append(.init(field: "\(path).\(key)", expected: "(absent)", actual: fields[key]!.messageText))
                }
            }
        case (.array(let wanted), .array(let items)?):
            guard wanted.count == items.count else {
                found.append(
                    .init(field: path, expected: "\(wanted.count) elements", actual: "\(items.count) elements"))
                return
            }
            for (index, item) in items.enumerated() {
                compare(wanted[index], item, exact: exact, at: "\(path)[\(index)]", into: &found)
            }
        default:
            if expected != actual {
                found.append(
                    .init(field: path, expected: expected.messageText, actual: actual?.messageText ?? "(absent)"))
            }
        }
    }
}

/// A request body read once per request, however many stubs look at it: as text, JSON and form fields.
package final class RequestBody {
    let bytes: [UInt8]
    private(set) lazy var text = String(decoding: bytes, as: UTF8.self)
    /// The body as JSON, nil when it is not JSON.
    private(set) lazy var json: JSONValue? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    /// The body's form fields, nil when it is not valid `application/x-www-form-urlencoded` text.
    private(set) lazy var form: [Request.QueryItem]? = try? Request.formItems(Substring(text))

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The text for a message: quoted, and cut at 80 characters.
    var shortText: String {
        if bytes.isEmpty { return "(empty)" }
        return Self.short(text)
    }

    /// `text` quoted, cut at 80 characters.
    static func short(_ text: String) -> String {
        (text.count > 80 ? String(text.prefix(80)) + "…" : text).debugDescription
    }
}

extension BodyMatcher: CustomStringConvertible {
    /// Reads as `json {"id":7}; jsonPath user.name matches /^a/; form user present`.
    package var description: String {
        conditions.map { condition in
            switch condition {
            case .equals(let text): "equals \(text.debugDescription)"
            case .matches(let pattern): "matches /\(pattern.source)/"
            case .json(let value, let exact): "json\(exact ? " exactly" : "") \(value.jsonText)"
            case .jsonPath(let path, let matcher): "jsonPath \(path) \(matcher)"
            case .form(let name, let matcher): "form \(name) \(matcher)"
            }
        }.joined(separator: "; ")
    }
}
