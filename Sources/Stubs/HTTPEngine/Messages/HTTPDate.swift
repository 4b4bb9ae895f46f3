#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `Date` header value (IMF-fixdate), formatted at most once a second per instance.
struct HTTPDate {
    private var second: time_t = -1
    private var text = ""

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    mutating func now() -> String {
        let current = time(nil)
        if current != second {
            second = current
            text = Self.format(current)
        }
        return text
    }

    static func format(_ seconds: time_t) -> String {
        var value = seconds
        var parts = tm()
        gmtime_r(&value, &parts)
        func pad(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return
            "\(days[Int(parts.tm_wday)]), \(pad(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)) GMT"
    }
}
