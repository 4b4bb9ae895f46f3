/// Types that give each in-process server a `URLProtocol` class of its own, `StubURLProtocol<Tag>`.
///
/// `URLSessionConfiguration.protocolClasses` takes classes, and nothing a protocol sees names the session or
/// configuration a request came from: no public property links a task to its session, and neither Apple's
/// URLSession nor swift-corelibs-foundation puts `httpAdditionalHeaders` into the request a custom protocol gets
/// (corelibs merges them only for libcurl, `HTTPURLProtocol.swift`; on Apple platforms OHHTTPStubs issue #82).
/// So the class itself carries the server's number: a generic class is a distinct class, with its own
/// Objective-C class object on Apple platforms, for each type argument, and the type argument spells the number
/// in binary (`Bit1<Bit0<Bit1<Zero>>>` is 5), built at run time for any number.
package protocol ServerTag {
    static var number: Int { get }
}

package enum Zero: ServerTag {
    package static var number: Int { 0 }
}

package enum Bit0<Higher: ServerTag>: ServerTag {
    package static var number: Int { Higher.number * 2 }
}

package enum Bit1<Higher: ServerTag>: ServerTag {
    package static var number: Int { Higher.number * 2 + 1 }
}

extension Zero {
    /// The tag type whose `number` is `number` (at least 0).
    package static func tag(for number: Int) -> any ServerTag.Type {
        guard number > 0 else { return Zero.self }
        let higher = tag(for: number / 2)
        return number % 2 == 0 ? appendingZero(to: higher) : appendingOne(to: higher)
    }

    private static func appendingZero<Higher: ServerTag>(to _: Higher.Type) -> any ServerTag.Type {
        Bit0<Higher>.self
    }

    private static func appendingOne<Higher: ServerTag>(to _: Higher.Type) -> any ServerTag.Type {
        Bit1<Higher>.self
    }
}
