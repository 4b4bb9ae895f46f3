import HTTPMessages

/// One block of a `text/event-stream` (HTML Living Standard, 9.2.6): its lines and the pause before it.
package struct ServerSentEvent: Sendable, Equatable {
    /// The block's lines as sent, without line ends: fields (`data: Hel`) and comments (`: note`).
    package var lines: [String]
    /// Milliseconds to wait after the previous block before sending this one.
    package var delayMs: Int
    /// Its `id` field's value, which a client sends back as `Last-Event-ID` when it reconnects.
    package private(set) var id: String?
    /// Whether a client dispatches it: it has a `data` field (HTML, 9.2.6: a block without data fires nothing).
    /// Only events count towards `eventsSent` and `dropAfterEvents`.
    package private(set) var isEvent: Bool

    package init(lines: [String], delayMs: Int = 0) {
        self.lines = lines
        self.delayMs = delayMs
        id = nil
        isEvent = false
        for line in lines where !EventStreamField.isComment(line) {
            let (name, value) = EventStreamField.parse(line)
            if name == "data" { isEvent = true }
            if name == "id", !value.contains("\u{0}") { id = value }
        }
    }

    /// An event from its parts: `event`, `id` and `retry` lines, then `data` split into one line per line of
    /// text, as the standard reads them back.
    package static func make(
        event: String? = nil, data: String? = nil, id: String? = nil, retry: Int? = nil, comment: String? = nil,
        delayMs: Int = 0
    ) -> ServerSentEvent {
        var lines: [String] = []
        if let comment { lines += splitLines(comment).map { $0.isEmpty ? ":" : ": \($0)" } }
        if let event { lines.append("event: \(event)") }
        if let id { lines.append("id: \(id)") }
        if let retry { lines.append("retry: \(retry)") }
        if let data { lines += splitLines(data).map { $0.isEmpty ? "data:" : "data: \($0)" } }
        return ServerSentEvent(lines: lines, delayMs: delayMs)
    }

    /// The block on the wire: each line ended by LF, then the blank line that dispatches it.
    package var wire: [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        bytes.append(0x0A)
        return bytes
    }

    /// A keep-alive comment, sent while a stream is idle.
    static let ping = Array(": ping\n\n".utf8)

    /// Lines split at CRLF, LF or CR, the line ends the standard reads.
    static func splitLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }
}
