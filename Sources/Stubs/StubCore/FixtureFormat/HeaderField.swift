import HTTPMessages

/// One header field as written: a name and a value.
public struct HeaderField: Sendable, Equatable, Codable {
    public var name: String
    public var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension [HeaderField] {
    /// The first value of the field `name`, compared case-insensitively.
    func first(named name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }
}
