/// A 64-bit fingerprint of what a mutant serves: equal answers have equal fingerprints, and two mutants with equal
/// fingerprints are compared in full before one is called the other's twin. Made by the standard library's hasher,
/// seeded per process: a fingerprint is compared within one listing, never stored.
struct Fingerprint {
    private var hasher = Hasher()

    init(tag: UInt8) {
        hasher.combine(tag)
    }

    mutating func add(_ bytes: [UInt8]) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Text, as the hasher takes a string (canonically equivalent strings alike: a full comparison tells them apart).
    mutating func add(_ text: String) {
        hasher.combine(text)
    }

    mutating func add(_ number: UInt64) {
        hasher.combine(number)
    }

    var value: UInt64 {
        UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The fingerprint of raw bytes (a body that is not JSON, an XML body, a stream's wire).
    static func bytes(_ bytes: [UInt8]) -> UInt64 {
        var print = Fingerprint(tag: 0xFF)
        print.add(bytes)
        return print.value
    }
}

/// A JSON document's fingerprints, node by node in its shape: a mutant's fingerprint is made from the parts it
/// changes and these for the parts it leaves alone, without writing the mutated document out. An object's is the
/// sum of its fields' (each key with its value), so changing one field of a wide object costs one subtraction and
/// one addition; fields in another order give the same fingerprint, which the full comparison tells apart.
struct FingerprintTree {
    let value: UInt64
    /// An array's elements, or an object's values in order.
    let children: [FingerprintTree]
    /// An object's fields' fingerprints (key and value), in order.
    let parts: [UInt64]
    /// Where each key of an object is.
    let places: [String: [Int]]
    /// The sum of an object's fields' fingerprints.
    let sum: UInt64

    init(_ node: JSONNode) {
        switch node {
        case .array(let items):
            children = items.map(FingerprintTree.init)
            (parts, places, sum) = ([], [:], 0)
            value = Self.array(children.map(\.value))
        case .object(let fields):
            children = fields.map { FingerprintTree($0.value) }
            parts = zip(fields, children).map { Self.part(Self.key($0.key), $1.value) }
            places = Dictionary(grouping: fields.indices) { fields[$0].key }
            sum = parts.reduce(0, &+)
            value = Self.object(count: fields.count, sum: sum)
        default:
            (children, parts, places, sum) = ([], [], [:], 0)
            value = Self.scalar(node)
        }
    }

    static func scalar(_ node: JSONNode) -> UInt64 {
        switch node {
        case .null: return Fingerprint(tag: 0).value
        case .bool(let flag): return Fingerprint(tag: flag ? 1 : 2).value
        case .number(let text):
            var print = Fingerprint(tag: 3)
            print.add(text)
            return print.value
        case .string(let text):
            var print = Fingerprint(tag: 4)
            print.add(text)
            return print.value
        case .array, .object:
            return FingerprintTree(node).value
        }
    }

    static func key(_ key: String) -> UInt64 {
        var print = Fingerprint(tag: 5)
        print.add(key)
        return print.value
    }

    static func array(_ elements: some Collection<UInt64>) -> UInt64 {
        var print = Fingerprint(tag: 6)
        print.add(UInt64(elements.count))
        for element in elements { print.add(element) }
        return print.value
    }

    /// One field of an object: its key's fingerprint with its value's.
    static func part(_ key: UInt64, _ value: UInt64) -> UInt64 {
        var print = Fingerprint(tag: 8)
        print.add(key)
        print.add(value)
        return print.value
    }

    /// An object of `count` fields whose fingerprints add up to `sum`.
    static func object(count: Int, sum: UInt64) -> UInt64 {
        var print = Fingerprint(tag: 7)
        print.add(UInt64(count))
        print.add(sum)
        return print.value
    }

    /// The fingerprint of `huge`'s string, made once.
    static let hugeString = scalar(.string(String(repeating: "x", count: 100_000)))
}

extension JSONNode {
    /// The fingerprint of this node with the value(s) at `path` changed as `changing(_:_:)` changes them; nil when
    /// the change removes this node itself. `tree` is this node's.
    func fingerprint(changing path: ArraySlice<JSONStep>, _ change: ValueChange, tree: FingerprintTree) -> UInt64? {
        guard let step = path.first else { return fingerprint(after: change, tree: tree) }
        let rest = path.dropFirst()
        switch (step, self) {
        case (.key(let key), .object(let fields)):
            guard let places = tree.places[key] else { return tree.value }
            var sum = tree.sum
            var count = fields.count
            for index in places {
                sum &-= tree.parts[index]
                if let changed = fields[index].value.fingerprint(changing: rest, change, tree: tree.children[index]) {
                    sum &+= FingerprintTree.part(FingerprintTree.key(key), changed)
                } else {
                    count -= 1
                }
            }
            return FingerprintTree.object(count: count, sum: sum)
        case (.elements, .array(let items)):
            return FingerprintTree.array(
                items.indices.compactMap { items[$0].fingerprint(changing: rest, change, tree: tree.children[$0]) })
        default:
            return tree.value
        }
    }

    /// Whether `changing(path, change)` changes this node: a walk along the path alone, where comparing the
    /// changed document with this one would visit all of it.
    func isChanged(by path: ArraySlice<JSONStep>, _ change: ValueChange) -> Bool {
        guard let step = path.first else { return change.apply(to: self) != self }
        let rest = path.dropFirst()
        switch (step, self) {
        case (.key(let key), .object(let fields)):
            return fields.contains { $0.key == key && $0.value.isChanged(by: rest, change) }
        case (.elements, .array(let items)):
            return items.contains { $0.isChanged(by: rest, change) }
        default:
            return false
        }
    }

    /// The fingerprint of `change.apply(to: self)`, from `tree` where the change keeps parts of this node.
    private func fingerprint(after change: ValueChange, tree: FingerprintTree) -> UInt64? {
        switch (change, self) {
        case (.removed, _): return nil
        case (.unknownKey, .object(let fields)):
            let extra = FingerprintTree.part(
                FingerprintTree.key("x-unexpected-key"), FingerprintTree.scalar(.string("unexpected")))
            return FingerprintTree.object(count: fields.count + 1, sum: tree.sum &+ extra)
        case (.oneElement, .array): return FingerprintTree.array(tree.children.prefix(1).map(\.value))
        case (.firstDuplicated, .array(let items)) where !items.isEmpty:
            return FingerprintTree.array([tree.children[0].value] + tree.children.map(\.value))
        case (.huge, .array(let items)) where !items.isEmpty:
            return FingerprintTree.array((0..<1_000).map { tree.children[$0 % items.count].value })
        case (.huge, .string): return FingerprintTree.hugeString
        case (.null, _), (.retyped, _), (.emptied, _):
            return change.apply(to: self).map(FingerprintTree.scalar)
        case (_, .array), (_, .object):
            return tree.value  // every other change leaves a container as it is
        default:
            return change.apply(to: self).map(FingerprintTree.scalar)
        }
    }
}
