import JSONModel

/// Reading a variant's pacing and random trouble: `firstByteDelayMs`, `throttle`, `network`, `chunked`, `faults`.
extension StubFileReader {
    /// Fills `variant`'s pacing keys from `fields`; false when one of them is wrong.
    mutating func readNetwork(_ fields: [String: JSONValue], into variant: inout PartialVariant, at path: String)
        -> Bool
    {
        let before = problems.count
        let pacingKeys = ["throttle", "network", "chunked"].filter { fields[$0] != nil }
        if pacingKeys.count > 1 {
            report(path, "has \(pacingKeys.joined(separator: " and ")); keep one way of pacing the body")
        }
        if let value = fields["firstByteDelayMs"] {
            variant.firstByteDelayMs = integer(value, at: "\(path).firstByteDelayMs", in: 0...600_000)
        }
        if let value = fields["throttle"],
            let options = object(value, at: "\(path).throttle", known: ["bytesPerSecond"])
        {
            if let rate = options["bytesPerSecond"] {
                integer(rate, at: "\(path).throttle.bytesPerSecond", in: 1...1_000_000_000).map {
                    variant.pacing = .throttle(bytesPerSecond: $0)
                }
            } else {
                report("\(path).throttle.bytesPerSecond", "missing")
            }
        }
        if let name = string(fields["network"], at: "\(path).network") {
            if let profile = NetworkProfile(rawValue: name) {
                variant.pacing = .throttle(bytesPerSecond: profile.bytesPerSecond)
                variant.firstByteDelayMs = variant.firstByteDelayMs ?? profile.latencyMs
            } else {
                let names = NetworkProfile.allCases.map(\.rawValue).joined(separator: ", ")
                report("\(path).network", "unknown network \(name.debugDescription); use one of \(names)")
            }
        }
        if let value = fields["chunked"],
            let options = object(value, at: "\(path).chunked", known: ["size", "delayMs"])
        {
            let size = options["size"].flatMap { integer($0, at: "\(path).chunked.size", in: 1...16_777_216) }
            let delay = options["delayMs"].flatMap { integer($0, at: "\(path).chunked.delayMs", in: 0...600_000) }
            if options["size"] == nil { report("\(path).chunked.size", "missing") }
            if let size { variant.pacing = .chunked(size: size, delayMs: delay ?? 0) }
        }
        if let value = fields["faults"] {
            variant.faults = readFaults(value, at: "\(path).faults")
        }
        return problems.count == before
    }

    /// `{"rate": 0.2, "kinds": ["reset", "drop"], "delayMs": {"min": 50, "max": 400}}`.
    private mutating func readFaults(_ value: JSONValue, at path: String) -> RandomFaults? {
        guard let fields = object(value, at: path, known: ["rate", "kinds", "delayMs"]) else { return nil }
        let before = problems.count
        var rate = 0.0
        if case .number(let number)? = fields["rate"], (0...1).contains(number) {
            rate = number
        } else if fields["rate"] != nil || fields["kinds"] != nil {
            report("\(path).rate", "must be a number from 0 to 1")
        }
        var kinds: [StubVariant.Fault] = []
        if let list = fields["kinds"] {
            if case .array(let items) = list, !items.isEmpty {
                for (index, item) in items.enumerated() {
                    guard let name = string(item, at: "\(path).kinds[\(index)]", required: true) else { continue }
                    if let kind = StubVariant.Fault(rawValue: name) {
                        kinds.append(kind)
                    } else {
                        let names = StubVariant.Fault.allCases.map(\.rawValue).joined(separator: ", ")
                        report("\(path).kinds[\(index)]", "unknown fault \(name.debugDescription); use one of \(names)")
                    }
                }
            } else {
                report("\(path).kinds", "must be a non-empty array of fault names")
            }
        } else if fields["rate"] != nil {
            report("\(path).kinds", "missing: which faults to draw")
        }
        var delay: ClosedRange<Int>?
        if let range = fields["delayMs"], let bounds = object(range, at: "\(path).delayMs", known: ["min", "max"]) {
            let low = bounds["min"].flatMap { integer($0, at: "\(path).delayMs.min", in: 0...600_000) }
            let high = bounds["max"].flatMap { integer($0, at: "\(path).delayMs.max", in: 0...600_000) }
            if bounds["min"] == nil { report("\(path).delayMs.min", "missing") }
            if bounds["max"] == nil { report("\(path).delayMs.max", "missing") }
            if let low, let high {
                if low <= high {
                    delay = low...high
                } else {
                    report("\(path).delayMs", "min \(low) is more than max \(high)")
                }
            }
        }
        if fields.isEmpty { report(path, "must hold rate and kinds, delayMs, or both") }
        return problems.count == before ? RandomFaults(rate: rate, kinds: kinds, delayMs: delay) : nil
    }
}
