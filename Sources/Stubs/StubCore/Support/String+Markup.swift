extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` escaped, for HTML or XML text and attribute values.
    package var markupEscaped: String {
        guard contains(where: { "&<>\"'".contains($0) }) else { return self }
        var escaped = ""
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
