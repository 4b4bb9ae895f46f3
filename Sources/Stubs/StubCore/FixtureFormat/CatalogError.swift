#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Why a fixture catalog could not be loaded: every problem found, not just the first.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder that was loaded, if any.
    package var root: URL?
    public var problems: [FixtureProblem]

    package init(root: URL?, problems: [FixtureProblem]) {
        self.root = root
        self.problems = problems
    }

    public var description: String {
        let header = "\(problems.count) problem\(problems.count == 1 ? "" : "s") in fixtures"
        let location = root.map { " at \($0.path)" } ?? ""
        return ([header + location + ":"] + problems.map { "  " + $0.description }).joined(separator: "\n")
    }
}

/// One problem in a fixture file, located by file and key path.
public struct FixtureProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file, relative to the catalog's root, such as `albums/stubs.json`.
    public var file: String
    /// The key path inside the file, such as `stubs[2].variants.bad.bodyFile`; empty for the whole file.
    public var keyPath: String
    public var message: String

    package init(file: String, keyPath: String, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    /// Reads as `albums/stubs.json: stubs[2].variants.bad.bodyFile: no such file top.bad.json`.
    public var description: String {
        [file, keyPath, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
