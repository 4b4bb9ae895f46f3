import Foundation
import HTTPMessages
import StubServer
import StubTestSupport
import TestTurns
import Testing

@testable import StubMutations

/// Every listed mutant serves something else than the good answer and than every other listed mutant of its
/// variant, and each alias resolves to the mutant that lists it: over every variant of every MockData stub, and the
/// seeds of the mutations fuzz targets. A mutant equal to the good answer, or to another, would count a case no
/// client could tell apart. What is served is compared as a client reads it: a JSON body as JSON (a value mutant
/// writes its document compactly), a stream by its pieces, their pauses and its ending, a WebSocket by its script.
/// In `swift test` the good variants and the seeds, every twentieth mutant of a body and every fifth of a stream or a
/// conversation, with their aliases (the pairs are checked among those); under `SWEEP=all` (CI's sweep step), every
/// variant and every mutant.
// One case at a time: under SWEEP=all (CI's sweep step) every case is minutes of CPU that yields between mutants,
// and ~100 of them at once kept the screens' sweeps beside them past their ten minutes.
@Suite(.takesTurns(.heavy), .serialized, .timeLimit(.minutes(10)))
struct DistinctMutantSweepTests {
    /// One good answer and its listed mutants.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var good: Good
        var testDescription: String { name }
    }

    enum Good: Sendable {
        case answer(MutableAnswer)
        case stream(MutableEventStream)
        case conversation(MutableConversation)
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        if let catalog = try? StubCatalog.load(from: mockData) {
            for stub in catalog.stubs {
                for name in stub.variants.keys.sorted() {
                    guard let variant = stub.variants[name], variant.fault == nil else { continue }
                    let headers = HTTPHeaders(variant.headers.map { ($0.name, $0.value) })
                    let good: Good =
                        if let events = variant.events {
                            .stream(MutableEventStream(events.events, status: variant.status, headers: headers))
                        } else if let script = variant.script {
                            .conversation(MutableConversation(script))
                        } else {
                            .answer(
                                MutableAnswer(
                                    status: variant.status, headers: headers, body: variant.body,
                                    delayMs: variant.delayMs))
                        }
                    cases.append(Case(name: "\(stub.name) \(name)", good: good))
                }
            }
        }
        let seeds = mockData.deletingLastPathComponent().appendingPathComponent("Fuzz/seeds")
        for target in ["mutations", "stream-mutations"] {
            let folder = seeds.appendingPathComponent(target)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? [] {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path),
                    !file.hasSuffix(".ws")
                else { continue }
                let bytes = [UInt8](data)
                let good: Good =
                    target == "mutations"
                    ? .answer(
                        MutableAnswer(
                            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: bytes))
                    : .stream(
                        MutableEventStream(
                            status: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]),
                            blocks: String(decoding: bytes, as: UTF8.self).split(separator: "\n\n").map {
                                MutableEventStream.Block(lines: $0.split(separator: "\n").map(String.init))
                            }))
                cases.append(Case(name: "\(target) seed \(file)", good: good))
            }
        }
        return cases
    }()

    @Test func theCases_coverMockDataAndTheSeeds() {
        #expect(Self.cases.count >= 30)
        #expect(Self.cases.contains { $0.name == "chat-completion good" })
        #expect(Self.cases.contains { $0.name == "live-updates good" })
        #expect(Self.cases.contains { $0.name.hasPrefix("mutations seed") })
    }

    /// Under `SWEEP=all` every case; otherwise MockData's good variants and the seeds.
    static var sampled: [Case] {
        FullSweep.isOn ? cases : cases.filter { $0.name.hasSuffix(" good") || $0.name.contains(" seed ") }
    }

    @Test(arguments: sampled)
    func eachListedMutant_servesSomethingElse(_ test: Case) async throws {
        let (mutants, served, resolve): ([Mutation], (Mutation?) -> [UInt8], (String) -> Mutation?) =
            switch test.good {
            case .answer(let answer):
                (
                    Mutations.of(answer),
                    {
                        Self.key(
                            $0.map { $0.apply(to: answer) } ?? .answer(answer), answer,
                            asBytes: $0?.claimsBytes ?? false)
                    },
                    { Mutations.mutant($0, of: answer) }
                )
            case .stream(let stream):
                (
                    EventStreamMutations.of(stream),
                    {
                        // A client that resumes after a broken connection gets the rest as written: part of what
                        // the mutant serves.
                        Self.key($0.map { $0.apply(to: stream) } ?? Mutation.sent(stream))
                            + ($0?.breaksTheConnection == true ? Array("\nthen the rest as written".utf8) : [])
                    },
                    { EventStreamMutations.mutant($0, of: stream) }
                )
            case .conversation(let conversation):
                (
                    ConversationMutations.of(conversation),
                    { Array(String(describing: $0.map { $0.apply(to: conversation) } ?? conversation).utf8) },
                    { ConversationMutations.mutant($0, of: conversation) }
                )
            }
        let sampled: [Mutation]
        if FullSweep.isOn {
            sampled = mutants
        } else if case .answer = test.good {
            sampled = mutants.enumerated().filter { $0.offset % 20 == 0 }.map(\.element)
        } else {
            sampled = mutants.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        }
        var seen = [served(nil): "the good answer"]
        for (index, mutant) in sampled.enumerated() {
            // Seconds of work in all: the pool's thread (the only one on one core) goes to other tests between
            // mutants, or their waits run out meanwhile.
            if index % 8 == 0 { await Task.yield() }
            let key = served(mutant)
            #expect(seen[key] == nil, "\(test.name): \(mutant.id) serves what \(seen[key] ?? "") serves")
            seen[key] = mutant.id
        }
        for (index, mutant) in (FullSweep.isOn ? mutants : sampled).enumerated() {
            if index % 8 == 0 { await Task.yield() }
            for alias in mutant.aliases {
                let twin = try #require(resolve(alias), "\(test.name): \(alias) resolves")
                #expect(served(twin) == served(mutant), "\(test.name): \(alias) serves what \(mutant.id) serves")
            }
        }
    }

    /// A body's answer as a client reads it: the head, then the body as JSON when the good one is JSON and the
    /// mutant does not claim bytes (`body:bom`, `body:truncated-half`: bytes a decoder may read past).
    static func key(_ served: MutatedAnswer, _ good: MutableAnswer, asBytes: Bool) -> [UInt8] {
        guard case .answer(let answer) = served else { return Array("\(served)".utf8) }
        var head = "\(answer.status) \(answer.delayMs)"
        for (name, value) in answer.headers { head += "\n\(name): \(value)" }
        if !asBytes, JSONNode(parsing: good.body) != nil, let json = JSONNode(parsing: answer.body) {
            return Array((head + "\n\njson\n").utf8) + json.serialized
        }
        return Array((head + "\n\nbytes\n").utf8) + answer.body
    }

    /// A stream as a client receives it: the status, each piece after its pause, and how it ends; or the answer.
    static func key(_ served: MutatedEventStream) -> [UInt8] {
        switch served {
        case .answer(let answer): return Array("answer \(answer.status)\n".utf8) + answer.body
        case .stream(let status, _, let blocks, let ending):
            var key = Array("stream \(status) \(ending)".utf8)
            for piece in blocks.flatMap(\.pieces) {
                key += Array("\n\(piece.pauseMs) \(piece.bytes.count)\n".utf8) + piece.bytes
            }
            return key
        }
    }
}

extension Mutation {
    /// Whether the mutant's claim is about the body's bytes: a whole-body change but the JSON it writes.
    var claimsBytes: Bool {
        if case .whole(let whole) = change { whole.claimsBytes } else { false }
    }
}
