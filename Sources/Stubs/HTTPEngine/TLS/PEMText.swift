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
    /// blocks of other labels) is skipped, as RFC 7468 §2 allows. Lines end in LF or CRLF; spaces and tabs around a
    /// line are ignored.
    /// - Throws: `TLSError` naming the line where a block has no end or its Base64 does not decode.
    static func decode(_ text: String, label: String) throws(TLSError) -> [[UInt8]] {
        let (begin, end) = (Array("-----BEGIN \(label)-----".utf8), Array("-----END \(label)-----".utf8))
        let bytes = Array(text.utf8)
        var blocks: [[UInt8]] = []
        var body: [UInt8]?
        var (startLine, lineNumber, start) = (0, 0, 0)
        while start <= bytes.count {
            let stop = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            let line = trimmed(bytes[start..<stop])
            start = stop + 1
            if body == nil {
                if line.elementsEqual(begin) {
                    body = []
                    startLine = lineNumber
                }
            } else if line.elementsEqual(end) {
                guard let der = Base64.decode(String(decoding: body ?? [], as: UTF8.self)) else {
                    throw TLSError("the \(label) at line \(startLine) is not Base64")
                }
                blocks.append(der)
                body = nil
            } else if line.starts(with: "-----".utf8) {
                throw TLSError("the \(label) at line \(startLine) has no END line")
            } else {
                body? += line
            }
        }
        if body != nil { throw TLSError("the \(label) at line \(startLine) has no END line") }
        return blocks
    }

    /// `line` without the spaces, tabs and carriage returns around it.
    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }
        guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) })
        else {
            return []
        }
        return line[first...last]
    }
}
