#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension StubCatalog {
    /// Loads every `*/stubs.json` under `root` with its body files, and validates them.
    /// - Throws: `CatalogError` listing every problem, each with its file and key path.
    public static func load(from root: URL) throws(CatalogError) -> StubCatalog {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        guard FileManager.default.isFolder(atPath: root.path) else {
            throw CatalogError(
                root: root,
                problems: [
                    FixtureProblem(file: root.path, keyPath: "", message: "no such fixtures folder")
                ])
        }
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
        var stubs: [Stub] = []
        var problems: [FixtureProblem] = []
        var found = false
        for folder in folders where !folder.hasPrefix(".") {
            let file = root.appendingPathComponent(folder).appendingPathComponent("stubs.json")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            found = true
            var reader = StubFileReader(root: root, api: folder)
            stubs += reader.read()
            problems += reader.problems
        }
        if !found {
            problems.append(
                FixtureProblem(file: "", keyPath: "", message: "no API folder with a stubs.json in \(root.path)"))
        }
        // The files' readers reported missing variants, every stub's, at its own index.
        problems += Self.problems(in: stubs, checkingVariants: false).filter { problem in
            // A stub already reported by its file is not reported again here.
            !problems.contains { $0.file == problem.file && $0.keyPath == problem.keyPath }
        }
        guard problems.isEmpty else { throw CatalogError(root: root, problems: problems) }
        return try StubCatalog(stubs: stubs, root: root)
    }

    /// A catalog of one stub, `file`, that answers every GET with the file's bytes (`stub-server serve --file`).
    /// - Throws: `CatalogError` when the file cannot be read.
    package static func singleFile(_ url: URL) throws(CatalogError) -> StubCatalog {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CatalogError(
                root: nil, problems: [FixtureProblem(file: url.path, keyPath: "", message: "cannot read file")])
        }
        let type = [HeaderField(name: "Content-Type", value: MIMEType.forFile(url.lastPathComponent))]
        let variants = [
            "good": StubVariant(headers: type, body: [UInt8](data)),
            "bad": StubVariant(headers: type, body: Array([UInt8](data).prefix(data.count / 2))),
            "nil": StubVariant(headers: type),
        ]
        let stub = Stub(name: "file", request: RequestPattern(path: .everything), variants: variants)
        return try StubCatalog(stubs: [stub])
    }

    /// Problems that hold for stubs however they were made: names, required variants (unless `checkingVariants` is
    /// false), sequences.
    static func problems(in stubs: [Stub], checkingVariants: Bool = true) -> [FixtureProblem] {
        var problems: [FixtureProblem] = []
        var seen: [String: String] = [:]
        for (index, stub) in stubs.enumerated() {
            let path = "stubs[\(stubs[..<index].filter { $0.file == stub.file }.count)]"
            func report(_ key: String, _ message: String) {
                problems.append(
                    FixtureProblem(file: stub.file, keyPath: key.isEmpty ? path : "\(path).\(key)", message: message))
            }
            if !isValidName(stub.name) {
                report("name", "\(stub.name.debugDescription) must be letters, digits, '.', '_' or '-'")
            }
            if let other = seen[stub.name] {
                report("name", "duplicate stub name \(stub.name.debugDescription), also in \(other)")
            }
            seen[stub.name] = seen[stub.name] ?? (stub.file.isEmpty ? "this catalog" : stub.file)
            if checkingVariants, let problem = missingVariants(Set(stub.variants.keys)) { report("variants", problem) }
            for (position, name) in stub.sequence.enumerated() where stub.variants[name] == nil {
                report("sequence[\(position)]", "no variant named \(name.debugDescription)")
            }
        }
        return problems
    }

    /// What a stub with variants `names` lacks of `good`, `bad` and `nil`, as a problem's message; nil for nothing.
    static func missingVariants(_ names: Set<String>) -> String? {
        let missing = ["good", "bad", "nil"].filter { !names.contains($0) }
        guard !missing.isEmpty else { return nil }
        return "missing required variant\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}

extension StubCatalog {
    /// The nearest folder named `name` in the directory of `file` or any directory above it, such as the
    /// package's `MockData/` found from a test file's `#filePath`.
    /// - Returns: the folder, or nil when no directory above `file` has one.
    package static func findFolder(named name: String = "MockData", from file: String = #filePath) -> URL? {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isFolder(atPath: candidate.path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
