/// Apple's descriptions (audiobooks above all) carry a little HTML: `<b>`, `<i>`, `<br />`, `<p>` and entities.
/// `HTMLText.readable` turns it into plain text a row can show.
enum HTMLText {
    /// `html` without tags, with `<br>` as a line break, `<p>` and `</p>` as paragraph breaks, entities decoded,
    /// runs of spaces collapsed and at most one blank line in a row.
    static func readable(_ html: String) -> String {
        var text = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            text += rest[..<open]
            rest = rest[open...]
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { break }
                let tag = rest[rest.index(after: open)..<close].lowercased()
                let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
                if name == "br" { text += "\n" }
                if name == "p" || name == "div" { text += "\n\n" }
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.prefix(12).firstIndex(of: ";")
                if let end, let decoded = entity(rest[rest.index(after: open)..<end]) {
                    text += decoded
                    rest = rest[rest.index(after: end)...]
                } else {
                    text += "&"
                    rest = rest.dropFirst()
                }
            }
        }
        text += rest
        return tidy(text)
    }

    private static func entity(_ name: Substring) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        case "ndash": return "\u{2013}"
        case "mdash": return "\u{2014}"
        case "hellip": return "\u{2026}"
        case "lsquo": return "\u{2018}"
        case "rsquo": return "\u{2019}"
        case "ldquo": return "\u{201C}"
        case "rdquo": return "\u{201D}"
        case "copy": return "\u{A9}"
        default: break
        }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
        return scalar == "\u{A0}" ? " " : String(scalar)
    }

    /// Collapses spaces within lines, trims every line, and keeps at most one blank line between paragraphs.
    private static func tidy(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" })
            let cleaned = words.joined(separator: " ")
            if cleaned.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(cleaned)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
