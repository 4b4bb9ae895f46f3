// libFuzzer target for the OpenAPI reader, importer and schema validator (Sources/Stubs/StubContracts). Compiled by
// Fuzz/run.sh with Sources/Stubs/StubContracts (StubCore, YAMLParsing, JSONModel, HTTPMessages and Locking as
// libraries). Properties, not only survival:
// - a document that cannot be used is refused with a ContractError whose message is not empty;
// - an import writes distinct file names, `stubs.json` last, and its `stubs.json` is JSON whose stubs have
//   distinct names and paths that start with `/`;
// - every example made from a response schema is checked against that schema in bounded time (the validator's
//   own step bound), and a check of the same value twice gives the same problems.
//
// Seeds: OpenAPI documents of our own (MockData/openapi.yaml and the tests' documents), in Fuzz/seeds/openapi.

import Foundation
import JSONModel
import StubCore
import YAMLParsing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? YAMLReader.value(bytes) else { return 0 }
    let document: OpenAPIDocument
    let operations: [OpenAPIOperation]
    do {
        document = try OpenAPIDocument(value)
        operations = try document.operations()
    } catch {
        precondition(!error.message.isEmpty)
        return 0
    }
    do {
        let (files, _) = try OpenAPIImporter.files(
            for: document, operations: operations, folderName: "api", specPath: "../openapi.yaml")
        precondition(Set(files.map(\.name)).count == files.count, "file names repeat")
        precondition(files.last?.name == "stubs.json")
        let stubs = try JSONDecoder().decode(JSONValue.self, from: Data(files.last!.bytes))
        guard case .object(let top) = stubs, case .array(let list)? = top["stubs"] else {
            preconditionFailure("stubs.json is not {\"stubs\": [...]}")
        }
        var names: Set<String> = []
        for case .object(let stub) in list {
            guard case .string(let name)? = stub["name"], case .object(let request)? = stub["request"],
                case .string(let path)? = request["path"]
            else { preconditionFailure("a stub without name or path") }
            precondition(names.insert(name).inserted, "stub name \(name) repeats")
            precondition(path.hasPrefix("/"), "path \(path)")
        }
    } catch let error as ContractError {
        precondition(!error.message.isEmpty)
    } catch {
        preconditionFailure("stubs.json is not JSON: \(error)")
    }
    var validator = SchemaValidator(document: document)
    for operation in operations {
        for (_, response) in operation.responses {
            for (_, media) in response["content"]?.members ?? [] {
                guard let schema = media["schema"] else { continue }
                var generator = ExampleGenerator(document: document)
                let example = generator.value(for: schema)
                let first = validator.problems(of: example, against: schema)
                precondition(first == validator.problems(of: example, against: schema), "checks differ")
            }
        }
    }
    return 0
}
