import HTTPMessages

/// PEM (RFC 7468): DER in Base64 between `-----BEGIN label-----` and `-----END label-----` lines, written and read
/// without a TLS library, so that the local authority's files are the same on every platform.
enum PEMText {
    /// `der` as one PEM block of `label`, in lines of 64 characters (RFC 7468's strict form).
    static func encode(_ der: [UInt8], label: String) -> String {
        let text = Array(Base64.encode(der).utf8)
        var lines = ["-----BEGIN \(label)-----"]
        for start in stride(from: 0, to: text.count, by: 64) {
            lines.append(String(decoding: text[start..<min(start + 64, text.count)], as: UTF8.self))
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER of every block of `label` in `text`, in order; text around and between the blocks (an explanation,
    /// blocks of other labels) is skipped, as RFC 7468 §2 allows.
    /// - Throws: `TLSError` naming the line where a block has no end or its Base64 does not decode.
    static func decode(_ text: String, label: String) throws(TLSError) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        var body: String?
        var startLine = 0
        // "\r\n" is one Character, a newline as "\n" is.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingSpaces
            if body == nil {
                if trimmed == "-----BEGIN \(label)-----" {
                    body = ""
                    startLine = index + 1
                }
            } else if trimmed == "-----END \(label)-----" {
                guard let der = Base64.decode(body ?? "") else {
                    throw TLSError("the \(label) at line \(startLine) is not Base64")
                }
                blocks.append(der)
                body = nil
            } else if trimmed.hasPrefix("-----") {
                throw TLSError("the \(label) at line \(startLine) has no END line")
            } else {
                body? += trimmed
            }
        }
        if body != nil { throw TLSError("the \(label) at line \(startLine) has no END line") }
        return blocks
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
