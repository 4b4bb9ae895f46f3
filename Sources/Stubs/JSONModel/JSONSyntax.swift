/// Whether bytes are one JSON text (RFC 8259, and a trailing comma in a container, which Foundation's
/// `JSONDecoder` accepts too), checked in one pass without building values or throwing.
///
/// `BodyKind` asks this of whole fixture bodies (a 100 KB feed) and upstream answers: decoding them into
/// `JSONValue` to learn only whether they parse costs an allocation per value and a thrown error per type tried.
package enum JSONSyntax {
    /// Whether `bytes` (after an optional UTF-8 byte-order mark) are one JSON value with only whitespace around.
    package static func isValid(_ bytes: [UInt8]) -> Bool {
        guard String(validating: bytes, as: UTF8.self) != nil else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
            return scanner.document()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        package init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// One value, then the end. Containers are tracked on a stack of their own (true: an object), so depth
        /// costs memory, not call frames.
        mutating func document() -> Bool {
            var open: [Bool] = []
            skipSpace()
            while true {
                // A value.
                guard let byte = peek() else { return false }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    index += 1
                    skipSpace()
                    if peek() == UInt8(ascii: isObject ? "}" : "]") {
                        index += 1
                    } else {
                        open.append(isObject)
                        if isObject { guard member() else { return false } }
                        continue
                    }
                case UInt8(ascii: "\""):
                    guard string() else { return false }
                case UInt8(ascii: "t"):
                    guard literal("true") else { return false }
                case UInt8(ascii: "f"):
                    guard literal("false") else { return false }
                case UInt8(ascii: "n"):
                    guard literal("null") else { return false }
                default:
                    guard number() else { return false }
                }
                // After a value: close what ends here, then a comma leads to the next value.
                while true {
                    skipSpace()
                    guard let inObject = open.last else { return index == bytes.count }
                    guard let next = peek() else { return false }
                    index += 1
                    if next == UInt8(ascii: ",") {
                        skipSpace()
                        // A comma before the close: Foundation's JSONDecoder reads it, so apps do too.
                        if peek() == UInt8(ascii: inObject ? "}" : "]") { continue }
                        if inObject { guard member() else { return false } }
                        break
                    }
                    guard next == UInt8(ascii: inObject ? "}" : "]") else { return false }
                    open.removeLast()
                }
            }
        }

        /// `"name"` and `:`, up to the member's value.
        private mutating func member() -> Bool {
            guard peek() == UInt8(ascii: "\""), string() else { return false }
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { return false }
            index += 1
            skipSpace()
            return true
        }

        private func peek() -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// From the opening quote past the closing one: no control characters, only the escapes JSON has.
        private mutating func string() -> Bool {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { return false }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        guard bytes.count - index >= 4 else { return false }
                        for offset in 0..<4 where !bytes[index + offset].isHexDigit { return false }
                        index += 4
                    default:
                        return false
                    }
                case 0x00..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func number() -> Bool {
            if peek() == UInt8(ascii: "-") { index += 1 }
            guard let first = peek(), first.isDigit else { return false }
            index += 1
            if first != UInt8(ascii: "0") { digits() }
            if peek() == UInt8(ascii: ".") {
                index += 1
                guard peek()?.isDigit == true else { return false }
                digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                guard peek()?.isDigit == true else { return false }
                digits()
            }
            return true
        }

        private mutating func digits() {
            while let byte = peek(), byte.isDigit { index += 1 }
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (0x30...0x39).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
