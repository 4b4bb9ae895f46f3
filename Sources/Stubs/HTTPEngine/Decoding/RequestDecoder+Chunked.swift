import HTTPMessages

extension RequestDecoder {
    /// Reads a chunked body (RFC 9112 section 7.1) as far as the bytes go.
    /// - Returns: true once the last chunk and the trailer section have arrived.
    mutating func decodeChunked() throws(HTTPError) -> Bool {
        while true {
            switch phase {
            case .chunkSize:
                let limit = Self.maxChunkLineBytes
                let tooLong = HTTPError(.badRequest, "chunk size line exceeds \(limit) bytes")
                guard let line = try nextLine(within: limit, of: lineStart, tooLong: tooLong, in: "chunked framing")
                else { return false }
                start = lineStart
                let size = try chunkSize(in: buffer[line])
                guard let size, size <= maxBodyBytes - body.count else {
                    throw HTTPError(.contentTooLarge, "chunked request body exceeds the limit of \(maxBodyBytes) bytes")
                }
                phase = size == 0 ? .trailer(bytes: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let available = min(remaining, buffer.count - start)
                guard available > 0 else { return false }
                body.append(contentsOf: buffer[start..<(start + available)])
                start += available
                phase = available == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - available)
            case .chunkDataEnd:
                guard start < buffer.count else { return false }
                guard buffer[start] == Self.cr else {
                    throw HTTPError(.badRequest, "chunk data longer than its declared size, or not ended by CRLF")
                }
                guard start + 1 < buffer.count else { return false }
                guard buffer[start + 1] == Self.lf else {
                    throw HTTPError(.badRequest, "bare CR after chunk data; a chunk ends with CRLF")
                }
                start += 2
                scan = start
                lineStart = start
                phase = .chunkSize
            case .trailer(let bytes):
                let limit = maxHeaderBytes - bytes
                let tooLong = HTTPError(.headerFieldsTooLarge, "trailer section exceeds \(maxHeaderBytes) bytes")
                guard let line = try nextLine(within: limit, of: lineStart, tooLong: tooLong, in: "chunked framing")
                else { return false }
                start = lineStart
                if line.isEmpty { return true }
                _ = try Self.parseField(buffer[line])
                phase = .trailer(bytes: bytes + line.count + 2)
            case .head, .fixedBody:
                return true
            }
        }
    }

    /// The size in a chunk-size line: `1*HEXDIG *( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )`.
    /// - Returns: the size, or nil when it exceeds the body limit (no arithmetic on it can overflow).
    private func chunkSize(in line: ArraySlice<UInt8>) throws(HTTPError) -> Int? {
        let malformed = HTTPError(
            .badRequest, "malformed chunk size line: \(String(decoding: line, as: UTF8.self).debugDescription)")
        var index = line.startIndex
        var size: Int? = 0
        while index < line.endIndex, let digit = Self.hexValue(line[index]) {
            if let value = size {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 16)
                size = overflow || shifted > maxBodyBytes - Int(digit) ? nil : shifted + Int(digit)
            }
            index += 1
        }
        guard index > line.startIndex else { throw malformed }
        func skipWhitespace() {
            while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 }
        }
        func token() -> Bool {
            let first = index
            while index < line.endIndex, HTTPSyntax.isTokenByte(line[index]) { index += 1 }
            return index > first
        }
        while index < line.endIndex {
            skipWhitespace()
            guard index < line.endIndex, line[index] == UInt8(ascii: ";") else { throw malformed }
            index += 1
            skipWhitespace()
            guard token() else { throw malformed }
            skipWhitespace()
            guard index < line.endIndex, line[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipWhitespace()
            if index < line.endIndex, line[index] == UInt8(ascii: "\"") {
                guard let end = Self.quotedStringEnd(line, from: index) else { throw malformed }
                index = end
            } else if !token() {
                throw malformed
            }
        }
        return size
    }

    /// The index past the quoted-string starting at `start` (a double quote), or nil when it is not one.
    private static func quotedStringEnd(_ line: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < line.endIndex {
            switch line[index] {
            case UInt8(ascii: "\""):
                return index + 1
            case UInt8(ascii: "\\"):
                guard index + 1 < line.endIndex, isQuotedPairByte(line[index + 1]) else { return nil }
                index += 2
            case 0x09, 0x20, 0x21, 0x23...0x5B, 0x5D...0x7E, 0x80...0xFF:
                index += 1
            default:
                return nil
            }
        }
        return nil
    }

    private static func isQuotedPairByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || (byte >= 0x21 && byte != 0x7F)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
