import HTTPEngine
import StubCore

/// Large fixture bodies in files the kernel sends from (`FileBody`), made on the first answer per fixture identity
/// (stub and variant), for one catalog generation; nil where none could be made (not Linux, or no descriptor left),
/// so that is tried once, not per answer. A transport's cache of what the core says it may cache: an answer made
/// for its request (`StubAnswer.Provenance.made`) is never kept.
struct BodyFiles {
    /// Bodies from this size up are sent from a file: below it, copying is cheaper than a second call.
    static let minimum = 16_384

    private var generation = 0
    private var files: [StubAnswer.Provenance: FileBody?] = [:]

    /// Whether `answer` is a large fixture body sent whole, as the fixture holds it.
    static func wants(_ answer: StubAnswer) -> Bool {
        guard case .fixture = answer.provenance, case .whole = answer.delivery else { return false }
        return answer.body.count >= minimum
    }

    /// The file for an answer that `wants` accepted (the caller asks first, outside this lock), decided under
    /// catalog `generation`: made on first use.
    mutating func file(for answer: StubAnswer, generation: Int) -> FileBody? {
        guard case .fixture = answer.provenance else { return nil }
        if generation != self.generation {
            files = [:]
            self.generation = generation
        }
        if let made = files[answer.provenance] { return made }
        let file = FileBody(answer.body)
        files[answer.provenance] = .some(file)
        return file
    }
}
