import FoundationEssentials

/// Why a text is not JSON; the byte offset helps a person find the spot.
public struct JSONParseError: Error, Sendable, Equatable {
    public let offset: Int
    public let reason: String

    /// "not JSON: <reason> at byte N", for the middle of an error sentence.
    public var summary: String { "not JSON: \(reason) at byte \(offset)" }
}

extension JSONValue {
    /// Parses UTF-8 JSON text (RFC 8259) with FoundationEssentials' `JSONDecoder`, after a strict
    /// scan (`JSONDocumentShape`) that keeps object keys in document order and refuses what the
    /// decoder would let through: trailing commas, UTF-16/32 text, duplicate keys, numbers out of
    /// Double's range, nesting deeper than `JSONDocumentShape.maxDepth`. Invalid UTF-8, bad escapes,
    /// lone surrogates and raw control characters in strings are errors too (the decoder's).
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        let shape = try array.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            try JSONDocumentShape(scanning: buffer)
        }
        let decoder = JSONDecoder()
        if let key = JSONShapeWalk.userInfoKey { decoder.userInfo[key] = shape }
        do {
            return try decoder.decode(JSONValue.self, from: Data(array))
        } catch {
            throw locateDecoderFailure(in: array, shape: shape)
        }
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// The scan has passed everything but string contents, so a refusal is (nearly always) one
    /// string: find the first the decoder refuses on its own. Runs only on the error path.
    private static func locateDecoderFailure(in bytes: [UInt8], shape: JSONDocumentShape) -> JSONParseError {
        for start in shape.stringStarts {
            var end = start + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            guard end < bytes.count else { break }
            if (try? JSONDecoder().decode(String.self, from: Data(bytes[start...end]))) == nil {
                return invalidStringError(at: start)
            }
        }
        return JSONParseError(offset: shape.start, reason: "refused by the JSON decoder")
    }

    static func invalidStringError(at offset: Int) -> JSONParseError {
        JSONParseError(offset: offset, reason: "invalid string (a bad escape, a lone surrogate, a raw control character or invalid UTF-8)")
    }
}
