/// A JSON document as a value, with object keys kept in the order they were written.
///
/// fixcast's outputs (CONTRACT.md) have a fixed key order and print unknown values as `null`,
/// which synthesized `Codable` cannot promise (it drops nil keys); the same type reads API
/// responses where `null` inside an array means "missing", not zero. Reading is a strict scan
/// (`JSONValue+Parsing.swift`); writing is `JSONValue+Writing.swift`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    // MARK: Building

    /// `.double` for a finite number, `.null` for nil or a non-finite one (JSON has no NaN).
    public static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }

    public static func number(_ value: Int?) -> JSONValue {
        guard let value else { return .null }
        return .int(value)
    }

    public static func string(_ value: String?) -> JSONValue {
        guard let value else { return .null }
        return .string(value)
    }

    // MARK: Reading

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A number as Double (ints widen); nil for null and for every other type.
    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }

    /// A whole number; a double with no fraction counts, anything else is nil.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }
}
