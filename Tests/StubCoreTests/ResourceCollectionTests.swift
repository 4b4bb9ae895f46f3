import Foundation
import JSONModel
import TestTurns
import Testing

@testable import StubCore

/// A resource's collection on its own: what each method does to the items, and the readable refusals.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct ResourceCollectionTests {
    static func json(_ text: String) -> JSONValue {
        try! JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    static func collection(_ seed: String = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b", "tag": "x"}]"#)
        -> ResourceCollection
    {
        guard case .array(let items) = json(seed) else { fatalError("the seed must be an array") }
        return ResourceCollection(StubResource(seed: items), name: "favorites")
    }

    func run(
        _ collection: inout ResourceCollection, _ method: String, _ target: StubResource.Target, _ body: String = "",
        query: [(name: String, value: String)] = []
    ) -> (status: Int, body: String, location: String?, touch: JournalEntry.ResourceTouch) {
        let outcome = collection.handle(method, target, query: query, body: Array(body.utf8), base: "/api/favorites")
        return (outcome.status, outcome.body?.jsonText ?? "", outcome.location, outcome.touch)
    }

    @Test func post_thenGet_listsTheNewItem_withTheNextKeyAndItsLocation() {
        var items = Self.collection()
        let created = run(&items, "POST", .collection, #"{"name": "c"}"#)
        #expect(created.status == 201)
        #expect(created.body == #"{"id":3,"name":"c"}"#)
        #expect(created.location == "/api/favorites/3")
        #expect(created.touch == .init(key: "3", change: .created))
        #expect(
            run(&items, "GET", .collection).body
                == #"[{"id":1,"name":"a"},{"id":2,"name":"b","tag":"x"},{"id":3,"name":"c"}]"#)
        #expect(run(&items, "GET", .item("3")).body == #"{"id":3,"name":"c"}"#)
    }

    @Test func patch_merges_put_replaces_delete_removes() {
        var items = Self.collection()
        let patched = run(&items, "PATCH", .item("2"), #"{"name": "B", "tag": null, "more": {"a": 1}}"#)
        #expect(patched.status == 200)
        #expect(patched.body == #"{"id":2,"more":{"a":1},"name":"B"}"#)
        #expect(patched.touch.change == .patched)
        let replaced = run(&items, "PUT", .item("1"), #"{"name": "only"}"#)
        #expect(replaced.status == 200)
        #expect(replaced.body == #"{"id":1,"name":"only"}"#, "the key kept")
        let putNew = run(&items, "PUT", .item("9"), #"{"name": "nine"}"#)
        #expect(putNew.status == 201)
        #expect(putNew.body == #"{"id":9,"name":"nine"}"#, "a numeric key where the keys are numbers")
        let deleted = run(&items, "DELETE", .item("1"))
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let gone = run(&items, "GET", .item("1"))
        #expect(gone.status == 404)
        #expect(gone.body == #"{"error":"no item with id \"1\" in favorites"}"#)
        #expect(gone.touch == .init(key: "1", change: .refused))
    }

    @Test(arguments: [
        ("POST", StubResource.Target.collection, #"{"id": 2}"#, 409, #"an item with id \"2\" is already there"#),
        ("POST", .collection, "[1, 2]", 422, "the body must be a JSON object, not an array"),
        ("POST", .collection, #"{"id": true}"#, 422, "id: must be a string or a number, not a boolean"),
        ("POST", .collection, "{nope", 400, "the body is not JSON: "),
        ("PUT", .item("1"), #"{"id": 7}"#, 422, #"id: 7 differs from the path's \"1\""#),
        ("PATCH", .item("1"), #"{"id": 5}"#, 422, "id: a patch cannot change an item's key"),
        ("PATCH", .item("8"), "{}", 404, #"no item with id \"8\" in favorites"#),
        ("DELETE", .item("8"), "", 404, #"no item with id \"8\" in favorites"#),
        ("DELETE", .collection, "", 405, "DELETE is not answered here"),
    ])
    func refusals_sayWhy_andChangeNothing(
        _ method: String, _ target: StubResource.Target, _ body: String, _ status: Int, _ message: String
    ) {
        var items = Self.collection()
        let before = items.items
        let refused = run(&items, method, target, body)
        #expect(refused.status == status)
        #expect(refused.body.hasPrefix(#"{"error":""# + message), "\(refused.body)")
        #expect(items.items == before)
        #expect(refused.touch.change == .refused)
    }

    @Test func aList_isFilteredPagedAndWrapped_asTheFixtureSays() {
        var resource = StubResource(
            seed: (1...5).map { .object(["id": .number(Double($0)), "even": .bool($0.isMultiple(of: 2))]) },
            wrap: "results", countField: "count", filters: ["even"],
            paging: StubResource.Paging(limit: "limit", offset: "offset"))
        var items = ResourceCollection(resource, name: "numbers")
        let page = run(&items, "GET", .collection, query: [("even", "false"), ("offset", "1"), ("limit", "1")])
        #expect(page.body == #"{"count":3,"results":[{"even":false,"id":3}]}"#)
        let refused = run(&items, "GET", .collection, query: [("limit", "ten")])
        #expect(refused.status == 400)
        #expect(refused.body == #"{"error":"query.limit: must be a whole number from 0, not \"ten\""}"#)
        resource.wrap = nil
        items = ResourceCollection(resource, name: "numbers")
        #expect(
            run(&items, "GET", .collection, query: [("limit", "2")]).body
                == #"[{"even":false,"id":1},{"even":true,"id":2}]"#)
    }

    @Test func stringKeys_stayStrings_andAnEmptyCollectionStartsAtOne() {
        var albums = Self.collection(#"[{"id": "1440857781", "title": "x"}]"#)
        #expect(run(&albums, "POST", .collection, #"{"title": "y"}"#).body == #"{"id":"1440857782","title":"y"}"#)
        var empty = Self.collection("[]")
        #expect(run(&empty, "POST", .collection, "{}").body == #"{"id":1}"#)
        var fresh = Self.collection("[]")
        #expect(run(&fresh, "PUT", .item("a b"), "{}").location == "/api/favorites/a%20b")
        #expect(run(&fresh, "GET", .item("a b")).body == #"{"id":"a b"}"#)
    }

    /// A path's key is read as the collection's keys are typed, so each item has one key however it is spelled.
    @Test(arguments: [
        ("01", 200, #"{"id":1,"name":"x"}"#),
        ("1.0", 200, #"{"id":1,"name":"x"}"#),
        ("+1", 200, #"{"id":1,"name":"x"}"#),
        ("1e0", 200, #"{"id":1,"name":"x"}"#),
        ("-0", 201, #"{"id":0,"name":"x"}"#),
        ("2.5", 201, #"{"id":2.5,"name":"x"}"#),
        ("1e400", 422, #"{"error":"id: \"1e400\" is not a finite number, and the keys of favorites are numbers"}"#),
        ("nan", 422, #"{"error":"id: \"nan\" is not a finite number, and the keys of favorites are numbers"}"#),
        ("inf", 422, #"{"error":"id: \"inf\" is not a finite number, and the keys of favorites are numbers"}"#),
        ("0x1", 422, #"{"error":"id: \"0x1\" is not a finite number, and the keys of favorites are numbers"}"#),
        ("a", 422, #"{"error":"id: \"a\" is not a finite number, and the keys of favorites are numbers"}"#),
    ])
    func aNumberKeySpelledAnotherWay_namesOneItem(_ spelled: String, status: Int, body: String) throws {
        var items = Self.collection()
        let put = run(&items, "PUT", .item(spelled), #"{"name": "x"}"#)
        #expect(put.status == status)
        #expect(put.body == body)
        let keys = items.items.map { item -> JSONValue? in
            guard case .object(let fields) = item else { return nil }
            return fields["id"]
        }
        #expect(Set(keys.map { $0?.jsonText ?? "" }).count == keys.count, "one item per key: \(keys)")
        #expect(items.items.count == (status == 201 ? 3 : 2))
        if status == 200 {
            #expect(run(&items, "GET", .item(spelled)).body == body)
            #expect(run(&items, "DELETE", .item(spelled)).status == 204)
            #expect(run(&items, "GET", .item("1")).status == 404)
        } else if status == 422 {
            #expect(run(&items, "GET", .item(spelled)).status == 404)
            #expect(run(&items, "PATCH", .item(spelled), "{}").status == 404)
        }
        // What the collection holds is JSON that a replacement accepts back unchanged.
        let text = JSONValue.array(items.items).jsonText
        guard case .array(let reread) = Self.json(text) else {
            Issue.record("not an array: \(text)")
            return
        }
        var copy = Self.collection()
        try copy.replaceAll(with: reread)
        #expect(JSONValue.array(copy.items).jsonText == text)
    }

    @Test(arguments: ["1", "1.0", "-0", "1e2"])
    func anEmptyCollection_takesANumberSpelledKeyAsANumber(_ spelled: String) {
        var empty = Self.collection("[]")
        let put = run(&empty, "PUT", .item(spelled), "{}")
        #expect(put.status == 201)
        guard case .object(let fields) = empty.items.first, case .number? = fields["id"] else {
            Issue.record("not a number key: \(empty.items)")
            return
        }
        #expect(run(&empty, "POST", .collection, "{}").status == 201, "the next key follows it")
    }

    /// RFC 7396, Appendix A: every example of the standard.
    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, "{}"),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, "null", "null"),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"a":1,"e":null}"#),
        ("[1,2]", #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        ("{}", #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ])
    func mergePatch_followsRFC7396(_ target: String, _ patch: String, _ result: String) {
        #expect(ResourceCollection.mergePatch(Self.json(target), with: Self.json(patch)).jsonText == result)
    }

    @Test func replacingAll_checksEachItem() throws {
        var items = Self.collection()
        #expect(throws: ResourceError("[1].id: \"1\" is there twice")) {
            try items.replaceAll(with: [Self.json(#"{"id": 1}"#), Self.json(#"{"id": "1"}"#)])
        }
        #expect(throws: ResourceError("[1].id: \"0\" is there twice")) {
            try items.replaceAll(with: [Self.json(#"{"id": 0}"#), Self.json(#"{"id": -0.0}"#)])
        }
        #expect(throws: ResourceError("[0]: an item must be a JSON object, not a number")) {
            try items.replaceAll(with: [.number(1)])
        }
        #expect(throws: ResourceError("[0].id: must be a string or a finite number")) {
            try items.replaceAll(with: [Self.json(#"{"name": "keyless"}"#)])
        }
        try items.replaceAll(with: [Self.json(#"{"id": "z"}"#)])
        #expect(items.items == [Self.json(#"{"id": "z"}"#)])
    }
}
