import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension XMLPathParser {
    /// Keeps the element stack and turns `XMLParser` callbacks into `Event`s.
    final class Delegate: NSObject, XMLParserDelegate {
        let parser: XMLPathParser
        var handle: ((Event) -> Void)?
        /// The dotted path of every open element, innermost last.
        private var paths: [String] = []
        /// Per open element: its text buffer when something wants its text, and what wants it.
        private var frames: [Frame] = []
        var depth: Int { frames.count }
        /// Whether a root element was seen: an empty document is malformed, not a document without records.
        private(set) var sawRoot = false
        var errorLine: Int?
        var errorColumn: Int?
        var errorMessage: String?

        private struct Frame {
            var textKey: String?
            var selected: [(key: String, attributes: [String: String])] = []
            var isRecord = false
            var text = ""
            var wantsText: Bool { textKey != nil || !selected.isEmpty }
        }

        init(parser: XMLPathParser, handle: @escaping (Event) -> Void) {
            self.parser = parser
            self.handle = handle
        }

        func parser(
            _ xmlParser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let path = paths.last.map { $0 + "." + elementName } ?? elementName
            paths.append(path)
            sawRoot = true
            var frame = Frame(textKey: parser.textPaths[path])
            if let candidates = parser.selectors[path] {
                for candidate in candidates where candidate.required.allSatisfy({ attributes[$0] != nil }) {
                    frame.selected.append((candidate.key, attributes))
                }
            }
            if path == parser.recordPath {
                frame.isRecord = true
                handle?(.recordStart)
            }
            frames.append(frame)
        }

        func parser(_ xmlParser: XMLParser, foundCharacters string: String) {
            if frames.last?.wantsText == true { frames[frames.count - 1].text += string }
        }

        func parser(_ xmlParser: XMLParser, foundCDATA block: Data) {
            if frames.last?.wantsText == true {
                frames[frames.count - 1].text += String(decoding: block, as: UTF8.self)
            }
        }

        func parser(
            _ xmlParser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let frame = frames.popLast() else { return }
            paths.removeLast()
            let text = frame.wantsText ? frame.text.trimmingCharacters(in: .whitespacesAndNewlines) : ""
            if let key = frame.textKey { handle?(.text(key: key, value: text)) }
            for match in frame.selected { handle?(.element(key: match.key, attributes: match.attributes, text: text)) }
            if frame.isRecord { handle?(.recordEnd) }
        }

        func parser(_ xmlParser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard errorMessage == nil else { return }
            errorLine = xmlParser.lineNumber
            errorColumn = xmlParser.columnNumber
            let code = (parseError as NSError).code
            let name = XMLParser.ErrorCode(rawValue: code).map { String(describing: $0) } ?? "error"
            errorMessage = "XMLParser error \(code) (\(name))"
        }
    }
}
