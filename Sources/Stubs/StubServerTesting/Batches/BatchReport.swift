#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation

    /// What a batch's child says on standard error, one line each, and how the parent reads it back.
    package enum BatchReport {
        /// A line's word: a mutant started, ended (`passed`, `failed`), outlived its window (`hung`), trapped and
        /// was stopped (`crashed`), crashed and ended the child (`exited`); or the child ended in order (`end`).
        enum Word: String {
            case start, passed, failed, hung, crashed, exited, end
        }

        static let prefix = "stub-mutant-batch"

        static func line(_ word: Word, _ index: Int) -> String { "\n\(prefix) \(word.rawValue) \(index)\n" }

        /// Writes the line with one `write(2)`, whatever it returns: a line is far below a pipe's atomic size, so
        /// lines never interleave, and a failed write must not trap (the child's verdicts are all it has).
        static func say(_ word: Word, _ index: Int) {
            var text = line(word, index)
            text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
        }

        /// What a child said: each mutant's outcome where it is known, and the positions to run again alone.
        package struct Reading: Equatable, Sendable {
            package var outcomes: [StubMutant.Outcome?]
            package var alone: Set<Int>

            package init(outcomes: [StubMutant.Outcome?], alone: Set<Int>) {
                self.outcomes = outcomes
                self.alone = alone
            }
        }

        /// Reads the lines of a child that was given `count` mutants. Starts are believed in order only; the first
        /// ending said of a started mutant is its outcome, except a hang said after a trap (run again alone). A
        /// child that ended without its `end` line leaves its started mutants unsaid: when it said nothing of why
        /// and had started only one, that one crashed; otherwise they run again alone.
        package static func read(_ standardError: [UInt8], count: Int) -> Reading {
            var reading = Reading(outcomes: Array(repeating: nil, count: count), alone: [])
            var started = 0
            var trapped = false
            var ending: Word?
            let text = String(decoding: standardError, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix(prefix + " ") && ending == nil {
                let words = line.split(separator: " ")
                guard words.count == 3, let word = Word(rawValue: String(words[1])), let index = Int(words[2]) else {
                    continue
                }
                switch word {
                case .start where index == started && index < count: started += 1
                case .end: ending = .end
                case .crashed where index == -1: ending = .crashed
                case .passed, .failed, .hung, .crashed, .exited:
                    // A crash that ended the child, even in code a decided mutant left running: the child ended
                    // for a known reason, so no running mutant is blamed for it.
                    if word == .exited, index >= 0, index < started { ending = .exited }
                    guard index >= 0, index < started, reading.outcomes[index] == nil,
                        !reading.alone.contains(index)
                    else { continue }
                    switch word {
                    case .passed: reading.outcomes[index] = .passed
                    case .failed: reading.outcomes[index] = .failed
                    case .hung where trapped: reading.alone.insert(index)
                    case .hung: reading.outcomes[index] = .hung
                    default: reading.outcomes[index] = .crashed
                    }
                    trapped = trapped || word == .crashed
                default: continue
                }
            }
            if ending != .end {
                let unsaid = (0..<started).filter { reading.outcomes[$0] == nil && !reading.alone.contains($0) }
                // Only a child that started one mutant can blame it: with more, code a decided one left running
                // may have ended the child.
                if ending != .exited, started == 1, unsaid.count == 1 {
                    reading.outcomes[unsaid[0]] = .crashed
                } else {
                    reading.alone.formUnion(unsaid)
                }
            }
            return reading
        }
    }
#endif
