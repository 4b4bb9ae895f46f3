/// A change to every element at one path of an XML answer (`/feed/entry/title:removed`): the XML side of
/// `ValueChange`.
enum ElementChange: String, CaseIterable, Sendable, Equatable {
    case removed
    case emptied = "text-empty"
    case duplicated
    case huge = "text-huge"

    /// What the mutant does to the elements at `path`, for its one-line description.
    func describe(_ path: String) -> String {
        switch self {
        case .removed: "every \(path) element removed"
        case .emptied: "every \(path) element's text emptied"
        case .duplicated: "every \(path) element twice"
        case .huge: "every \(path) element's text 100,000 characters long"
        }
    }

    /// The changes for the elements at one path (never the root's): removed and twice for any; the text ones for
    /// elements that hold text and no element, when one of them holds some.
    static func changes(for elements: [XMLOutline.Element]) -> [ElementChange] {
        let text =
            elements.allSatisfy { $0.isLeaf && !$0.isEmptyTag } && elements.contains { $0.contentEnd > $0.contentStart }
        return text ? allCases : [.removed, .duplicated]
    }

    /// `bytes` with each of `elements` (in document order) changed, written once from start to end. Elements of one
    /// path never nest, so no change overlaps another.
    func apply(to bytes: [UInt8], _ elements: [XMLOutline.Element]) -> [UInt8] {
        let huge = self == .huge ? [UInt8](repeating: UInt8(ascii: "x"), count: 100_000) : []
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + elements.count * (self == .huge ? huge.count : 0))
        var cursor = 0
        for element in elements {
            switch self {
            case .removed:
                result += bytes[cursor..<element.start]
                cursor = element.end
            case .duplicated:
                result += bytes[cursor..<element.end]
                result += bytes[element.start..<element.end]
                cursor = element.end
            case .emptied:
                result += bytes[cursor..<element.contentStart]
                cursor = element.contentEnd
            case .huge:
                result += bytes[cursor..<element.contentStart]
                result += huge
                cursor = element.contentEnd
            }
        }
        result += bytes[cursor...]
        return result
    }
}

extension XMLOutline {
    /// The elements grouped by path, paths in the order they first appear; the root's left out.
    var shapes: [(path: String, elements: [Element])] {
        var order: [String] = []
        var groups: [String: [Element]] = [:]
        for element in elements.dropFirst() {
            if groups[element.path] == nil { order.append(element.path) }
            groups[element.path, default: []].append(element)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }
}
