public import Foundation

/// A value bound to or read from an SQLite statement.
public enum SQLiteValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The value as text, or nil for null and blobs.
    public var text: String? {
        switch self {
        case .text(let value): value
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .null, .blob: nil
        }
    }

    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value)
        default: nil
        }
    }

    public var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// `.text` for a string, `.null` for nil.
    public static func optional(_ text: String?) -> SQLiteValue {
        text.map(SQLiteValue.text) ?? .null
    }

    /// `.real` for a number, `.null` for nil.
    public static func optional(_ number: Double?) -> SQLiteValue {
        number.map(SQLiteValue.real) ?? .null
    }
}
