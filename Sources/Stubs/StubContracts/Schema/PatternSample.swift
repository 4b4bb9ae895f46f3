import StubCore

/// A string that matches a simple regular expression, for generated examples: a sequence of literals, escapes
/// (`\d`, `\w`, `\s`, escaped punctuation), classes (`[a-z0-9_]`, `[\da-f]`), `.` and quantifiers (`{n}`, `{n,m}`,
/// `+`, `*`, `?`), anchored or not. Anything else (groups, alternation, negated classes) gives nil, and so does a
/// result the pattern then refuses.
enum PatternSample {
    static func sample(_ source: String) -> String? {
        var atoms: [(Character, Int)] = []
        var characters = Array(source)[...]
        if characters.first == "^" { characters = characters.dropFirst() }
        if characters.last == "$" { characters = characters.dropLast() }
        while let first = characters.popFirst() {
            let atom: Character
            switch first {
            case "\\":
                guard let escaped = characters.popFirst() else { return nil }
                guard let character = escape(escaped) else { return nil }
                atom = character
            case "[":
                guard let close = characters.firstIndex(of: "]"), characters.first != "^" else { return nil }
                guard let character = classMember(characters[..<close]) else { return nil }
                atom = character
                characters = characters[(close + 1)...]
            case ".": atom = "a"
            case "(", ")", "|", "^", "$", "*", "+", "?", "{": return nil
            default: atom = first
            }
            atoms.append((atom, quantifier(&characters) ?? 1))
        }
        let text = String(atoms.flatMap { Array(repeating: $0.0, count: $0.1) })
        guard let pattern = try? ValueMatcher.Pattern(source), pattern.matches(text) else { return nil }
        return text
    }

    private static func escape(_ character: Character) -> Character? {
        switch character {
        case "d": "0"
        case "w": "a"
        case "s": " "
        default: character.isLetter || character.isNumber ? nil : character
        }
    }

    /// The first character a class allows: a range's start, an escape's sample, or a literal.
    private static func classMember(_ body: ArraySlice<Character>) -> Character? {
        guard let first = body.first else { return nil }
        if first == "\\", body.count > 1 { return escape(body[body.startIndex + 1]) }
        return first
    }

    /// The smallest count a quantifier allows (at least one for `+`; `*` and `?` give one too, which they allow).
    private static func quantifier(_ characters: inout ArraySlice<Character>) -> Int? {
        switch characters.first {
        case "+", "*", "?":
            characters = characters.dropFirst()
            return 1
        case "{":
            guard let close = characters.firstIndex(of: "}") else { return nil }
            let body = String(characters[(characters.startIndex + 1)..<close])
            characters = characters[(close + 1)...]
            let minimum = body.split(separator: ",", omittingEmptySubsequences: false).first.flatMap { Int($0) }
            return minimum.map { min(max($0, 0), 1_000) }
        default:
            return nil
        }
    }
}
