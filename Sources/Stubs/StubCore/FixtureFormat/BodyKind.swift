import JSONModel

/// What a body holds, read from its bytes first and its declared `Content-Type` only when the bytes do not say.
///
/// Real APIs label JSON `text/javascript` (the iTunes Search API), `text/plain` or `text/html`, so a decision
/// made on the label alone is wrong for them. Drift checking, template escaping and the recorder's choice of
/// file extension all ask this one type.
package enum BodyKind: String, Sendable, Equatable, CaseIterable {
    case empty
    case json
    case xml
    case html
    case text
    case binary

    /// The kind of `body`, whose declared type is `contentType`:
    /// 1. bytes that parse as JSON are JSON, whatever the label;
    /// 2. bytes that open with markup (`<` after a byte-order mark and whitespace) are HTML when they start with
    ///    `<!DOCTYPE html` or `<html`, XML otherwise (well-formedness is the XML reader's to check);
    /// 3. bytes that open with `{` or `[` are JSON too (a template such as `{"n": {{query.n}}}`, a cut answer);
    /// 4. otherwise the label decides when it names JSON, XML or HTML (a broken fixture, a text template);
    /// 5. otherwise UTF-8 is text, anything else binary.
    package init(_ body: [UInt8], contentType: String?) {
        guard !body.isEmpty else {
            self = .empty
            return
        }
        var start = 0
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < body.count,
            body[start] == 0x20 || body[start] == 0x09 || body[start] == 0x0A || body[start] == 0x0D
        {
            start += 1
        }
        let first = start < body.count ? body[start] : nil
        if first != nil, JSONSyntax.isValid(body) {
            self = .json
            return
        }
        if first == UInt8(ascii: "<") {
            let opening = String(decoding: body[start..<min(body.count, start + 15)], as: UTF8.self).lowercased()
            self = opening.hasPrefix("<!doctype html") || opening.hasPrefix("<html") ? .html : .xml
            return
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            self = .json
            return
        }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") {
            self = .json
        } else if type.contains("xml") {
            self = .xml
        } else if type.contains("html") {
            self = .html
        } else {
            self = String(validating: body, as: UTF8.self) == nil ? .binary : .text
        }
    }

    /// A name for messages: `JSON`, `XML`, `HTML`, `text`, `binary data`, `an empty body`.
    package var name: String {
        switch self {
        case .empty: "an empty body"
        case .json: "JSON"
        case .xml: "XML"
        case .html: "HTML"
        case .text: "text"
        case .binary: "binary data"
        }
    }
}
