package import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One server's copy of a resource's items, and what each request does to it: list, read, create, replace, patch
/// (JSON merge patch, RFC 7396) and delete, each refused with a readable JSON body when it cannot be done.
package struct ResourceCollection: Sendable, Equatable {
    package private(set) var items: [JSONValue]
    package let resource: StubResource
    /// The stub's name.
    package let name: String

    /// The collection of stub `name`, holding `items` (the seed when nil).
    package init(_ resource: StubResource, name: String = "", items: [JSONValue]? = nil) {
        self.resource = resource
        self.name = name
        self.items = items ?? resource.seed
    }

    /// What a request did: the answer's status, its JSON body (none for `204`), where a created item lives, and
    /// what the journal records.
    package struct Outcome: Sendable, Equatable {
        package var status: Int
        package var body: JSONValue?
        package var location: String?
        package var touch: JournalEntry.ResourceTouch
    }

    /// Answers `method` on `target`; `base` is the collection's path (for `Location`), `query` the request's.
    package mutating func handle(
        _ method: String, _ target: StubResource.Target, query: [(name: String, value: String)], body: [UInt8],
        base: String
    ) -> Outcome {
        switch (method, target) {
        case ("GET", .collection), ("HEAD", .collection): return list(query)
        case ("POST", .collection): return create(body, base: base)
        case (_, .item(let spelled)):
            guard ["GET", "HEAD", "PUT", "PATCH", "DELETE"].contains(method) else { break }
            let key: Key
            switch self.key(spelled) {
            case .success(let read): key = read
            case .failure(let reason):
                return refusal(method == "PUT" ? 422 : 404, reason.description, key: spelled, change: .refused)
            }
            switch method {
            case "PUT": return replace(key, body, base: base)
            case "PATCH": return patch(key.text, body)
            default: break
            }
            guard let index = index(of: key.text) else { return missing(key.text) }
            if method == "DELETE" {
                items.remove(at: index)
                return Outcome(status: 204, body: nil, touch: .init(key: key.text, change: .deleted))
            }
            return Outcome(status: 200, body: items[index], touch: .init(key: key.text, change: .read))
        default: break
        }
        return refusal(405, "\(method) is not answered here", key: nil, change: .refused)
    }

    /// Replaces every item; each must be an object whose key is a string or a number, keys unique.
    /// - Throws: the first problem, with its index (`[2].id: ...`).
    package mutating func replaceAll(with newItems: [JSONValue]) throws(ResourceError) {
        var seen: Set<String> = []
        for (index, item) in newItems.enumerated() {
            guard case .object = item else {
                throw ResourceError("[\(index)]: an item must be a JSON object, not \(item.kind)")
            }
            guard let key = keyText(of: item) else {
                throw ResourceError("[\(index)].\(resource.key): must be a string or a finite number")
            }
            guard seen.insert(key).inserted else {
                throw ResourceError("[\(index)].\(resource.key): \(key.debugDescription) is there twice")
            }
        }
        items = newItems
    }

    private func list(_ query: [(name: String, value: String)]) -> Outcome {
        var listed = items
        for filter in resource.filters {
            guard let wanted = query.first(where: { $0.name == filter })?.value else { continue }
            listed = listed.filter { item in
                guard case .object(let fields) = item, let value = fields[filter] else { return false }
                return value.matchText == wanted
            }
        }
        let count = listed.count
        if let paging = resource.paging {
            var bounds: [Int] = []
            for name in [paging.offset, paging.limit] {
                guard let text = query.first(where: { $0.name == name })?.value else {
                    bounds.append(name == paging.offset ? 0 : Int.max)
                    continue
                }
                guard let number = Int(text), number >= 0 else {
                    return refusal(
                        400, "query.\(name): must be a whole number from 0, not \(text.debugDescription)", key: nil,
                        change: .refused)
                }
                bounds.append(number)
            }
            listed = Array(listed.dropFirst(bounds[0]).prefix(bounds[1]))
        }
        let body: JSONValue
        if let wrap = resource.wrap {
            var fields: [String: JSONValue] = [wrap: .array(listed)]
            if let countField = resource.countField { fields[countField] = .number(Double(count)) }
            body = .object(fields)
        } else {
            body = .array(listed)
        }
        return Outcome(status: 200, body: body, touch: .init(key: nil, change: .listed))
    }

    private mutating func create(_ body: [UInt8], base: String) -> Outcome {
        var item: [String: JSONValue]
        switch object(in: body) {
        case .success(let fields): item = fields
        case .failure(let refused): return refused.outcome
        }
        let key: String
        if let given = item[resource.key] {
            guard let text = Self.keyText(given) else {
                return refusal(
                    422, "\(resource.key): must be a string or a number, not \(given.kind)", key: nil,
                    change: .refused)
            }
            guard index(of: text) == nil else {
                return refusal(
                    409, "an item with \(resource.key) \(text.debugDescription) is already there", key: text,
                    change: .refused)
            }
            key = text
        } else {
            let assigned = nextKey()
            item[resource.key] = assigned
            key = Self.keyText(assigned) ?? ""
        }
        items.append(.object(item))
        return Outcome(
            status: 201, body: .object(item), location: location(base, key), touch: .init(key: key, change: .created))
    }

    private mutating func replace(_ pathKey: Key, _ body: [UInt8], base: String) -> Outcome {
        let key = pathKey.text
        var item: [String: JSONValue]
        switch object(in: body) {
        case .success(let fields): item = fields
        case .failure(let refused): return refused.outcome
        }
        if let given = item[resource.key], Self.keyText(given) != key {
            return refusal(
                422, "\(resource.key): \(given.jsonText) differs from the path's \(key.debugDescription)", key: key,
                change: .refused)
        }
        if let index = index(of: key) {
            if item[resource.key] == nil, case .object(let old) = items[index] {
                item[resource.key] = old[resource.key]
            }
            items[index] = .object(item)
            return Outcome(status: 200, body: .object(item), touch: .init(key: key, change: .replaced))
        }
        if item[resource.key] == nil { item[resource.key] = pathKey.value }
        items.append(.object(item))
        return Outcome(
            status: 201, body: .object(item), location: location(base, key), touch: .init(key: key, change: .created))
    }

    private mutating func patch(_ key: String, _ body: [UInt8]) -> Outcome {
        let patch: [String: JSONValue]
        switch object(in: body) {
        case .success(let fields): patch = fields
        case .failure(let refused): return refused.outcome
        }
        guard let index = index(of: key) else { return missing(key) }
        let merged = Self.mergePatch(items[index], with: .object(patch))
        guard keyText(of: merged) == key else {
            return refusal(422, "\(resource.key): a patch cannot change an item's key", key: key, change: .refused)
        }
        items[index] = merged
        return Outcome(status: 200, body: merged, touch: .init(key: key, change: .patched))
    }

    /// RFC 7396: `null` removes a field, an object merges into an object, anything else replaces.
    package static func mergePatch(_ target: JSONValue, with patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var fields: [String: JSONValue] = [:]
        if case .object(let existing) = target { fields = existing }
        for (name, value) in changes {
            fields[name] = value == .null ? nil : mergePatch(fields[name] ?? .null, with: value)
        }
        return .object(fields)
    }

    /// The body as a JSON object, or the refusal saying why it is not one.
    private func object(in body: [UInt8]) -> Result<[String: JSONValue], RefusedOutcome> {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            let reason: String =
                switch error {
                case DecodingError.dataCorrupted(let context):
                    context.underlyingError.map { "\($0)" } ?? context.debugDescription
                default: "\(error)"
                }
            return .failure(
                RefusedOutcome(refusal(400, "the body is not JSON: \(reason)", key: nil, change: .refused)))
        }
        guard case .object(let fields) = value else {
            return .failure(
                RefusedOutcome(
                    refusal(422, "the body must be a JSON object, not \(value.kind)", key: nil, change: .refused)))
        }
        return .success(fields)
    }

    /// A refusal carried through `Result`.
    private struct RefusedOutcome: Error {
        var outcome: Outcome
        init(_ outcome: Outcome) { self.outcome = outcome }
    }

    private func missing(_ key: String) -> Outcome {
        refusal(404, "no item with \(resource.key) \(key.debugDescription) in \(name)", key: key, change: .refused)
    }

    private func refusal(_ status: Int, _ message: String, key: String?, change: JournalEntry.ResourceTouch.Change)
        -> Outcome
    {
        Outcome(status: status, body: .object(["error": .string(message)]), touch: .init(key: key, change: change))
    }

    /// The item's path: the key percent-encoded but for the unreserved characters (RFC 3986, 2.3).
    private func location(_ base: String, _ key: String) -> String {
        var encoded = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return (base.hasSuffix("/") ? base : base + "/") + encoded
    }

    private func index(of key: String) -> Int? {
        items.firstIndex { keyText(of: $0) == key }
    }

    private func keyText(of item: JSONValue) -> String? {
        guard case .object(let fields) = item, let value = fields[resource.key] else { return nil }
        return Self.keyText(value)
    }

    /// A key as the collection compares keys: a string as it is, a finite number in one spelling (a whole number
    /// without a fraction, so `1.0`, `1` and `-0`/`0` are each one key).
    private static func keyText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number) where !number.isFinite: nil
        case .number(let number) where number.rounded() == number && abs(number) < 9.0e15: String(Int64(number))
        case .number(let number): "\(number)"
        default: nil
        }
    }

    /// A key read from a request's path: its text as the collection compares keys, and its value as stored.
    package struct Key: Equatable {
        var text: String
        var value: JSONValue
    }

    /// The key `spelled` in a path names, read as the collection's keys are typed: the string itself where an item
    /// has it or the keys are strings; where they are numbers (or none is there and it is spelled as one), the
    /// number it spells, so `01`, `1.0` and `-0` name the same item as `1` or `0` do.
    /// - Returns: a failure with the reason when it spells no finite number where keys are numbers (`1e400`, `nan`).
    func key(_ spelled: String) -> Result<Key, KeyRefusal> {
        let numeric = items.contains { item in
            guard case .object(let fields) = item, case .number? = fields[resource.key] else { return false }
            return true
        }
        let stringKeyed = items.contains { item in
            guard case .object(let fields) = item, case .string(spelled)? = fields[resource.key] else { return false }
            return true
        }
        let spelledAsNumber = Self.isDecimalNumber(spelled)
        guard !stringKeyed, numeric || (items.isEmpty && spelledAsNumber) else {
            return .success(Key(text: spelled, value: .string(spelled)))
        }
        guard spelledAsNumber, let number = Double(spelled), number.isFinite else {
            return .failure(
                KeyRefusal(
                    "\(resource.key): \(spelled.debugDescription) is not a finite number, and the keys of \(name) are numbers"
                ))
        }
        let value = JSONValue.number(number == 0 ? 0 : number)
        return .success(Key(text: Self.keyText(value) ?? spelled, value: value))
    }

    /// Why a path's key names nothing this collection can hold.
    package struct KeyRefusal: Error, Equatable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether `text` is a decimal number as JSON and people write it, a sign and leading zeros allowed:
    /// `[+-]digits[.digits][(e|E)[+-]digits]` (not Swift's `Double` spellings `nan`, `inf` or `0x1p4`).
    static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Bool {
            let start = bytes.count
            while let byte = bytes.first, (0x30...0x39).contains(byte) { bytes = bytes.dropFirst() }
            return bytes.count < start
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard digits() else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() else { return false }
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard digits() else { return false }
        }
        return bytes.isEmpty
    }

    /// The key of a created item that gave none: one more than the largest whole-number key, typed as the
    /// collection's keys are (a number in an empty collection).
    private func nextKey() -> JSONValue {
        var largest = 0
        var strings = false
        for item in items {
            guard case .object(let fields) = item, let value = fields[resource.key] else { continue }
            if case .string = value { strings = true }
            if let text = Self.keyText(value), let number = Int(text) { largest = max(largest, number) }
        }
        var next = largest + 1
        while index(of: String(next)) != nil { next += 1 }
        return strings ? .string(String(next)) : .number(Double(next))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// A collection that cannot be replaced as asked, with the item's index and field.
package struct ResourceError: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
