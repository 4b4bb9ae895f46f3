package import HTTPMessages

/// One hostile version of a good answer: a value removed or retyped, an empty list, an HTML error page with
/// status 200, a reset. Made by `Mutations`, applied with `apply(to:)`.
package struct Mutation: Sendable, Equatable, CustomStringConvertible {
    /// Stable, readable and typeable: `feed.results[*].name:null`, `feed.results:one`, `/feed/entry/title:removed`,
    /// `body:html-error-page`, `status:503`, `fault:reset`. The same answer gives the same IDs in the same order.
    package let id: String
    /// One line saying what the mutant does.
    package let description: String
    let change: Change
    /// The IDs of mutants that serve the same answer as this one: listed once, under this ID, and each resolving to
    /// it (`feed.id:url-empty` is `feed.id:empty`).
    package internal(set) var aliases: [String] = []

    init(id: String, description: String, change: Change) {
        (self.id, self.description, self.change) = (id, description, change)
    }

    /// Whether the mutant breaks one connection (an event stream cut, reset or left hanging after an event, or a
    /// pause past a client's timeout): a client that resumes with `Last-Event-ID` gets the rest as written.
    package var breaksTheConnection: Bool {
        switch change {
        case .stream(.event(_, .end)), .stream(.event(_, .reset)), .stream(.event(_, .hang)),
            .stream(.stream(.idlePause)):
            true
        default: false
        }
    }

    enum Change: Sendable, Equatable {
        /// A JSON value (or every value the path reaches through `[*]`) changed.
        case value(path: [JSONStep], ValueChange)
        /// Every XML element at a path changed.
        case element(path: String, ElementChange)
        /// The answer as a whole.
        case whole(WholeChange)
        /// An event stream.
        case stream(EventStreamChange)
        /// A WebSocket conversation.
        case conversation(ConversationChange)
    }
}

/// A step of a JSON path: a key, or every element of an array (`[*]`).
enum JSONStep: Sendable, Equatable {
    case key(String)
    case elements
}

/// What an answer is before and after a mutation.
package struct MutableAnswer: Sendable, Equatable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// Milliseconds before the first byte.
    package var delayMs: Int

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8], delayMs: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMs = delayMs
    }
}

/// A mutated answer: bytes to send, or a broken connection instead.
package enum MutatedAnswer: Sendable, Equatable {
    case answer(MutableAnswer)
    /// One of the stub faults, by its fixture name: `drop`, `reset`, `truncate`, `malformed`, `hang`.
    case fault(String)
}
