import JSONModel

/// Reading a variant's Server-Sent Events: `events`, `eventsFile`, `keepAliveMs`, `dropAfterEvents`.
extension StubFileReader {
    /// Fills `variant`'s stream keys from `fields`; false when one of them is wrong.
    mutating func readEvents(_ fields: [String: JSONValue], into variant: inout PartialVariant, at path: String)
        -> Bool
    {
        let before = problems.count
        if fields["events"] != nil, fields["eventsFile"] != nil {
            report(path, "has both \"events\" and \"eventsFile\"; keep one")
        }
        for key in ["body", "bodyFile", "chunked", "template"] where fields[key] != nil {
            if fields["events"] != nil || fields["eventsFile"] != nil {
                report(Self.child(path, key), "a stream's body is its events; remove \(key)")
            }
        }
        if let value = fields["events"] {
            if case .array(let items) = value, !items.isEmpty {
                let events = items.enumerated().compactMap { index, item in
                    readEvent(item, at: "\(path).events[\(index)]")
                }
                if events.count == items.count { variant.events = events }
            } else {
                report("\(path).events", "must be a non-empty array of events such as {\"data\": \"Hel\"}")
            }
        }
        if let name = string(fields["eventsFile"], at: "\(path).eventsFile"),
            let bytes = readBodyFile(name, at: "\(path).eventsFile")
        {
            do {
                variant.events = try EventStreamFile.parse(bytes)
            } catch {
                report("\(path).eventsFile", "\(name): \(error)")
            }
        }
        if let value = fields["keepAliveMs"] {
            variant.keepAliveMs = integer(value, at: "\(path).keepAliveMs", in: 1...600_000)
        }
        if let value = fields["dropAfterEvents"] {
            variant.dropAfterEvents = integer(value, at: "\(path).dropAfterEvents", in: 0...1_000_000)
        }
        return problems.count == before
    }

    /// `{"event": "token", "data": "Hel", "id": "1", "retry": 2000, "delayMs": 40}`; `data` may be any JSON value,
    /// sent as JSON text; `comment` adds a comment line.
    private mutating func readEvent(_ value: JSONValue, at path: String) -> ServerSentEvent? {
        guard
            let fields = object(value, at: path, known: ["event", "data", "id", "retry", "delayMs", "comment"])
        else { return nil }
        let before = problems.count
        let event = singleLine(fields["event"], at: "\(path).event")
        let id = singleLine(fields["id"], at: "\(path).id")
        if let id, id.contains("\u{0}") { report("\(path).id", "must not hold NUL (clients ignore such an id)") }
        let comment = string(fields["comment"], at: "\(path).comment")
        var data: String?
        switch fields["data"] {
        case .string(let text)?: data = text
        case let other?: data = other.jsonText
        case nil: break
        }
        let retry = fields["retry"].flatMap { integer($0, at: "\(path).retry", in: 0...86_400_000) }
        let delay = fields["delayMs"].flatMap { integer($0, at: "\(path).delayMs", in: 0...600_000) }
        if event == nil, data == nil, id == nil, retry == nil, comment == nil {
            report(path, "needs at least one of data, event, id, retry or comment")
        }
        guard problems.count == before else { return nil }
        return .make(event: event, data: data, id: id, retry: retry, comment: comment, delayMs: delay ?? 0)
    }

    /// A string that must fit one line.
    private mutating func singleLine(_ value: JSONValue?, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        if text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            report(path, "must be one line: a line break would end the field")
            return nil
        }
        return text
    }
}

extension PartialVariant {
    /// Why the resolved variant's stream keys do not fit together; nil when they do.
    var streamProblem: String? {
        guard let events else {
            if keepAliveMs != nil || dropAfterEvents != nil {
                return "keepAliveMs and dropAfterEvents apply to a stream: add \"events\" or \"eventsFile\""
            }
            return nil
        }
        let count = events.filter(\.isEvent).count
        if let dropAfterEvents, dropAfterEvents >= count {
            return "dropAfterEvents \(dropAfterEvents) cuts nothing: the stream has \(count) events"
        }
        return nil
    }
}
