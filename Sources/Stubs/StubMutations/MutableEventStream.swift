package import HTTPMessages

/// An event stream as its mutants are made of it: the answer's status and headers, and its blocks in order (events
/// and comment blocks), each with the pause before it.
package struct MutableEventStream: Sendable, Equatable {
    package var status: Int
    package var headers: HTTPHeaders
    package var blocks: [Block]
    /// Mutants that follow the stream's grammar, made by whoever knows it (`Mutation.rewriting`): listed before the
    /// stream's own.
    package var grammar: [Mutation]

    /// One block: its lines without line ends (fields and comments), and the pause before it.
    package struct Block: Sendable, Equatable {
        package var lines: [String]
        package var delayMs: Int

        package init(lines: [String], delayMs: Int = 0) {
            self.lines = lines
            self.delayMs = delayMs
        }

        /// Whether a client dispatches it: it has a `data` field.
        var isEvent: Bool { lines.contains { field($0)?.name == "data" } }
        /// Its `event` field, or `message` (the type a client gives an event without one).
        var type: String { lines.lazy.compactMap { self.field($0) }.last { $0.name == "event" }?.value ?? "message" }
        /// Its `id` field's value, if it has one.
        var id: String? { lines.lazy.compactMap { self.field($0) }.last { $0.name == "id" }?.value }
        /// Its `data` lines' values joined by line feeds, as a client reads them; nil without any.
        var data: String? {
            let values = lines.compactMap { line in field(line).flatMap { $0.name == "data" ? $0.value : nil } }
            return values.isEmpty ? nil : values.joined(separator: "\n")
        }

        /// This block with its data lines replaced by one line of `data`, where the first was.
        func replacingData(with data: String) -> Block {
            var block = self
            guard let first = lines.firstIndex(where: { field($0)?.name == "data" }) else { return block }
            block.lines = lines.enumerated().compactMap { index, line in
                if index == first { return "data: \(data)" }
                return field(line)?.name == "data" ? nil : line
            }
            return block
        }

        /// This block with each `id` field's value replaced by `id`.
        func replacingID(with id: String) -> Block {
            var block = self
            block.lines = lines.map { field($0)?.name == "id" ? (id.isEmpty ? "id:" : "id: \(id)") : $0 }
            return block
        }

        private func field(_ line: String) -> (name: String, value: String)? {
            EventStreamField.isComment(line) ? nil : EventStreamField.parse(line)
        }
    }

    package init(status: Int, headers: HTTPHeaders, blocks: [Block], grammar: [Mutation] = []) {
        self.status = status
        self.headers = headers
        self.blocks = blocks
        self.grammar = grammar
    }

    /// The index in `blocks` of each event, in order.
    var eventBlocks: [Int] { blocks.indices.filter { blocks[$0].isEvent } }
}

/// A mutated event stream: the blocks as they go out (each one piece, or more for a split block) and how the stream
/// ends; or a plain answer instead of a stream.
package enum MutatedEventStream: Sendable, Equatable {
    case stream(status: Int, headers: HTTPHeaders, blocks: [SentBlock], ending: StreamEnd)
    case answer(MutableAnswer)

    /// One block on the wire.
    package struct SentBlock: Sendable, Equatable {
        /// Its bytes, in the pieces (reads) they go out in, each after its pause.
        package var pieces: [BodyPiece]
        /// Its `id` field's value, for a client's `Last-Event-ID` when it resumes.
        package var id: String?
        /// Whether a client dispatches it.
        package var isEvent: Bool

        package init(pieces: [BodyPiece], id: String?, isEvent: Bool) {
            self.pieces = pieces
            self.id = id
            self.isEvent = isEvent
        }
    }
}
