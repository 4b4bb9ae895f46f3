/// Decodes a `Transfer-Encoding: chunked` request body from buffered bytes.
enum ChunkedBody {
    /// Decodes the chunked body that starts at `start`.
    /// - Returns: the body and the index just past its trailer section, or nil if more bytes are needed.
    /// - Throws: `HTTPError` 400 for a malformed chunk, 413 when the body exceeds `limit`.
    static func decode(_ bytes: [UInt8], from start: Int, limit: Int) throws(HTTPError) -> (body: [UInt8], end: Int)? {
        var body: [UInt8] = []
        var index = start
        while true {
            guard let lineEnd = lineEnd(bytes, from: index) else { return nil }
            let line = bytes[index..<lineEnd.content]
            let sizeField = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
            guard !sizeField.isEmpty, sizeField.count <= 15,
                let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16)
            else {
                throw HTTPError(
                    .badRequest, "malformed chunk size line: \(String(decoding: line, as: UTF8.self).debugDescription)")
            }
            index = lineEnd.next
            if size == 0 { break }
            guard body.count + size <= limit else {
                throw HTTPError(.contentTooLarge, "chunked request body exceeds the limit of \(limit) bytes")
            }
            guard bytes.count >= index + size + 1 else { return nil }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size
            guard let dataEnd = Self.lineEnd(bytes, from: index) else { return nil }
            guard dataEnd.content == index else {
                throw HTTPError(.badRequest, "chunk data longer than its declared size \(size)")
            }
            index = dataEnd.next
        }
        // Trailer fields, ignored, until an empty line.
        while true {
            guard let lineEnd = lineEnd(bytes, from: index) else { return nil }
            if lineEnd.content == index { return (body, lineEnd.next) }
            index = lineEnd.next
        }
    }

    /// The end of the line starting at `start`: where its content stops and where the next line begins.
    private static func lineEnd(_ bytes: [UInt8], from start: Int) -> (content: Int, next: Int)? {
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        let content = newline > start && bytes[newline - 1] == 0x0D ? newline - 1 : newline
        return (content, newline + 1)
    }
}
