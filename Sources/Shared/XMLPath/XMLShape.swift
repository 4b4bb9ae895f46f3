public import Foundation

/// The shape of an XML document: every element path (`feed.entry.im:name`) and attribute path
/// (`feed.entry.link@href`) in it, read with the same strict reader as `XMLPathParser`, so that any bytes end in
/// a shape or an `XMLPathError`. The drift check compares fixtures with the real API by it.
public enum XMLShape {
    /// Every element and attribute path in `data`.
    /// - Throws: `XMLPathError` for malformed XML.
    public static func paths(in data: Data) throws(XMLPathError) -> Set<String> {
        let result: Result<Set<String>, XMLPathError> = data.withUnsafeBytes { raw in
            var scanner = XMLScanner(bytes: raw.bindMemory(to: UInt8.self), sink: PathCollector())
            do throws(XMLPathError) {
                try scanner.run()
                return .success(scanner.sink.paths)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Collects the path of every element and attribute.
    struct PathCollector: XMLScanSink {
        var paths: Set<String> = []
        private var stack: [String] = []

        var wantsText: Bool { false }

        func needsAttributes(of name: String) -> Bool { true }

        mutating func start(_ name: String, attributes: [String: String]) {
            let path = stack.last.map { "\($0).\(name)" } ?? name
            stack.append(path)
            paths.insert(path)
            for attribute in attributes.keys { paths.insert("\(path)@\(attribute)") }
        }

        mutating func end() {
            stack.removeLast()
        }

        mutating func characters(_ text: String) {}
    }
}
