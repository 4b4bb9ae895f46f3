import Foundation
import Locking
import StubCore
import StubServer

/// Writes recorded answers into one API folder in the ordinary fixture format: a `stubs.json` entry per request
/// (method, literal path, an exact matcher per query parameter) with the answer as `good`, byte for byte in a
/// body file, plus generated `nil` and `bad`. An existing `stubs.json` is extended, never clobbered; every file
/// is written atomically; secrets are redacted before anything is written. Records are made one at a time, on the
/// caller's thread (the recorder's is URLSession's, never Swift's cooperative pool).
final class FixtureWriter: Sendable {
    /// The API folder, such as `MockData/itunes-apple-com`.
    let folder: URL
    let redaction: Redaction
    /// Whether a new answer to a request already recorded becomes the next step of its sequence.
    let appendsSequences: Bool

    /// Answer headers never written: per-connection, per-answer or secret.
    static let droppedHeaders = ["Date", "Content-Length", "Set-Cookie", "Content-Encoding", "Transfer-Encoding"]

    /// Held while a record is made: two answers recorded at once must not both read, then write, `stubs.json`.
    private let recording = Lock(())

    init(folder: URL, redaction: Redaction, appendsSequences: Bool) {
        self.folder = folder
        self.redaction = redaction
        self.appendsSequences = appendsSequences
    }

    /// Records one exchange.
    /// - Parameter host: the upstream's host, added to the file's `hosts` (what the folder answers in process).
    /// - Returns: a line saying what was written, or nil when the answer was recorded before.
    /// - Throws: when a file cannot be read or written.
    /// - Parameter arrivals: when the body's bytes arrived; a `text/event-stream` answer becomes an events file
    ///   with the pauses they show (none without them, as from a HAR, which has no timing per event).
    func record(
        _ request: ForwardedRequest, host: String?, status: Int, headers: [HeaderField], body: [UInt8],
        arrivals: [EventStreamFile.Arrival] = []
    ) throws -> String? {
        try recording.withLock { _ throws -> String? in
            try recordHoldingTheLock(
                request, host: host, status: status, headers: headers, body: body, arrivals: arrivals)
        }
    }

    private func recordHoldingTheLock(
        _ request: ForwardedRequest, host: String?, status: Int, headers: [HeaderField], body: [UInt8],
        arrivals: [EventStreamFile.Arrival]
    ) throws -> String? {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("stubs.json")
        var (stubs, hosts) = try readStubs(file)
        if let host = host?.lowercased(), Stub.isValidHost(host), !hosts.contains(host) { hosts.append(host) }
        let matcher = requestMatcher(request)
        let kept = headers.filter { field in
            !Self.droppedHeaders.contains { $0.lowercased() == field.name.lowercased() }
                && !redaction.redacts(header: field.name)
        }
        let type = kept.first { $0.name.lowercased() == "content-type" }?.value ?? "application/octet-stream"
        var ext = Self.fileExtension(for: type, body: body)
        var body = body
        // A stream becomes an events file, its pauses as measured: what replays it at its pace.
        let events =
            type.lowercased().hasPrefix("text/event-stream")
            ? try? EventStreamFile.parse(body, arrivals: arrivals) : nil
        if let events {
            body = EventStreamFile.render(events)
            ext = "sse"
        }
        if let index = stubs.firstIndex(where: { Self.sameRequest($0["request"], matcher) }) {
            var stub = stubs[index]
            guard appendsSequences, let name = stub["name"] as? String,
                var variants = stub["variants"] as? [String: Any]
            else { return nil }
            let recorded = variants.keys.filter { $0 == "good" || $0.hasPrefix("recorded-") }
            for variant in recorded where try sameAnswer(variants[variant], status: status, body: body) { return nil }
            let step = "recorded-\(recorded.count + 1)"
            let bodyFile = "\(name).\(step).\(ext)"
            try write(body, to: bodyFile)
            variants[step] = variantObject(status: status, headers: kept, bodyFile: bodyFile, events: events != nil)
            var sequence = stub["sequence"] as? [String] ?? ["good"]
            sequence.append(step)
            stub["variants"] = variants
            stub["sequence"] = sequence
            stubs[index] = stub
            try writeStubs(stubs, hosts: hosts, to: file)
            return "recorded \(request.method) \(redaction.redactedTarget(request.target)) as \(name) \(step)"
        }
        let name = uniqueName(Stub.suggestedName(method: request.method, path: request.path), among: stubs)
        // A model API's answer becomes a turn file and a variant that renders it in the format it came in.
        // Only a turn its fixture can load: each call's arguments a JSON object (not cut by a length finish, not
        // the empty arguments of a tool without parameters); anything else stays the recorded bytes.
        let turn = (status == 200 ? events.map { TurnReader.recognize($0) } ?? TurnReader.recognize(whole: body) : nil)
            .flatMap { found in
                found.turn.toolCalls.allSatisfy { call in
                    if case .object = OrderedJSON.parsed(call.argumentsText) { true } else { false }
                } ? found : nil
            }
        if let turn {
            try write(Array((turn.turn.fileJSON.text + "\n").utf8), to: "\(name).turn.json")
        } else {
            try write(body, to: "\(name).good.\(ext)")
        }
        // A stream's bad half: its blocks through half its events (an events file must hold one), else half the bytes.
        let half = events.map { events in
            let keep = max(1, events.filter(\.isEvent).count / 2)
            var kept = 0
            let cut = events.firstIndex { event in
                if event.isEvent { kept += 1 }
                return event.isEvent && kept == keep
            }
            return EventStreamFile.render(Array(events[...(cut ?? events.count - 1)]))
        }
        try write(half ?? Array(body.prefix(body.count / 2)), to: "\(name).bad.\(ext)")
        var good = variantObject(
            status: status, headers: kept, bodyFile: "\(name).good.\(ext)", events: events != nil)
        if let turn {
            // The turn's own content type and framing replace the recorded file's; the other headers stay.
            var fields = good["headers"] as? [String: String] ?? [:]
            fields = fields.filter { $0.key.lowercased() != "content-type" }
            good = ["status": status, "headers": fields]
            let array = events == nil && body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "[")
            let stream: Any = array ? "json-array" : events != nil
            var options: [String: Any] = [
                "file": "\(name).turn.json", "format": turn.format.rawValue, "stream": stream,
            ]
            // A Chat stream without its usage chunk (no `stream_options.include_usage`) replays without one.
            if let events, turn.format == .openAIChat,
                events.filter(\.isEvent).count != TurnFormat.openAIChat.events(turn.turn, includeUsage: true).count
            {
                options["includeUsage"] = false
            }
            good["turn"] = options
        }
        var bad = variantObject(
            status: status, headers: [HeaderField(name: "Content-Type", value: type)], bodyFile: "\(name).bad.\(ext)",
            events: events != nil)
        bad["generated"] = true
        let empty: [String: Any] = ["status": 200, "headers": ["Content-Type": type], "body": "", "generated": true]
        stubs.append(["name": name, "request": matcher, "variants": ["good": good, "bad": bad, "nil": empty]])
        try writeStubs(stubs, hosts: hosts, to: file)
        return
            "recorded \(request.method) \(redaction.redactedTarget(request.target)) as \(name) (good; bad and nil generated)"
    }

    // MARK: Stubs

    /// The file's stubs and hosts; none of either for a file not written yet.
    private func readStubs(_ file: URL) throws -> (stubs: [[String: Any]], hosts: [String]) {
        guard let data = FileManager.default.contents(atPath: file.path) else { return ([], []) }
        guard let top = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let stubs = top["stubs"] as? [[String: Any]]
        else {
            throw RecordingError.unreadableStubs(file.path)
        }
        return (stubs, top["hosts"] as? [String] ?? [])
    }

    private func writeStubs(_ stubs: [[String: Any]], hosts: [String], to file: URL) throws {
        var top: [String: Any] = ["stubs": stubs]
        if !hosts.isEmpty { top["hosts"] = hosts }
        var data = try JSONSerialization.data(
            withJSONObject: top, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        try data.write(to: file, options: .atomic)
    }

    private func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name), options: .atomic)
    }

    /// Method, literal path and an exact matcher per query parameter; a redacted one only has to be present.
    private func requestMatcher(_ request: ForwardedRequest) -> [String: Any] {
        var matcher: [String: Any] = ["method": request.method, "path": request.path]
        var query: [String: Any] = [:]
        for item in request.query where query[item.name] == nil {
            query[item.name] = redaction.query.contains(item.name) ? ["present": true] : item.value
        }
        if !query.isEmpty { matcher["query"] = query }
        return matcher
    }

    private func variantObject(status: Int, headers: [HeaderField], bodyFile: String, events: Bool = false)
        -> [String: Any]
    {
        var fields: [String: String] = [:]
        for field in headers where fields[field.name] == nil { fields[field.name] = field.value }
        return ["status": status, "headers": fields, events ? "eventsFile" : "bodyFile": bodyFile]
    }

    private func sameAnswer(_ variant: Any?, status: Int, body: [UInt8]) throws -> Bool {
        guard let variant = variant as? [String: Any], variant["status"] as? Int == status,
            let bodyFile = variant["bodyFile"] as? String ?? variant["eventsFile"] as? String
        else { return false }
        return FileManager.default.contents(atPath: folder.appendingPathComponent(bodyFile).path) == Data(body)
    }

    private static func sameRequest(_ existing: Any?, _ matcher: [String: Any]) -> Bool {
        guard let existing = existing as? [String: Any] else { return false }
        return NSDictionary(dictionary: existing).isEqual(to: matcher)
    }

    // MARK: Names

    private func uniqueName(_ base: String, among stubs: [[String: Any]]) -> String {
        let taken = Set(stubs.compactMap { $0["name"] as? String })
        guard taken.contains(base) else { return base }
        var number = 2
        while taken.contains("\(base)-\(number)") { number += 1 }
        return "\(base)-\(number)"
    }

    /// The body file's extension: by what the body holds (`BodyKind`), then, for binary bodies, by the label.
    static func fileExtension(for contentType: String, body: [UInt8]) -> String {
        switch BodyKind(body, contentType: contentType) {
        case .json: return "json"
        case .xml: return "xml"
        case .html: return "html"
        case .text, .empty: return "txt"
        case .binary:
            let type = contentType.lowercased()
            if type.contains("png") { return "png" }
            if type.contains("jpeg") || type.contains("jpg") { return "jpg" }
            if type.contains("gif") { return "gif" }
            return "bin"
        }
    }
}

/// A recording that could not be made.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
    /// The environment has `CI` set and recording was not explicitly allowed there.
    case refusedInCI
    /// An existing stubs.json is not a fixture file; it is left untouched.
    case unreadableStubs(String)

    public var description: String {
        switch self {
        case .refusedInCI:
            "recording is refused because CI is set: a test run in CI must not depend on the network "
                + "(pass --allow-in-ci, or allowInCI: true, to record anyway)"
        case .unreadableStubs(let path):
            "\(path) is not a fixture file ({\"stubs\": [...]}); it was left untouched"
        }
    }
}
