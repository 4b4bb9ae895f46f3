import Foundation
import StubServer
import StubTestSupport
import TestTurns
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bytes on the wire of a resource, as a property: random sequences of creates, replaces, patches, deletes,
/// lists and reads, with bodies from nothing to 2 MB (sizes around the body-file threshold and the engine's
/// buffers), each answer compared byte for byte with what a model of the collection says, over both transports.
/// Answers made per request must never carry an earlier answer's bytes.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(2)))
struct ResourceWireTests {
    static let host = URL(string: "https://api.example.com")!
    static let stubsJSON = #"""
        {
          "hosts": ["api.example.com"],
          "stubs": [
            {
              "name": "favs",
              "request": { "path": "/api/favs" },
              "resource": { "seed": "seed.json", "key": "id" },
              "variants": { "good": {}, "bad": { "body": "{" }, "nil": { "body": "" } }
            }
          ]
        }
        """#

    /// Blob sizes: empty, tiny, around the socket server's body files (16 KiB), the engine's 64 KiB buffers, near
    /// the 1 MiB request limit, and 2 MB, which the server refuses (`413`) and the model ignores. Lists of four
    /// items reach 4 MB.
    static let sizes = [
        0, 1, 16_300, 16_365, 16_366, 16_367, 16_384, 65_500, 65_536, 65_537, 131_072, 1_048_000, 2_000_000,
    ]
    static let requestLimit = 1_048_576

    /// The collection as a model: items in order, each a key and a blob; answers as the server must write them.
    struct Model {
        var items: [(id: Int, blob: String)] = []

        static func item(_ id: Int, _ blob: String) -> String { #"{"blob":"\#(blob)","id":\#(id)}"# }
        static func missing(_ id: Int) -> String { #"{"error":"no item with id \"\#(id)\" in favs"}"# }
        func index(_ id: Int) -> Int? { items.firstIndex { $0.id == id } }
        var list: String { "[" + items.map { Self.item($0.id, $0.blob) }.joined(separator: ",") + "]" }
    }

    enum Operation {
        case create(Int, String)
        case replace(Int, spelled: String, String)
        case patch(Int, spelled: String, String)
        case delete(Int, spelled: String)
        case read(Int, spelled: String)
        case list
    }

    /// A small seeded generator (SplitMix64), so a failing sequence can be replayed from its seed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// `count` operations on keys 1...4, each blob a run of one letter after a tag naming the operation, so an
    /// answer carrying another one's bytes differs from the model even at the same length.
    static func operations(seed: UInt64, count: Int) -> [Operation] {
        var random = Generator(state: seed)
        return (0..<count).map { step in
            let id = 1 + random.next(4)
            let spelled = ["\(id)", "0\(id)", "\(id).0"][random.next(3)]
            let size = sizes[random.next(sizes.count)]
            let letter = Character(UnicodeScalar(UInt8(ascii: "A") + UInt8(step % 26)))
            let tag = "\(step)-"
            let blob = size == 0 ? "" : String((tag + String(repeating: letter, count: size)).prefix(size))
            switch random.next(6) {
            case 0: return .create(id, blob)
            case 1: return .replace(id, spelled: spelled, blob)
            case 2: return .patch(id, spelled: spelled, blob)
            case 3: return .delete(id, spelled: spelled)
            case 4: return .read(id, spelled: spelled)
            default: return .list
            }
        }
    }

    /// The request and the model's expected status and body for `operation`, moving the model on. A request body
    /// over the server's limit is refused whatever it asks (`413`), and changes nothing.
    static func expected(_ operation: Operation, _ model: inout Model) -> (
        method: String, path: String, body: String?, status: Int, answer: String
    ) {
        let before = model
        let (method, path, body, status, answer) = expectedWithinLimit(operation, &model)
        guard let body, body.utf8.count > requestLimit else { return (method, path, body, status, answer) }
        model = before
        return (
            method, path, body, 413,
            "request body of \(body.utf8.count) bytes exceeds the limit of \(requestLimit) bytes"
        )
    }

    private static func expectedWithinLimit(_ operation: Operation, _ model: inout Model) -> (
        method: String, path: String, body: String?, status: Int, answer: String
    ) {
        switch operation {
        case .create(let id, let blob):
            let body = Model.item(id, blob)
            if model.index(id) != nil {
                return ("POST", "/api/favs", body, 409, #"{"error":"an item with id \"\#(id)\" is already there"}"#)
            }
            model.items.append((id, blob))
            return ("POST", "/api/favs", body, 201, body)
        case .replace(let id, let spelled, let blob):
            let body = #"{"blob":"\#(blob)"}"#
            if let index = model.index(id) {
                model.items[index].blob = blob
                return ("PUT", "/api/favs/\(spelled)", body, 200, Model.item(id, blob))
            }
            model.items.append((id, blob))
            return ("PUT", "/api/favs/\(spelled)", body, 201, Model.item(id, blob))
        case .patch(let id, let spelled, let blob):
            let body = #"{"blob":"\#(blob)"}"#
            guard let index = model.index(id) else {
                return ("PATCH", "/api/favs/\(spelled)", body, 404, Model.missing(id))
            }
            model.items[index].blob = blob
            return ("PATCH", "/api/favs/\(spelled)", body, 200, Model.item(id, blob))
        case .delete(let id, let spelled):
            guard let index = model.index(id) else {
                return ("DELETE", "/api/favs/\(spelled)", nil, 404, Model.missing(id))
            }
            model.items.remove(at: index)
            return ("DELETE", "/api/favs/\(spelled)", nil, 204, "")
        case .read(let id, let spelled):
            guard let index = model.index(id) else {
                return ("GET", "/api/favs/\(spelled)", nil, 404, Model.missing(id))
            }
            return ("GET", "/api/favs/\(spelled)", nil, 200, Model.item(id, model.items[index].blob))
        case .list:
            return ("GET", "/api/favs", nil, 200, model.list)
        }
    }

    @Test(arguments: Transport.allCases, [1, 2, 3] as [UInt64])
    func everyAnswer_carriesItsOwnBytes(_ transport: Transport, seed: UInt64) async throws {
        let fixtures = try TemporaryFixtures(["api/stubs.json": Self.stubsJSON, "api/seed.json": "[]"])
        defer { fixtures.remove() }
        try await Stubs.with(transport, fixtures: fixtures.root, realHost: Self.host) { stubs in
            let session = URLSession(configuration: stubs.configuration)
            defer { session.finishTasksAndInvalidate() }
            var model = Model()
            for (step, operation) in Self.operations(seed: seed, count: 40).enumerated() {
                let expected = Self.expected(operation, &model)
                // A minute only ends a hang: an answer that promises more bytes than it sends.
                var request = URLRequest(
                    url: URL(string: stubs.baseURL.absoluteString + expected.path)!, timeoutInterval: 60)
                request.httpMethod = expected.method
                request.httpBody = expected.body.map { Data($0.utf8) }
                let (data, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode
                let what = "seed \(seed), step \(step): \(expected.method) \(expected.path)"
                #expect(status == expected.status, "\(what)")
                if expected.status == 413 {
                    #expect(String(decoding: data, as: UTF8.self).contains(expected.answer), "\(what)")
                } else if data != Data(expected.answer.utf8) {
                    let got = String(decoding: data.prefix(80), as: UTF8.self)
                    Issue.record(
                        "\(what): \(data.count) bytes starting \(got.debugDescription), expected \(expected.answer.utf8.count) starting \(String(expected.answer.prefix(80)).debugDescription)"
                    )
                    return
                }
            }
            // What the admin side reads is the model's list, and it is accepted back unchanged.
            let items = try await stubs.server.items(ofResource: "favs")
            #expect(items == Data(model.list.utf8))
            try await stubs.server.setItems(items, ofResource: "favs")
            #expect(try await stubs.server.items(ofResource: "favs") == items)
        }
    }
}
