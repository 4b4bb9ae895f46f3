import Foundation
import StubTestSupport
import TestTurns
import Testing

@testable import StubContracts
@testable import StubCore

/// Documents on disk: `$ref`s to files beside the document, and what never leaves its folder.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct OpenAPIDocumentTests {
    static let head = "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n"

    @Test func aReferenceBeside_isRead_fromItsOwnFile() throws {
        let folder = try TemporaryFixtures([
            "spec/api.yaml": Self.head + "          $ref: 'responses/ok.yaml'\n",
            "spec/responses/ok.yaml":
                "description: ok\ncontent: {application/json: {schema: {$ref: '../schemas.yaml#/Id'}}}\n",
            "spec/schemas.yaml": "Id: {type: integer}\n",
        ])
        defer { folder.remove() }
        let root = folder.root
        let document = try OpenAPIDocument.load(root.appendingPathComponent("spec/api.yaml"))
        let response = try #require(try document.operations().first?.responses.first?.node)
        let schema = try #require(response["content"]?["application/json"]?["schema"])
        var validator = SchemaValidator(document: document)
        #expect(
            validator.problems(of: .string("x"), against: schema).map(\.description) == [
                "(the body): expected integer, got string"
            ])
    }

    /// Found by review: a missing file is reported where its `$ref` names it.
    @Test func aMissingFile_isReportedWhereItIsNamed() throws {
        let folder = try TemporaryFixtures(["spec/api.yaml": Self.head + "          $ref: 'nowhere.yaml'\n"])
        defer { folder.remove() }
        let root = folder.root
        #expect {
            try OpenAPIDocument.load(root.appendingPathComponent("spec/api.yaml"))
        } throws: { error in
            guard let error = error as? ContractError else { return false }
            return error.file == "" && error.keyPath == "paths./a.get.responses.200.$ref"
                && error.message.hasPrefix("cannot read nowhere.yaml")
        }
    }

    /// Found by review: `$ref` inside an example is data, not a file to read.
    @Test func aRefInsideAnExample_isData() throws {
        let folder = try TemporaryFixtures([
            "spec/api.yaml": Self.head
                + "          description: ok\n          content: {application/json: {example: {$ref: 'https://x'}}}\n"
        ])
        defer { folder.remove() }
        let root = folder.root
        #expect(try OpenAPIDocument.load(root.appendingPathComponent("spec/api.yaml")).operations().count == 1)
    }

    /// A link out of the folder is refused; so is a chain of links longer than path resolution follows, which
    /// review found could lead outside.
    @Test(arguments: [1, 30])
    func symbolicLinksOutOfTheFolder_areRefused(_ chain: Int) throws {
        let folder = try TemporaryFixtures([
            "spec/api.yaml": Self.head + "          $ref: 'l1'\n", "outside.yaml": "description: secret\n",
        ])
        defer { folder.remove() }
        let root = folder.root
        let spec = root.appendingPathComponent("spec")
        try FileManager.default.createSymbolicLink(
            atPath: spec.appendingPathComponent("l\(chain)").path, withDestinationPath: "../outside.yaml")
        for link in stride(from: chain - 1, through: 1, by: -1) {
            try FileManager.default.createSymbolicLink(
                atPath: spec.appendingPathComponent("l\(link)").path, withDestinationPath: "l\(link + 1)")
        }
        #expect {
            try OpenAPIDocument.load(spec.appendingPathComponent("api.yaml"))
        } throws: { error in
            guard let error = error as? ContractError else { return false }
            return error.keyPath == "paths./a.get.responses.200.$ref"
                && (error.message.contains("outside the document's folder") || error.message.contains("symbolic links"))
        }
    }

    /// Found by review: an example named `bad` keeps its status beside it, and a content key with parameters
    /// matches its media type.
    @Test func anExampleNamedBad_andAContentKeyWithParameters() throws {
        let yaml = """
            openapi: 3.0.3
            paths:
              /a:
                get:
                  operationId: a
                  responses:
                    "200":
                      description: ok
                      content:
                        "application/json; charset=utf-8": {schema: {type: integer}, example: 7}
                    "400":
                      description: no
                      content:
                        application/json: {examples: {bad: {value: {error: x}}}}
            """
        let folder = try TemporaryFixtures(["spec/api.yaml": yaml])
        defer { folder.remove() }
        let root = folder.root
        let fixtures = root.appendingPathComponent("fixtures")
        _ = try OpenAPIImporter(spec: root.appendingPathComponent("spec/api.yaml"), fixtures: fixtures, api: "api")
            .run()
        let catalog = try StubCatalog.load(from: fixtures)
        let stub = try #require(catalog.stub(named: "a"))
        #expect(stub.variantNames == ["good", "bad", "nil", "bad-400"])
        #expect(stub.variants["bad-400"]?.status == 400 && stub.variants["bad"]?.generated == true)
        var validator = FixtureValidator(root: fixtures)
        let report = validator.validate(catalog)
        #expect(report.problems == [])
        #expect(report.checked == 2)
    }
}
