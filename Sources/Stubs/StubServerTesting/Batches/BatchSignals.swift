#if compiler(>=6.2) && (os(macOS) || os(Linux))
    import Foundation
    import Synchronization

    /// What a batch's child does on a crash signal, and what its handler reads: memory set up before the handlers
    /// are installed, read with async-signal-safe operations only (a signal handler may take no lock and allocate
    /// nothing).
    ///
    /// A trap or an abort on a mutant's own thread (`MutantThread`) says `crashed N` and parks that thread for good:
    /// Swift stops at a trap before it breaks anything, so the process is whole but for that thread (and what it
    /// holds). A bad access on it says `exited N` and ends the child: memory may be broken. Elsewhere (the main
    /// thread, the concurrency pool) the handler says `exited N` when the crashing code is a mutant's task, else
    /// `crashed -1`, and ends the child.
    enum BatchSignals {
        /// Each mutant's thread (written by that thread before it runs anything), the lines the handler writes, and
        /// each mutant's flag that its thread has parked: pointers only, so that reading it retains nothing.
        struct Table {
            var threads: UnsafeMutablePointer<pthread_t?>
            var crashedLines: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
            var exitedLines: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
            var parked: UnsafeMutablePointer<Atomic<Bool>>
            var count: Int
        }

        /// Set once, before any handler is installed and before any mutant's thread starts, and never freed: a
        /// handler reads it without a lock, which is why it is `nonisolated(unsafe)`.
        nonisolated(unsafe) private static var table: Table?

        /// The mutant a task runs for, read by the handler when the crash is on a thread that is not the mutant's.
        @TaskLocal static var running: Int?

        static let unknownLine: StaticString = "\nstub-mutant-batch crashed -1\n"

        /// Makes the table for `count` mutants and installs the handlers.
        static func install(count: Int) {
            let size = max(1, count)
            func lines(_ word: BatchReport.Word) -> UnsafeMutablePointer<UnsafeBufferPointer<UInt8>> {
                let lines = UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>.allocate(capacity: size)
                for index in 0..<size {
                    let bytes = Array(BatchReport.line(word, index).utf8)
                    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
                    _ = buffer.initialize(from: bytes)
                    (lines + index).initialize(to: UnsafeBufferPointer(buffer))
                }
                return lines
            }
            let threads = UnsafeMutablePointer<pthread_t?>.allocate(capacity: size)
            threads.initialize(repeating: nil, count: size)
            let parked = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: size)
            for index in 0..<size { (parked + index).initialize(to: Atomic(false)) }
            table = Table(
                threads: threads, crashedLines: lines(.crashed), exitedLines: lines(.exited), parked: parked,
                count: count)
            // Made before a handler may read them: the line, and the task-local's key.
            _ = unknownLine.utf8Start
            _ = running
            for signalNumber in [SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
                _ = signal(signalNumber) { _ in BatchSignals.stop(park: true) }
            }
            for signalNumber in [SIGSEGV, SIGBUS] { _ = signal(signalNumber) { _ in BatchSignals.stop(park: false) } }
        }

        /// Called by a mutant's thread first thing.
        static func register(slot: Int) { table?.threads[slot] = pthread_self() }

        /// Whether the thread of mutant `slot` has parked after a trap.
        static func hasParked(_ slot: Int) -> Bool { table.map { $0.parked[slot].load(ordering: .acquiring) } ?? false }

        /// The handler: says what crashed, then parks this thread or ends the child.
        fileprivate static func stop(park: Bool) {
            guard let table else { end(unknownLine) }
            let me = pthread_self()
            for slot in 0..<table.count {
                guard let thread = table.threads[slot], pthread_equal(thread, me) != 0 else { continue }
                guard park else { end(table.exitedLines[slot]) }
                let line = table.crashedLines[slot]
                _ = write(2, line.baseAddress, line.count)
                table.parked[slot].store(true, ordering: .releasing)
                while true { _ = sleep(1000) }
            }
            if let slot = running, slot >= 0, slot < table.count { end(table.exitedLines[slot]) }
            end(unknownLine)
        }

        private static func end(_ line: UnsafeBufferPointer<UInt8>) -> Never {
            _ = write(2, line.baseAddress, line.count)
            _exit(0)
        }

        private static func end(_ line: StaticString) -> Never {
            _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
            _exit(0)
        }
    }
#endif
