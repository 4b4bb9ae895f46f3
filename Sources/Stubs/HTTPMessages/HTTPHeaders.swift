/// HTTP header fields in arrival order, looked up case-insensitively.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields as received: names keep their spelling.
    package private(set) var fields: [(name: String, value: String)]

    package init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// The first value of the field `name`, compared case-insensitively.
    package subscript(name: String) -> String? {
        for field in fields where field.name.caseInsensitiveEquals(name) {
            return field.value
        }
        return nil
    }

    /// Every value of the field `name`, in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field `name` with one field holding `value`.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    package mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names and tokens compare.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                guard left.count == right.count else { return false }
                for index in left.indices where asciiLowercase(left[index]) != asciiLowercase(right[index]) {
                    return false
                }
                return true
            }
        }
        if let compared = compared ?? nil { return compared }
        return utf8.count == other.utf8.count
            && zip(utf8, other.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }
}

@inline(__always)
package func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package func trimmingWhitespace() -> String {
        var bytes = Substring(self).utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
