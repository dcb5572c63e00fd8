import FoundationEssentials

/// Why a text is not JSON; the byte offset helps a person find the spot.
public struct JSONParseError: Error, Sendable, Equatable {
    public let offset: Int
    public let reason: String

    /// "not JSON: <reason> at byte N", for the middle of an error sentence.
    public var summary: String { "not JSON: \(reason) at byte \(offset)" }
}

extension JSONValue {
    /// Parses UTF-8 JSON text (RFC 8259) strictly (`JSONDocumentShape`): object keys kept in
    /// document order; trailing commas, UTF-16/32 text, duplicate keys and nesting deeper than
    /// `JSONDocumentShape.maxDepth` refused; invalid UTF-8, bad escapes, lone surrogates and raw control
    /// characters in strings refused (`JSONStringText`). A number beyond Double's range reads as
    /// infinity (the decoders' value checks name it).
    ///
    /// FoundationEssentials' `JSONDecoder` was used here for a while, behind the same scan; it cost
    /// `fixcast run` 1.8 MB of peak RSS for nothing the scan did not already know, so the values are
    /// now built from the scan directly (bench/README.md, "JSON"). The JSONTestSuite-style cases in
    /// `JSONConformanceTests` hold either way.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            let shape = try JSONDocumentShape(scanning: buffer)
            var builder = JSONShapeBuilder(shape: shape, bytes: buffer)
            return try builder.value()
        }
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    static func invalidStringError(at offset: Int) -> JSONParseError {
        JSONParseError(
            offset: offset,
            reason: "invalid string (a bad escape, a lone surrogate, a raw control character or invalid UTF-8)")
    }
}

/// Builds the values of a scanned document, in the scan's pre-order (a container, then its members;
/// an object member's key string, then its value). Recursion is bounded by the scan's depth limit.
private struct JSONShapeBuilder {
    let shape: JSONDocumentShape
    let bytes: UnsafeBufferPointer<UInt8>
    var item = 0
    var string = 0

    mutating func value() throws(JSONParseError) -> JSONValue {
        let current = shape.items[item]
        item += 1
        switch current {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return n
        case .string: return .string(try nextString())
        case .array(let count):
            var values: [JSONValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try value()) }
            return .array(values)
        case .object(let keys):
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(keys.count)
            for key in keys {
                string += 1  // the key's literal: already decoded by the scan
                members.append((key, try value()))
            }
            return .object(members)
        }
    }

    mutating func nextString() throws(JSONParseError) -> String {
        let start = shape.stringStarts[string]
        string += 1
        return try JSONStringText.text(bytes, at: start)
    }
}
