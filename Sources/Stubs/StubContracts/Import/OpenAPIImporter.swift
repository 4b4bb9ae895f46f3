import JSONModel
import StubCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Writes an OpenAPI document's operations into a fixtures folder: one stub per operation (named by `operationId`,
/// else by method and path) with `{param}` path segments, required query parameters as `{"present": true}`, the
/// servers' hosts as the folder's `hosts`; `good` from the 2xx answer's example (else one made from its schema), a
/// variant per other documented example, and generated `bad` and `nil`. Each stub remembers its operation.
package struct OpenAPIImporter {
    package var spec: URL
    package var fixtures: URL
    /// The API folder's name; by default the document's file name without its extension.
    package var api: String?

    package init(spec: URL, fixtures: URL, api: String? = nil) {
        self.spec = spec
        self.fixtures = fixtures
        self.api = api
    }

    /// What an import made: the folder's files by name, and a line per stub.
    package struct Result {
        package var folder: URL
        package var files: [(name: String, bytes: [UInt8])]
        package var lines: [String]
    }

    /// Imports the document: everything is made in memory first, so an error writes nothing.
    /// - Returns: a line per stub written.
    /// - Throws: `ContractError` naming the document's key path; an I/O error when a file cannot be written.
    package func run() throws -> [String] {
        let result = try make()
        try write(result)
        return result.lines
    }

    /// The files an import writes, without writing them.
    package func make() throws(ContractError) -> Result {
        let document = try OpenAPIDocument.load(spec)
        let operations = try document.operations()
        let folderName = api ?? Self.slug(spec.deletingPathExtension().lastPathComponent)
        guard !folderName.isEmpty, !folderName.contains("/"), !folderName.hasPrefix(".") else {
            throw ContractError("", "", "cannot name an API folder \(folderName.debugDescription); pass --api NAME")
        }
        let folder = fixtures.appendingPathComponent(folderName)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("stubs.json").path) {
            throw ContractError(
                "", "", "\(folder.path)/stubs.json exists; remove the folder to import again, or pass --api NAME")
        }
        guard !operations.isEmpty else {
            let webhooks = document.root["webhooks"]?.members.count ?? 0
            let note =
                webhooks > 0 ? " (\(webhooks) webhooks: requests the API sends, which a stub does not answer)" : ""
            throw ContractError("", "paths", "no operations to import\(note)")
        }
        let (files, lines) = try Self.files(
            for: document, operations: operations, folderName: folderName,
            specPath: Self.relativePath(from: folder, to: spec))
        return Result(folder: folder, files: files, lines: lines)
    }

    /// An API folder's files for `operations` of `document` (bodies, then `stubs.json`, whose stubs name the
    /// document `specPath`), and a line per stub.
    package static func files(
        for document: OpenAPIDocument, operations: [OpenAPIOperation], folderName: String, specPath: String
    ) throws(ContractError) -> (files: [(name: String, bytes: [UInt8])], lines: [String]) {
        var files: [(name: String, bytes: [UInt8])] = []
        var stubs: [JSONValue] = []
        var hosts: [String] = []
        var taken: Set<String> = []
        var lines: [String] = []
        for operation in operations {
            var stubName = operation.operationId.map(slug) ?? ""
            if stubName.isEmpty { stubName = Stub.suggestedName(method: operation.method, path: operation.path) }
            while taken.contains(stubName) { stubName += "-2" }
            taken.insert(stubName)
            var maker = StubMaker(document: document, operation: operation, name: stubName)
            let stub = try maker.stub(spec: specPath)
            stubs.append(stub)
            files += maker.files
            lines.append(
                "\(operation.route) -> \(folderName)/\(stubName): \(maker.variantNames.joined(separator: ", "))")
            for host in operation.hosts where !hosts.contains(host) { hosts.append(host) }
        }
        var top: [String: JSONValue] = ["stubs": .array(stubs)]
        if !hosts.isEmpty { top["hosts"] = .array(hosts.map(JSONValue.string)) }
        files.append(("stubs.json", Array((JSONValue.object(top).prettyText + "\n").utf8)))
        return (files, lines)
    }

    /// Writes into a folder made beside the destination, then moves it into place; an existing empty folder
    /// gets the files one by one, `stubs.json` last.
    private func write(_ result: Result) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: fixtures, withIntermediateDirectories: true)
        if manager.fileExists(atPath: result.folder.path) {
            for file in result.files.sorted(by: { $1.name == "stubs.json" && $0.name != "stubs.json" }) {
                try Data(file.bytes).write(to: result.folder.appendingPathComponent(file.name), options: .atomic)
            }
            return
        }
        let staging = fixtures.appendingPathComponent(
            ".\(result.folder.lastPathComponent).importing-\(ProcessInfo.processInfo.processIdentifier)")
        try? manager.removeItem(at: staging)
        try manager.createDirectory(at: staging, withIntermediateDirectories: false)
        do {
            for file in result.files {
                try Data(file.bytes).write(to: staging.appendingPathComponent(file.name))
            }
            try manager.moveItem(at: staging, to: result.folder)
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
    }

    /// `find pet by id` -> `find-pet-by-id`: letters, digits, `.`, `_` and `-` kept, any other run made one `-`.
    static func slug(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        while result.hasPrefix("-") || result.hasPrefix(".") { result.removeFirst() }
        return result
    }

    /// `file`'s path from `folder`, with `..` where they part.
    static func relativePath(from folder: URL, to file: URL) -> String {
        let from = folder.standardizedFileURL.pathComponents
        let to = file.standardizedFileURL.pathComponents
        var common = 0
        while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
    }
}
