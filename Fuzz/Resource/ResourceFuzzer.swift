// libFuzzer target for resource stubs' requests: the input is one or more requests separated by a 0xFF byte (which no
// UTF-8 text holds); in each, the first byte picks a method and a target (the collection, a key there is, one there
// is not, a key spelled another way: `01`, `1.0`, `-0`, or no finite number: `1e400`, `nan`), the rest is the body.
// They are handled in turn by one seeded `ResourceCollection`. Compiled by Fuzz/run.sh against
// Sources/Stubs/StubCore (HTTPMessages, JSONModel, Locking and StubMutations as libraries).
// Properties, not only survival:
// - every answer is one of the statuses the resource documents, with a JSON body (none for 204);
// - a refusal changes nothing; a created or replaced item is what a GET of its key answers next;
// - keys stay unique;
// - whatever the collection holds after the requests, read as the admin API reads it, is JSON that a replacement
//   (`setItems`, the admin API's `PUT`) accepts back unchanged.
//
// Seeds: objects, patches and refusals, in Fuzz/seeds/resource.

import Foundation
import JSONModel

@testable import StubCore

let resource = StubResource(
    seed: [.object(["id": .number(1), "name": .string("a")]), .object(["id": .string("b"), "tags": .array([])])],
    wrap: "results", countField: "count", filters: ["name"],
    paging: StubResource.Paging(limit: "limit", offset: "offset"))
let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
let targets: [StubResource.Target] = [
    .collection, .item("1"), .item("b"), .item("zz"), .item("01"), .item("1.0"), .item("-0"), .item("1e400"),
    .item("nan"), .item("2"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResource(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var collection = ResourceCollection(resource, name: "fuzz")
    for request in input.split(separator: 0xFF, omittingEmptySubsequences: true) {
        handle(Array(request), in: &collection)
    }
    let held = JSONValue.array(collection.items).jsonText
    precondition(JSONSyntax.isValid(Array(held.utf8)), "what the collection holds is JSON")
    guard case .array(let items)? = try? JSONDecoder().decode(JSONValue.self, from: Data(held.utf8)) else {
        preconditionFailure("what the collection holds reads back as an array")
    }
    var copy = ResourceCollection(resource, name: "copy")
    do {
        try copy.replaceAll(with: items)
    } catch {
        preconditionFailure("a replacement refuses what the collection held: \(error)")
    }
    precondition(JSONValue.array(copy.items).jsonText == held, "a replacement keeps what it was given")
    return 0
}

/// One request: its first byte picks the method and target, the rest is the body.
func handle(_ request: [UInt8], in collection: inout ResourceCollection) {
    let choice = Int(request[0])
    let method = methods[choice % methods.count]
    let target = targets[(choice / methods.count) % targets.count]
    let body = Array(request.dropFirst())
    let before = collection.items
    let query = [(name: "limit", value: String(decoding: body.prefix(3), as: UTF8.self)), (name: "offset", value: "1")]
    let outcome = collection.handle(method, target, query: query, body: body, base: "/fuzz")
    precondition([200, 201, 204, 400, 404, 405, 409, 422].contains(outcome.status), "status \(outcome.status)")
    precondition((outcome.body == nil) == (outcome.status == 204), "a body unless 204")
    if let body = outcome.body {
        precondition(JSONSyntax.isValid(Array(body.jsonText.utf8)), "the answer is JSON")
    }
    if outcome.touch.change == .refused || ["GET", "HEAD"].contains(method) {
        precondition(collection.items == before, "a refusal or a read changes nothing")
    }
    if [.created, .replaced, .patched].contains(outcome.touch.change), let key = outcome.touch.key {
        let read = collection.handle("GET", .item(key), query: [], body: [], base: "/fuzz")
        precondition(read.status == 200 && read.body == outcome.body, "what was written is read back")
    }
    var keys: Set<String> = []
    for item in collection.items {
        guard case .object(let fields) = item, let key = fields["id"] else { preconditionFailure("a keyless item") }
        precondition(keys.insert(key.jsonText.trimmingCharacters(in: ["\""])).inserted, "keys stay unique")
    }
}
