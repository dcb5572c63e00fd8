import FoundationEssentials

/// Any object key, for reading and writing objects whose keys are data, not a schema.
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Walks a document's scanned shape beside the decoder's containers, in document order: numbers,
/// literals and every subtree without a string value come from the scan; strings are what the
/// decoder is asked for (and so judged by it); object members are visited in the scanned key
/// order. `JSONValue.parse` passes the shape in `userInfo`; one walk lives inside one
/// `init(from:)`.
struct JSONShapeWalk {
    /// Where `JSONValue.parse` puts the `JSONDocumentShape` for `init(from:)`.
    static let userInfoKey = CodingUserInfoKey(rawValue: "fixcast.JSONDocumentShape")

    private let items: [JSONDocumentShape.Item]
    private var next = 0

    init(shape: JSONDocumentShape) { items = shape.items }

    /// The whole document, from the decoder `JSONDecoder.decode` hands the top-level value.
    mutating func document(from decoder: any Decoder) throws -> JSONValue {
        guard next == 0, let first = items.first else { throw mismatch(decoder.codingPath) }
        let value: JSONValue
        switch first {
        case .string:
            next = 1
            value = .string(try decoder.singleValueContainer().decode(String.self))
        case .array(_, _, true, true):
            value = try stringList(try decoder.singleValueContainer().decode([String].self))
        case .array(_, _, true, false):
            var container = try decoder.unkeyedContainer()
            value = try members(in: &container)
        case .object(_, true):
            value = try object(in: decoder.container(keyedBy: JSONKey.self))
        default:
            value = try fromScan()
        }
        guard next == items.count else { throw mismatch(decoder.codingPath) }
        return value
    }

    /// A list of strings comes from one decoder call (Open-Meteo's `time`), not one per item.
    private mutating func stringList(_ strings: [String]) throws -> JSONValue {
        guard next < items.count, case .array(let count, let end, _, _) = items[next], strings.count == count else {
            throw mismatch([])
        }
        next = end
        return .array(strings.map(JSONValue.string))
    }

    /// The value at `next`, which has no string inside, built from the scan alone.
    private mutating func fromScan() throws -> JSONValue {
        guard next < items.count else { throw mismatch([]) }
        let item = items[next]
        next += 1
        switch item {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return n
        case .string: throw mismatch([])
        case .array(let count, _, _, _):
            var values: [JSONValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try fromScan()) }
            return .array(values)
        case .object(let keys, _):
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(keys.count)
            for key in keys { members.append((key, try fromScan())) }
            return .object(members)
        }
    }

    /// The members of the array at `next`; `container` is that array's own container.
    private mutating func members(in container: inout any UnkeyedDecodingContainer) throws -> JSONValue {
        guard next < items.count, case .array(let count, _, _, _) = items[next] else { throw mismatch(container.codingPath) }
        next += 1
        var values: [JSONValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard next < items.count else { throw mismatch(container.codingPath) }
            switch items[next] {
            case .string:
                next += 1
                values.append(.string(try container.decode(String.self)))
            case .array(_, _, true, true):
                values.append(try stringList(try container.decode([String].self)))
            case .array(_, _, true, false):
                var nested = try container.nestedUnkeyedContainer()
                values.append(try members(in: &nested))
            case .object(_, true):
                values.append(try object(in: container.nestedContainer(keyedBy: JSONKey.self)))
            default:
                values.append(try fromScan())
                _ = try container.decode(SkippedValue.self)
            }
        }
        guard container.isAtEnd else { throw mismatch(container.codingPath) }
        return .array(values)
    }

    /// The object whose item is at `next`, members in the scanned key order.
    private mutating func object(in container: KeyedDecodingContainer<JSONKey>) throws -> JSONValue {
        guard next < items.count, case .object(let keys, _) = items[next] else { throw mismatch(container.codingPath) }
        next += 1
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(keys.count)
        for key in keys {
            guard next < items.count else { throw mismatch(container.codingPath) }
            let codingKey = JSONKey(key)
            switch items[next] {
            case .string:
                next += 1
                members.append((key, .string(try container.decode(String.self, forKey: codingKey))))
            case .array(_, _, true, true):
                members.append((key, try stringList(try container.decode([String].self, forKey: codingKey))))
            case .array(_, _, true, false):
                var nested = try container.nestedUnkeyedContainer(forKey: codingKey)
                members.append((key, try self.members(in: &nested)))
            case .object(_, true):
                members.append((key, try object(in: container.nestedContainer(keyedBy: JSONKey.self, forKey: codingKey))))
            default:
                members.append((key, try fromScan()))
            }
        }
        return .object(members)
    }

    private func mismatch(_ path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: "the decoder and the scan disagree"))
    }
}

/// Moves an unkeyed container past a value the scan has already read.
private struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension JSONValue: Codable {
    /// Inside `JSONValue.parse`, the value the scan found at this point of the text (numbers as
    /// the scan read them, keys in document order). From any other decoder: whatever the decoder
    /// offers, tried in turn; object keys then come sorted, since a keyed container has no order,
    /// and a whole number written as `1.0` may come back as `.int(1)`.
    public init(from decoder: any Decoder) throws {
        if let key = JSONShapeWalk.userInfoKey, let shape = decoder.userInfo[key] as? JSONDocumentShape {
            var walk = JSONShapeWalk(shape: shape)
            self = try walk.document(from: decoder)
            return
        }
        if let container = try? decoder.container(keyedBy: JSONKey.self) {
            let keys = container.allKeys.map(\.stringValue).sorted()
            self = .object(try keys.map { ($0, try container.decode(JSONValue.self, forKey: JSONKey($0))) })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !container.isAtEnd { values.append(try container.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self), d.isFinite {
            self = .double(d)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Members in order (an encoder that keeps order, keeps it; `JSONEncoder` does not). A
    /// non-finite double is encoded as null, as `serialized()` writes it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in members { try c.encode(value, forKey: JSONKey(key)) }
        }
    }
}
