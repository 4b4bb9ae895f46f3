/// A recorded `text/event-stream` as a fixture file: the stream's own wire format, where a `: delay=MS` comment
/// sets the pause before the next event. Blocks end at a blank line; the last may end at the end of the file.
///
/// Lines end with CRLF, LF or CR, and one byte-order mark may open the file, as the standard reads streams;
/// the bytes must be UTF-8. Comments other than `delay` and every field are kept as written.
package enum EventStreamFile {
    /// A problem in a file, with the line and column (both from 1) where it is.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var message: String
        package var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Longest pause a `delay` comment may ask for, as `delayMs` allows.
    static let maxDelayMs = 600_000
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The events of `bytes`.
    /// - Throws: `Problem` for bytes that are not UTF-8, a `delay` comment that is not whole milliseconds in
    ///   0...600000, or a file that holds no event.
    package static func parse(_ bytes: some Collection<UInt8>) throws(Problem) -> [ServerSentEvent] {
        try parse(bytes, arrivals: [])
    }

    /// Part of a recorded stream as it arrived: the bytes through `end` (counted from the body's start) had
    /// come `milliseconds` after the head.
    package struct Arrival: Sendable, Equatable {
        package var end: Int
        package var milliseconds: Int

        package init(end: Int, milliseconds: Int) {
            self.end = end
            self.milliseconds = milliseconds
        }
    }

    /// The events of a stream recorded with when its bytes arrived: each event's pause is the time between the
    /// arrival of its blank line and of the previous event's (the first's, from the head); `delay` comments in
    /// the bytes add to it.
    package static func parse(_ bytes: some Collection<UInt8>, arrivals: [Arrival]) throws(Problem)
        -> [ServerSentEvent]
    {
        var bytes = Array(bytes)
        var offset = 0
        if bytes.starts(with: byteOrderMark) {
            bytes.removeFirst(3)
            offset = 3
        }
        var previousArrival = 0
        /// The pause measured for a block that ends at `end`.
        func measured(through end: Int) -> Int {
            guard let arrival = arrivals.first(where: { $0.end >= end + offset }) else { return 0 }
            defer { previousArrival = arrival.milliseconds }
            return max(0, arrival.milliseconds - previousArrival)
        }
        var events: [ServerSentEvent] = []
        var lines: [String] = []
        var delay = 0
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            let line = try text(bytes[start..<end], line: lineNumber)
            start = end
            if start < bytes.count {
                start += bytes[start] == 0x0D && start + 1 < bytes.count && bytes[start + 1] == 0x0A ? 2 : 1
            }
            if line.isEmpty {
                if !lines.isEmpty {
                    events.append(
                        ServerSentEvent(lines: lines, delayMs: min(maxDelayMs, delay + measured(through: start))))
                    (lines, delay) = ([], 0)
                }
            } else if let value = delayValue(line) {
                guard let milliseconds = Int(value), value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    milliseconds <= maxDelayMs
                else {
                    let column = line.utf8.count - value.utf8.count + 1
                    throw Problem(
                        line: lineNumber, column: column,
                        message:
                            "delay must be whole milliseconds from 0 to \(maxDelayMs), not \(value.debugDescription)")
                }
                delay += milliseconds
            } else {
                lines.append(line)
            }
        }
        if !lines.isEmpty {
            events.append(ServerSentEvent(lines: lines, delayMs: min(maxDelayMs, delay + measured(through: start))))
        }
        guard events.contains(where: \.isEvent) else {
            throw Problem(line: max(lineNumber, 1), column: 1, message: "the file holds no event (no data line)")
        }
        return events
    }

    /// The file for `events`: each block after a `delay` comment for its pause, if it has one.
    package static func render(_ events: [ServerSentEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            if event.delayMs > 0 { bytes += ": delay=\(event.delayMs)\n".utf8 }
            bytes += event.wire
        }
        // A first line that opens with U+FEFF would read as the byte-order mark: one is put before it.
        if bytes.starts(with: byteOrderMark) { bytes.insert(contentsOf: byteOrderMark, at: 0) }
        return bytes
    }

    /// The value of a `: delay=MS` comment, nil for any other line.
    private static func delayValue(_ line: String) -> Substring? {
        guard line.utf8.first == UInt8(ascii: ":") else { return nil }
        let comment = line.dropFirst().drop { $0 == " " }
        guard comment.hasPrefix("delay=") else { return nil }
        return comment.dropFirst("delay=".count)
    }

    private static func text(_ bytes: ArraySlice<UInt8>, line: Int) throws(Problem) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // The column of the first byte that breaks the encoding.
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var column = 1
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { column += scalar.count }
        throw Problem(line: line, column: column, message: "the bytes are not UTF-8")
    }
}
