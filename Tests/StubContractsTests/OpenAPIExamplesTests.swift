import Foundation
import HTTPMessages
import JSONModel
import StubTestSupport
import TestTurns
import Testing

@testable import StubContracts
@testable import StubCore

/// The OpenAPI Initiative's example documents and a real API's (`../shared/openapi-examples/`, where it exists, as
/// in `.ci/run`): each imports, its fixtures validate against it, and each stub answers `good` at its path.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OpenAPIExamplesTests {
    /// The shared test data: `$CATALOGKIT_SHARED/openapi-examples`, else `shared/` beside the package (`../shared`), else
    /// `/work/shared` (where this project's machines keep it, for a clone made elsewhere, as CI makes one).
    static let folder: URL = {
        let candidates = [
            ProcessInfo.processInfo.environment["CATALOGKIT_SHARED"].map { URL(fileURLWithPath: $0) },
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared"),
            URL(fileURLWithPath: "/work/shared"),
        ].compactMap { $0 }.map { $0.appendingPathComponent("openapi-examples") }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[candidates.count - 1]
    }()
    static let present = FileManager.default.fileExists(atPath: folder.path)

    static let documents = [
        "oai/v3.0/petstore.yaml", "oai/v3.0/petstore.json", "oai/v3.0/petstore-expanded.yaml",
        "oai/v3.0/petstore-expanded.json", "oai/v3.0/api-with-examples.yaml", "oai/v3.0/api-with-examples.json",
        "oai/v3.0/callback-example.yaml", "oai/v3.0/callback-example.json", "oai/v3.0/link-example.yaml",
        "oai/v3.0/link-example.json", "oai/v3.0/uspto.yaml", "oai/v3.0/uspto.json", "oai/v3.1/non-oauth-scopes.json",
        "oai/v3.1/non-oauth-scopes.yaml", "1password-connect/spec.yaml",
    ]

    /// A request a stub's matchers accept: `1` for each `{param}`, `x` for each required query parameter.
    static func request(for stub: Stub) throws -> Request {
        let path = stub.request.path.segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter: "1"
            }
        }
        let query = stub.request.query.map { "\($0.name)=x" }.joined(separator: "&")
        let target = "/" + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query)
        return try Request(method: stub.request.method, target: target)
    }

    @Test(.enabled(if: present), arguments: documents)
    func importsValidatesAndAnswersGood(_ document: String) throws {
        let temporary = try TemporaryFixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        let lines = try OpenAPIImporter(
            spec: Self.folder.appendingPathComponent(document), fixtures: fixtures, api: "api"
        )
        .run()
        let catalog = try StubCatalog.load(from: fixtures)
        #expect(lines.count == catalog.stubs.count)
        var validator = FixtureValidator(root: fixtures)
        let report = validator.validate(catalog)
        #expect(report.problems == [])
        #expect(report.operations == catalog.stubs.count)
        print("\(document): \(catalog.stubs.count) stubs; \(report.summary)")
        var state = StubState(catalog: catalog, journal: RequestJournal(capacity: 8))
        for stub in catalog.stubs {
            #expect(stub.contract != nil)
            #expect(stub.variants["bad"]?.generated == true && stub.variants["nil"]?.generated == true)
            let decision = state.decide(try Self.request(for: stub))
            #expect(decision.stubName == stub.name, "\(stub.name)")
            #expect(decision.variantName == "good", "\(stub.name)")
        }
    }

    @Test(
        .enabled(if: present),
        arguments: ["petstore", "petstore-expanded", "api-with-examples", "uspto", "link-example"])
    func theYAMLDocumentAndItsJSONTwin_importAlike(_ name: String) throws {
        let base = Self.folder.appendingPathComponent("oai/v3.0")
        let temporary = try TemporaryFixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        let yaml = try OpenAPIImporter(spec: base.appendingPathComponent("\(name).yaml"), fixtures: fixtures).make()
        let json = try OpenAPIImporter(spec: base.appendingPathComponent("\(name).json"), fixtures: fixtures).make()
        let strip = { (result: OpenAPIImporter.Result) in
            result.files.map { "\($0.name): " + String(decoding: $0.bytes, as: UTF8.self) }
                .map { $0.replacing("\(name).json", with: "\(name).yaml") }
        }
        #expect(strip(yaml) == strip(json))
    }

    @Test(.enabled(if: present))
    func examples_becomeGoodAndNamedVariants() throws {
        let temporary = try TemporaryFixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        _ = try OpenAPIImporter(
            spec: Self.folder.appendingPathComponent("oai/v3.0/api-with-examples.yaml"), fixtures: fixtures, api: "api"
        )
        .run()
        let catalog = try StubCatalog.load(from: fixtures)
        let versions = try #require(catalog.stub(named: "listVersionsv2"))
        #expect(versions.request.path.description == "/")
        #expect(versions.variantNames == ["good", "bad", "nil", "foo"])
        #expect(versions.variants["foo"]?.status == 300)
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(versions.variants["good"]).body))
        guard case .object(let fields) = body, case .array(let list)? = fields["versions"] else {
            Issue.record("the good body is not the example: \(body)")
            return
        }
        #expect(list.count == 2)
    }

    @Test(.enabled(if: present))
    func aWebhooksOnlyDocument_importsNothing_andSaysWhy() throws {
        let temporary = try TemporaryFixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        let importer = OpenAPIImporter(
            spec: Self.folder.appendingPathComponent("oai/v3.1/webhook-example.yaml"), fixtures: fixtures)
        #expect(
            throws: ContractError(
                "", "paths",
                "no operations to import (1 webhooks: requests the API sends, which a stub does not answer)")
        ) {
            try importer.run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.path) == [])
    }

    /// A body with a required key removed, or a value of the wrong type, fails validation naming the key path.
    @Test(
        .enabled(if: present),
        arguments: [
            (#"[{"id": 1}]"#, ["[0].name: missing (required)"]),
            (#"[{"id": "1", "name": "Rex"}]"#, ["[0].id: expected integer, got string"]),
            (#"{"id": 1, "name": "Rex"}"#, ["(the body): expected array, got object"]),
        ])
    func aCorruptedBody_failsValidation_namingTheKeyPath(_ body: String, _ expected: [String]) throws {
        let temporary = try TemporaryFixtures()
        defer { temporary.remove() }
        let fixtures = temporary.root
        _ = try OpenAPIImporter(
            spec: Self.folder.appendingPathComponent("oai/v3.0/petstore.yaml"), fixtures: fixtures, api: "pets"
        )
        .run()
        try temporary.write("pets/listPets.good.json", body)
        var validator = FixtureValidator(root: fixtures)
        let report = validator.validate(try StubCatalog.load(from: fixtures))
        #expect(report.problems == expected.map { "pets/stubs.json: listPets good (200 application/json): \($0)" })
    }
}
