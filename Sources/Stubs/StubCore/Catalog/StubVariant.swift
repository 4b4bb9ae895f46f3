/// One recorded answer of a stub, or a fault that breaks the connection instead.
public struct StubVariant: Sendable, Equatable {
    package var status: Int
    /// Header fields to send, in order; `Content-Type` is inferred from the body file's extension when absent.
    package var headers: [HeaderField] { didSet { templateKind = Self.templateKind(body, headers, template) } }
    package var body: [UInt8] { didSet { templateKind = Self.templateKind(body, headers, template) } }
    /// Whether `{{baseURL}}`, `{{query.NAME}}` and `{{path.NAME}}` in the body are substituted per request.
    package var template: Bool { didSet { templateKind = Self.templateKind(body, headers, template) } }
    /// What a templated body holds (JSON, XML, ...), read once from its bytes and `Content-Type`: how inserted
    /// values are escaped. Nil when the body is not a template (reading every fixture's bytes at load costs).
    package private(set) var templateKind: BodyKind?
    /// How long to wait before answering.
    package var delayMs: Int
    public var fault: Fault?
    /// How long to wait before the head is sent, on top of `delayMs`; then the body is paced.
    package var firstByteDelayMs: Int
    /// How the body's bytes are paced; nil sends them at once.
    package var pacing: Pacing?
    /// Faults and delays drawn at random, per request, from the server's seeded generator.
    package var faults: RandomFaults?
    /// What a WebSocket stub does once the socket opens; nil answers the handshake with this variant's HTTP answer.
    package var script: WebSocketScript?
    /// Server-Sent Events sent as the body, each at its time; nil for a plain body.
    package var events: EventStream?
    /// Whether a recorder or importer made this variant up (`bad`, `nil`): contract validation skips it.
    package var generated: Bool
    /// The model API format and framing its answer was rendered in from a turn (`"turn"`); nil otherwise. The drift
    /// check holds the real API's answer to that format's grammar.
    package var turnFormat: (format: TurnFormat, streaming: TurnFormat.Streaming)? {
        get { turnRendering.map { ($0.format, $0.streaming) } }
        set { turnRendering = newValue.map { TurnRendering(format: $0.format, streaming: $0.streaming) } }
    }
    private var turnRendering: TurnRendering?

    private struct TurnRendering: Sendable, Equatable {
        var format: TurnFormat
        var streaming: TurnFormat.Streaming
    }

    package init(
        status: Int = 200, headers: [HeaderField] = [], body: [UInt8] = [], template: Bool = false,
        delayMs: Int = 0, fault: Fault? = nil, firstByteDelayMs: Int = 0, pacing: Pacing? = nil,
        faults: RandomFaults? = nil, generated: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.template = template
        self.delayMs = delayMs
        self.fault = fault
        self.firstByteDelayMs = firstByteDelayMs
        self.pacing = pacing
        self.faults = faults
        self.generated = generated
        self.templateKind = Self.templateKind(body, headers, template)
    }

    private static func templateKind(_ body: [UInt8], _ headers: [HeaderField], _ template: Bool) -> BodyKind? {
        template ? BodyKind(body, contentType: headers.first(named: "Content-Type")) : nil
    }

    /// Whether the answer starts with a status line: no fault, or one that breaks a stream after its head.
    package var sendsHead: Bool {
        if script != nil, fault == nil { return true }
        return switch fault {
        case nil: true
        case .truncate?, .reset?: events != nil
        case .drop?, .malformed?, .hang?: false
        }
    }

    /// The status journaled and logged: a script's `101`, else the variant's.
    package var answeredStatus: Int { script != nil ? 101 : status }

    /// How a stream breaks, for the journal: its fault, else `drop` when `dropAfterEvents` cuts it.
    var streamFault: Fault? {
        guard let events, fault == nil, events.dropAfterEvents != nil else { return nil }
        return .drop
    }

    /// The first value of the header `name`, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first(named: name)
    }

    /// A way to fail at the transport level, as flaky networks and servers do.
    public enum Fault: String, Sendable, CaseIterable, Codable {
        /// Close the connection without answering.
        case drop
        /// Abort the connection with a TCP reset.
        case reset
        /// Send the head and half the body, then close.
        case truncate
        /// Send bytes that are not a valid HTTP response, then close.
        case malformed
        /// Never answer; hold the connection until the client or the server closes it.
        case hang
    }
}
