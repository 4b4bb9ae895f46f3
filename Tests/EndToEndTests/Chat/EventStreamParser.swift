/// Reads a `text/event-stream` as the HTML Living Standard does (9.2.6), from reads cut anywhere: lines end at
/// CR LF, LF or CR (also a CR at the end of one read and its LF at the start of the next); bytes are decoded only
/// as whole lines, so a UTF-8 sequence split across reads is whole again; comments are skipped; `data` lines are
/// joined by LF; `id` sets the last event ID (empty resets it; one holding NUL is ignored); `retry` sets the
/// reconnection time when it is digits; a block without data dispatches nothing; an unfinished block at the end is
/// dropped.
struct EventStreamParser {
    struct Event: Equatable, Sendable {
        var type: String
        var data: String
        /// The last event ID when the event was dispatched.
        var id: String?
    }

    private(set) var lastEventID: String?
    /// Milliseconds a server asked a client to wait before reconnecting.
    private(set) var retryMs: Int?
    private var line: [UInt8] = []
    private var skipsLF = false
    private var type = ""
    private var data: [String] = []

    /// The events `bytes` completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if skipsLF {
                skipsLF = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                skipsLF = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            (name, value) = (text[...], "")
        }
        switch name {
        case "event": type = String(value)
        case "data": data.append(String(value))
        case "id" where !value.contains("\u{0}"): lastEventID = value.isEmpty ? nil : String(value)
        case "retry" where !value.isEmpty && value.allSatisfy(\.isASCII) && value.allSatisfy(\.isNumber):
            retryMs = Int(value)
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> Event? {
        defer { (type, data) = ("", []) }
        guard !data.isEmpty else { return nil }
        return Event(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: lastEventID)
    }
}
