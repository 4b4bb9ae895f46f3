import HTTPMessages
import JSONModel

/// Reading WebSocket stubs: `"websocket"` in a request, `"script"` in a variant.
extension StubFileReader {
    /// `true`, or `{"protocols": ["chat.v1"]}`: the subprotocols the stub speaks, chosen from the client's list.
    mutating func readWebSocket(_ value: JSONValue, at path: String) -> WebSocketRoute? {
        switch value {
        case .bool(true): return WebSocketRoute(protocols: [])
        case .object:
            guard let fields = object(value, at: path, known: ["protocols"]) else { return nil }
            guard case .array(let items)? = fields["protocols"], !items.isEmpty else {
                report("\(path).protocols", "must be a non-empty array of subprotocol names")
                return nil
            }
            let names = items.enumerated().compactMap { string($1, at: "\(path).protocols[\($0)]", required: true) }
            for (index, name) in names.enumerated()
            where name.isEmpty || !name.utf8.allSatisfy(HTTPSyntax.isTokenByte) {
                report("\(path).protocols[\(index)]", "\(name.debugDescription) is not a subprotocol name (a token)")
            }
            return names.count == items.count ? WebSocketRoute(protocols: names) : nil
        default:
            report(path, "must be true or {\"protocols\": [...]}")
            return nil
        }
    }

    /// `[{"send": "hello"}, {"on": {"json": {"type": "ping"}}, "send": [...]}, {"close": {"code": 1000}}]`.
    mutating func readScript(_ value: JSONValue, at path: String) -> WebSocketScript? {
        guard case .array(let items) = value else {
            report(path, "must be an array of steps such as {\"send\": \"hello\"}")
            return nil
        }
        let before = problems.count
        let steps = items.enumerated().compactMap { index, item in readStep(item, at: "\(path)[\(index)]") }
        return problems.count == before ? WebSocketScript(steps: steps) : nil
    }

    private mutating func readStep(_ value: JSONValue, at path: String) -> WebSocketScript.Step? {
        guard let fields = object(value, at: path, known: ["send", "on", "delayMs", "close", "drop"]) else {
            return nil
        }
        let delay = fields["delayMs"].flatMap { integer($0, at: "\(path).delayMs", in: 0...600_000) } ?? 0
        if let close = fields["close"] {
            guard fields.count == 1,
                let options = object(close, at: "\(path).close", known: ["code", "reason", "afterMs"])
            else {
                if fields.count != 1 { report(path, "a close step holds only \"close\"") }
                return nil
            }
            let code = options["code"].flatMap { integer($0, at: "\(path).close.code", in: 1000...4999) } ?? 1000
            if !WebSocketCloseCode.maySend(code) {
                report("\(path).close.code", "\(code) may not be sent in a close frame (RFC 6455, 7.4)")
            }
            let reason = string(options["reason"], at: "\(path).close.reason") ?? ""
            if reason.utf8.count > 123 { report("\(path).close.reason", "must be at most 123 bytes of UTF-8") }
            let after = options["afterMs"].flatMap { integer($0, at: "\(path).close.afterMs", in: 0...3_600_000) } ?? 0
            return .close(code: UInt16(code), reason: reason, afterMs: after)
        }
        if let drop = fields["drop"] {
            guard fields.count == 1, let options = object(drop, at: "\(path).drop", known: ["afterMs"]) else {
                if fields.count != 1 { report(path, "a drop step holds only \"drop\"") }
                return nil
            }
            let after = options["afterMs"].flatMap { integer($0, at: "\(path).drop.afterMs", in: 0...3_600_000) } ?? 0
            return .drop(afterMs: after)
        }
        guard let send = fields["send"] else {
            report(path, "needs \"send\", \"close\" or \"drop\"")
            return nil
        }
        if let on = fields["on"] {
            guard let matcher = readBodyMatcher(on, at: "\(path).on") else { return nil }
            let messages: [WebSocketMessage]?
            if case .array(let list) = send {
                let read = list.enumerated().compactMap { readMessage($1, at: "\(path).send[\($0)]") }
                messages = read.count == list.count ? read : nil
            } else {
                messages = readMessage(send, at: "\(path).send").map { [$0] }
            }
            return messages.map { .reply(on: matcher, send: $0.map(\.output), delayMs: delay) }
        }
        return readMessage(send, at: "\(path).send").map { .send($0.output, delayMs: delay) }
    }

    /// A string (text), `{"json": VALUE}` (its JSON text) or `{"binary": BASE64}`.
    private mutating func readMessage(_ value: JSONValue, at path: String) -> WebSocketMessage? {
        switch value {
        case .string(let text): return .text(text)
        case .object(let fields) where fields.count == 1:
            if let json = fields["json"] { return .text(json.jsonText) }
            if case .string(let encoded)? = fields["binary"] {
                guard let bytes = Base64.decode(encoded) else {
                    report("\(path).binary", "must be base64 (RFC 4648, with padding)")
                    return nil
                }
                return .binary(bytes)
            }
        default: break
        }
        report(path, "must be a string, {\"json\": VALUE} or {\"binary\": BASE64}")
        return nil
    }
}

/// A WebSocket stub's handshake options.
package struct WebSocketRoute: Sendable, Equatable {
    /// Subprotocols the stub speaks; the first of the client's that is here is chosen.
    package var protocols: [String]
}
