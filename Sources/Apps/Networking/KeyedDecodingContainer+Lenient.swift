public import Foundation

extension KeyedDecodingContainer {
    /// A string (or an integer, as a string) trimmed of whitespace; nil when missing, null, blank (`isBlank`: only
    /// spaces, zero-width or control characters) or another type.
    /// Real answers send ids as strings or numbers and leave fields out, null or empty: none of that should cost
    /// the record.
    public func lenientString(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isBlank ? nil : trimmed
        }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        return nil
    }

    /// An http or https URL with a host; nil when missing, invalid or of another scheme.
    public func webURL(_ key: Key) -> URL? {
        guard let text = lenientString(key), let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}

/// A value that decodes to nil instead of failing, so that one bad element of an array does not lose the rest.
public struct Lenient<Value: Decodable>: Decodable {
    public let value: Value?

    public init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}
