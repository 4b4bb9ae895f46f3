import HTTPMessages
package import JSONModel
import StubCore
import YAMLParsing

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// An OpenAPI 3.0 or 3.1 document, YAML or JSON, with the files its `$ref`s name beside it: read once, then
/// walked by key path. `$ref`s never leave the document's folder.
package struct OpenAPIDocument: Sendable {
    /// The document's file.
    package let url: URL
    /// `3.0` or `3.1`, from the `openapi` key.
    package let version: Version
    /// Every file read, by its path relative to the document's folder; the document itself is `""`.
    let files: [String: JSONValue]

    package enum Version: Sendable, Equatable {
        case v30, v31
    }

    /// A value inside one of the files, with where it is: what `$ref`s resolve against and what messages name.
    package struct Node: Sendable {
        package var value: JSONValue
        /// The file it is in, relative to the document's folder; `""` for the document.
        package var file: String
        /// Its key path in that file, such as `paths./pets.get.responses.200`.
        package var keyPath: String

        /// The key path for messages: prefixed with the file's name when it is not the document.
        package var location: String { file.isEmpty ? keyPath : "\(file)#\(keyPath)" }

        /// The member `key` of an object (nil when absent or not an object).
        package subscript(key: String) -> Node? {
            guard case .object(let fields) = value, let member = fields[key] else { return nil }
            return Node(value: member, file: file, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
        }

        /// The items of an array (none when not an array).
        package var items: [Node] {
            guard case .array(let items) = value else { return [] }
            return items.enumerated().map { Node(value: $1, file: file, keyPath: "\(keyPath)[\($0)]") }
        }

        /// The members of an object, sorted by key (none when not an object).
        package var members: [(key: String, node: Node)] {
            guard case .object(let fields) = value else { return [] }
            return fields.keys.sorted().map { ($0, self[$0]!) }
        }

        /// In a `content` object: the entry for `mediaType` (lowercased, without parameters), exactly, else as
        /// `type/*`, else `*/*`.
        package func media(for mediaType: String) -> (key: String, node: Node)? {
            let entries = members.map { (bare: Self.bare($0.key), entry: $0) }
            let range = (mediaType.split(separator: "/").first ?? "") + "/*"
            return
                (entries.first { $0.bare == mediaType } ?? entries.first { $0.bare == range }
                ?? entries.first { $0.bare == "*/*" })?.entry
        }

        /// A media type without its parameters, lowercased: `application/json; charset=utf-8` -> `application/json`.
        package static func bare(_ mediaType: String) -> String {
            String(mediaType.prefix { $0 != ";" }).trimmingWhitespace().lowercased()
        }

        package var string: String? {
            if case .string(let text) = value { return text }
            return nil
        }
    }

    /// The document's root.
    package var root: Node { Node(value: files[""]!, file: "", keyPath: "") }

    /// Reads the document at `url` and every file its `$ref`s name.
    /// - Throws: `ContractError` naming the file, and the line and column or key path, of the first problem.
    package static func load(_ url: URL) throws(ContractError) -> OpenAPIDocument {
        let folder = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
        var files: [String: JSONValue] = [:]
        var pending: [(name: String, url: URL, from: String, keyPath: String)] = [("", url, "", "")]
        while let next = pending.popLast() {
            guard files[next.name] == nil else { continue }
            let value = try read(next.url, shownAs: next.name, namedIn: next.from, at: next.keyPath)
            files[next.name] = value
            for reference in externalReferences(in: value, at: "") {
                let file = String(reference.reference.prefix { $0 != "#" })
                let name = try fileName(
                    file, shownAs: reference.reference, from: next.name, folder: folder, at: reference.keyPath)
                if files[name] == nil {
                    pending.append((name, folder.appendingPathComponent(name), next.name, reference.keyPath))
                }
            }
        }
        return try OpenAPIDocument(url: url, files: files)
    }

    /// A document held in memory (its `$ref`s stay inside it), named `url` in messages.
    package init(_ root: JSONValue, url: URL = URL(fileURLWithPath: "/openapi.yaml")) throws(ContractError) {
        try self.init(url: url, files: ["": root])
    }

    private init(url: URL, files: [String: JSONValue]) throws(ContractError) {
        guard case .object(let top) = files[""]! else {
            throw ContractError("", "", "must be an object with an \"openapi\" key")
        }
        switch top["openapi"] {
        case .string(let text) where text.hasPrefix("3.0"): version = .v30
        case .string(let text) where text.hasPrefix("3.1"): version = .v31
        case .string(let text):
            throw ContractError("", "openapi", "version \(text) is not supported (3.0 and 3.1 are)")
        default:
            let swagger = top["swagger"] != nil ? " (a Swagger 2.0 document: convert it to OpenAPI 3 first)" : ""
            throw ContractError("", "openapi", "missing\(swagger)")
        }
        self.url = url
        self.files = files
    }

    /// One file as a value: YAML (which JSON also is) by the YAML reader. A file that cannot be read is reported
    /// where its `$ref` names it (`from`, `keyPath`).
    private static func read(_ url: URL, shownAs name: String, namedIn from: String, at keyPath: String)
        throws(ContractError) -> JSONValue
    {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if name.isEmpty { throw ContractError("", "", "cannot read \(url.path)") }
            throw ContractError(from, keyPath, "cannot read \(name) (\(url.path))")
        }
        do {
            return try YAMLReader.value([UInt8](data))
        } catch {
            throw ContractError(name, "", "\(error)")
        }
    }

    /// The `$ref`s of a value that name another file (`pet.yaml#/Pet`, `schemas/pet.json`), each with its key path.
    private static func externalReferences(in value: JSONValue, at path: String) -> [(
        reference: String, keyPath: String
    )] {
        switch value {
        case .object(let fields):
            var found: [(reference: String, keyPath: String)] = []
            for (key, member) in fields {
                // Values, not references: an example's data, enums, constants, defaults, extensions.
                if ["example", "value", "enum", "const", "default"].contains(key) || key.hasPrefix("x-") { continue }
                let memberPath = path.isEmpty ? key : "\(path).\(key)"
                if key == "$ref", case .string(let reference) = member, !reference.hasPrefix("#") {
                    found.append((reference, memberPath))
                } else {
                    found += externalReferences(in: member, at: memberPath)
                }
            }
            return found
        case .array(let items):
            return items.enumerated().flatMap { externalReferences(in: $1, at: "\(path)[\($0)]") }
        default:
            return []
        }
    }

    /// The path, relative to the document's folder, of `reference` written in the file `from`.
    /// - Throws: when it leaves the folder or is a URL.
    private static func fileName(
        _ reference: String, shownAs shown: String, from: String, folder: URL, at keyPath: String
    )
        throws(ContractError) -> String
    {
        if reference.contains("://") {
            throw ContractError(from, keyPath, "\(shown) is a URL; only files beside the document are read")
        }
        let base = from.isEmpty ? folder : folder.appendingPathComponent(from).deletingLastPathComponent()
        let target = base.appendingPathComponent(reference).standardizedFileURL.resolvingSymlinksInPath()
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        guard target.path.hasPrefix(prefix) else {
            throw ContractError(from, keyPath, "\(shown) is outside the document's folder; it is not read")
        }
        // resolvingSymlinksInPath stops after a bounded chain and returns what it has: a link left in the result
        // could still lead outside, so it is refused.
        var partial = folder
        for component in target.path.dropFirst(prefix.count).split(separator: "/") {
            partial = partial.appendingPathComponent(String(component))
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: partial.path)) != nil {
                throw ContractError(from, keyPath, "\(shown) goes through too many symbolic links; it is not read")
            }
        }
        return String(target.path.dropFirst(prefix.count))
    }

    /// `node` with its `$ref` followed (repeatedly) to the value it names; a node without one as it is.
    /// - Throws: for a reference to nothing, or a cycle of references.
    package func resolve(_ node: Node) throws(ContractError) -> Node {
        var current = node
        var seen: [String] = []
        while case .object(let fields) = current.value, case .string(let reference)? = fields["$ref"] {
            let here = "\(current.file)#\(reference)"
            if seen.contains(here) || seen.count > 64 {
                throw ContractError(
                    current.file, current.keyPath + ".$ref",
                    "\(reference) refers back to itself through \(seen.count) references")
            }
            seen.append(here)
            current = try target(of: reference, in: current)
        }
        return current
    }

    /// The value `reference` (`#/components/schemas/Pet`, `pet.yaml#/Pet`, `pet.yaml`) names, written in `node`'s
    /// file.
    package func target(of reference: String, in node: Node) throws(ContractError) -> Node {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var file = node.file
        if !parts[0].isEmpty {
            let folder = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath()
            file = try Self.fileName(
                String(parts[0]), shownAs: reference, from: node.file, folder: folder, at: node.keyPath + ".$ref")
        }
        guard let value = files[file] else {
            throw ContractError(node.file, node.keyPath + ".$ref", "\(reference): the file \(file) was not read")
        }
        var current = Node(value: value, file: file, keyPath: "")
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        guard pointer.isEmpty || pointer.hasPrefix("/") else {
            throw ContractError(node.file, node.keyPath + ".$ref", "\(reference) is not a JSON pointer (#/...)")
        }
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = Self.unescape(String(token))
            if case .array = current.value, let index = Int(key), current.items.indices.contains(index) {
                current = current.items[index]
            } else if let member = current[key] {
                current = member
            } else {
                throw ContractError(
                    node.file, node.keyPath + ".$ref",
                    "\(reference) names nothing: no \(key.debugDescription) in \(current.location.isEmpty ? "the document" : current.location)"
                )
            }
        }
        return current
    }

    /// A JSON pointer token: percent-decoded, then `~1` as `/` and `~0` as `~`.
    private static func unescape(_ token: String) -> String {
        (Request.percentDecoded(Substring(token)) ?? token).replacing("~1", with: "/").replacing("~0", with: "~")
    }
}
