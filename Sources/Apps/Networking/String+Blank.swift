extension StringProtocol {
    /// Whether the text shows nothing: empty, or only spaces, line breaks, zero-width and other format characters
    /// (direction marks, a byte-order mark) or control characters. Such a value is as missing as an empty one.
    public var isBlank: Bool {
        !unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .format, .control: false
            default: true
            }
        }
    }
}
