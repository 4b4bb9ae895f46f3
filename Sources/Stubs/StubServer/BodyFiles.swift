import HTTPEngine
import StubCore

/// Large fixed bodies in files the kernel sends from (`FileBody`), made on first answer per stub and variant name,
/// for one catalog generation; nil where none could be made (not Linux, or no descriptor left), so that is tried
/// once, not per answer. A transport's cache: the core's answer carries bytes.
struct BodyFiles {
    /// Bodies from this size up are sent from a file: below it, copying is cheaper than a second call.
    static let minimum = 16_384

    private var generation = 0
    private var files: [String: [String: FileBody?]] = [:]

    /// Whether `decision`'s answer is a large body sent as it is (no template, no pacing, no fault).
    static func wants(_ decision: StubDecision) -> Bool {
        guard case .answer(_, let variant, _, _, _) = decision.outcome else { return false }
        return decision.fault == nil && variant.fault == nil && !variant.template && variant.pacing == nil
            && variant.body.count >= minimum
    }

    /// The file for the answer of a decision that `wants` accepted (the caller asks first, outside this lock),
    /// decided under catalog `generation`: made on first use.
    mutating func file(for decision: StubDecision, generation: Int) -> FileBody? {
        guard case .answer(let stub, let variant, let name, _, _) = decision.outcome else { return nil }
        if generation != self.generation {
            files = [:]
            self.generation = generation
        }
        if let made = files[stub]?[name] { return made }
        let file = FileBody(variant.body)
        files[stub, default: [:]][name] = .some(file)
        return file
    }
}
