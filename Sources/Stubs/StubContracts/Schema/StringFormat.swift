/// The string formats the validator checks (`date-time`, `date`, `uuid`, `uri`, `email`) and the sample values the
/// example generator writes for them.
enum StringFormat {
    /// What is wrong with `text` as `format`; nil when it is right or the format is not one of these.
    static func problem(_ text: String, format: String) -> String? {
        let valid: Bool
        switch format {
        case "date-time": valid = isDateTime(Array(text.utf8))
        case "date": valid = isDate(Array(text.utf8))
        case "uuid": valid = isUUID(Array(text.utf8))
        case "uri": valid = isURI(Array(text.utf8))
        case "email": valid = isEmail(text)
        default: return nil
        }
        return valid ? nil : "\(text.debugDescription) is not a valid \(format)"
    }

    /// A value of `format`, for generated examples; nil for other formats.
    static func sample(_ format: String) -> String? {
        switch format {
        case "date-time": "2026-01-01T12:00:00Z"
        case "date": "2026-01-01"
        case "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "uri": "https://example.com/"
        case "email": "user@example.com"
        default: nil
        }
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// RFC 3339 `full-date`: `2026-11-25`, month 1-12, day 1-31.
    private static func isDate(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            digits(bytes[0..<4]) != nil, let month = digits(bytes[5..<7]), let day = digits(bytes[8..<10])
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    /// RFC 3339 `date-time`: `2026-11-25T06:05:29.5Z` or with an offset `+01:00`; `T` and `Z` in either case.
    private static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(Array(bytes[0..<10])), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = digits(bytes[11..<13]), bytes[13] == UInt8(ascii: ":"), let minute = digits(bytes[14..<16]),
            bytes[16] == UInt8(ascii: ":"), let second = digits(bytes[17..<19]),
            hour < 24, minute < 60, second <= 60
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index == bytes.count - 1 }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.count - index == 6,
            let offsetHour = digits(bytes[(index + 1)..<(index + 3)]), bytes[index + 3] == UInt8(ascii: ":"),
            let offsetMinute = digits(bytes[(index + 4)..<(index + 6)])
        else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }

    /// `8-4-4-4-12` hexadecimal digits.
    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20) else { return false }
            }
        }
        return true
    }

    /// A scheme (`letter *(letter / digit / "+" / "-" / ".")`), a colon, and no space or control character.
    private static func isURI(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            (0x61...0x7A).contains(bytes[0] | 0x20)
        else { return false }
        let schemeValid = bytes[1..<colon].allSatisfy { byte in
            (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        return schemeValid && !bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }

    /// One `@` between a non-empty local part and a domain, no spaces.
    private static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(" ")
            && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
    }
}
