// libFuzzer target for resource stubs' request bodies: the first byte picks a method and a target (the collection,
// a key there is, one there is not), the rest is the body, handled by a seeded `ResourceCollection`. Compiled by
// Fuzz/run.sh against Sources/Stubs/StubCore (HTTPMessages, JSONModel, Locking and StubMutations as libraries).
// Properties, not only survival:
// - every answer is one of the statuses the resource documents, with a JSON body (none for 204);
// - a refusal changes nothing; a created or replaced item is what a GET of its key answers next;
// - keys stay unique.
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
let targets: [StubResource.Target] = [.collection, .item("1"), .item("b"), .item("zz")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResource(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let choice = Int(data[0])
    let method = methods[choice % methods.count]
    let target = targets[(choice / methods.count) % targets.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var collection = ResourceCollection(resource, name: "fuzz")
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
    return 0
}
