import HTTPMessages
import TestTurns
import Testing

@testable import StubCore

/// The core answers requests as values, with no server and no socket: what every transport carries.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct StubAnswerTests {
    private static func catalog() throws -> StubCatalog {
        try StubCatalog(stubs: [
            Stub(
                name: "album", request: RequestPattern(path: PathPattern("/albums/{id}")),
                variants: [
                    "good": StubVariant(
                        headers: [HeaderField(name: "Content-Type", value: "application/json")],
                        body: Array(#"{"id":"{{path.id}}","from":"{{baseURL}}"}"#.utf8), template: true, delayMs: 30,
                        firstByteDelayMs: 20),
                    "slow": StubVariant(body: Array("abcdefgh".utf8), pacing: .chunked(size: 3, delayMs: 40)),
                    "drop": StubVariant(fault: .drop),
                    "cut": StubVariant(body: Array("whole body".utf8), fault: .truncate),
                    "bad": StubVariant(status: 500), "nil": StubVariant(status: 404),
                ]),
            Stub(
                name: "upload", request: RequestPattern(method: "POST", path: PathPattern("/upload")),
                variants: ["good": StubVariant(status: 201), "bad": StubVariant(status: 500), "nil": StubVariant()]),
        ])
    }

    private func answer(_ method: String, _ target: String, variant: String? = nil) throws -> (
        StubDecision, StubAnswer?
    ) {
        var state = StubState(catalog: try Self.catalog(), journal: RequestJournal(capacity: 10))
        let headers = HTTPHeaders(variant.map { [("X-Stub-Variant", $0)] } ?? [])
        let request = try Request(method: method, target: target, headers: headers)
        let decision = state.decide(request)
        return (decision, decision.answer(to: request, baseURL: "http://example.test"))
    }

    @Test func aTemplatedVariant_isRenderedWithItsHeadersAndDelay() throws {
        let answer = try #require(try answer("GET", "/albums/7").1)
        #expect(answer.status == .ok)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"id":"7","from":"http://example.test"}"#)
        #expect(answer.headers["X-Stub-Name"] == "album")
        #expect(answer.headers["X-Stub-Variant"] == "good")
        #expect(answer.headers["X-Stub-Variant-Source"] == "default")
        #expect(answer.headers["Content-Type"] == "application/json")
        #expect(answer.delayMs == 50, "delayMs and the first byte's delay add up")
        #expect(answer.delivery == .whole)
    }

    @Test func aPacedVariant_isDeliveredInTimedPieces() throws {
        let answer = try #require(try answer("GET", "/albums/1", variant: "slow").1)
        #expect(
            answer.delivery
                == .paced(
                    [
                        BodyPiece(Array("abc".utf8), pauseMs: 0), BodyPiece(Array("def".utf8), pauseMs: 40),
                        BodyPiece(Array("gh".utf8), pauseMs: 40),
                    ], chunked: true))
        #expect(answer.body == Array("abcdefgh".utf8), "the whole body stays beside its pieces")
    }

    @Test(arguments: [("drop", StubVariant.Fault.drop), ("cut", .truncate)])
    func aFault_isDeliveredAsTheFaultWithTheAnswerItBreaks(variant: String, fault: StubVariant.Fault) throws {
        let (decision, answer) = try answer("GET", "/albums/1", variant: variant)
        #expect(decision.status == nil, "a fault records no status")
        #expect(answer?.delivery == .fault(fault))
        #expect(answer?.headers["X-Stub-Variant"] == variant)
    }

    @Test func aMissingVariant_isA400NamingTheStubsVariants() throws {
        let answer = try #require(try answer("GET", "/albums/1", variant: "gone").1)
        #expect(answer.status == .badRequest)
        #expect(answer.headers["X-Stub-Name"] == "album")
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(body.contains(#"stub \"album\" has no variant \"gone\" (asked for by the X-Stub-Variant header)"#))
        #expect(body.contains("variants: good, bad, nil, cut, drop, slow"))
    }

    @Test func aPathWithoutTheMethod_isA405WithAllow() throws {
        let answer = try #require(try answer("GET", "/upload").1)
        #expect(answer.status == .methodNotAllowed)
        #expect(answer.headers["Allow"] == "POST")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("GET is not stubbed for /upload; allowed: POST"))
    }

    @Test func anUnmatchedRequest_isA404WithTheClosestStubsAsJSON() throws {
        let answer = try #require(try answer("GET", "/albumz/1?x=1").1)
        #expect(answer.status == .notFound)
        #expect(answer.headers["Content-Type"] == "application/json")
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(body.contains(#""error" : "no stub matches GET /albumz/1?x=1""#))
        #expect(body.contains(#""stub" : "album""#))
        #expect(body.contains(#""name" : "x""#))
    }

    @Test func aForwardedRequest_hasNoAnswerOfTheCore() throws {
        var state = StubState(catalog: try Self.catalog(), journal: RequestJournal(capacity: 10))
        let request = try Request(method: "GET", target: "/elsewhere")
        let decision = state.decide(request, forwarding: .unmatched)
        #expect(decision.answer(to: request, baseURL: "http://example.test") == nil)
        #expect(state.journal.entries(matching: JournalQuery()).isEmpty, "the transport journals what it forwards")
        let matched = state.decide(try Request(method: "GET", target: "/albums/1"), forwarding: .unmatched)
        #expect(matched.variantName == "good")
        let all = state.decide(try Request(method: "GET", target: "/albums/1"), forwarding: .all)
        #expect(all.answer(to: request, baseURL: "") == nil)
    }
}
