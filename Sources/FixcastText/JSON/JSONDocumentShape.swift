import FoundationEssentials

/// The structure of one JSON text, learned by a strict linear scan; `JSONValue.parse` builds the
/// values from it, and `JSONStringText` decodes the strings (escapes, surrogate pairs, control
/// characters, UTF-8 validity). It is strict where JSON readers are often lenient
/// (`JSONConformanceTests` and `JSONValueParsingTests` hold the cases):
/// - object key order: each object's keys are recorded in document order, and `JSONValue` keeps it.
/// - trailing commas (`[1,]`, `{"a":1,}`) and UTF-16/UTF-32 input: refused.
/// - duplicate keys: refused, so no two readers of one document can disagree about what it says.
///   Keys are compared as Swift strings, so `"é"` written precomposed and decomposed count as one
///   key, as they would for `JSONValue`'s subscript.
/// - numbers: RFC 8259's number grammar, and the lexeme converted here: integer syntax that fits
///   becomes `.int`, everything else `.double` (so `1` and `1.0` stay apart); a number beyond
///   Double's range (`1e400`) reads as infinity (the value checks null it, naming the field); an
///   underflow (`1e-400`) becomes 0.
/// - nesting: bounded at `maxDepth` before any recursive building starts.
struct JSONDocumentShape: Sendable {
    /// One value, in document pre-order (a container before its members).
    enum Item: Sendable {
        case null
        case bool(Bool)
        case number(JSONValue)
        case string
        /// `count` members follow in pre-order.
        case array(count: Int)
        /// One value per key follows in pre-order, each after its key's string literal.
        case object(keys: [String])
    }

    /// Deeper nesting is refused. API responses fixcast reads nest under 10 levels. The decode
    /// walk recurses once a level: a 128-level document with a string at the bottom parsed on a
    /// thread with a 64 KiB stack (release) and a 512 KiB one (debug), and failed at 32/256 KiB;
    /// fixcast's threads have the 8 MiB default. `JSONDecoder`'s own limit is 512.
    static let maxDepth = 128

    private(set) var items: [Item] = []
    /// Where each string (keys included) starts, for `JSONStringText` to decode it.
    private(set) var stringStarts: [Int] = []
    /// Where the value starts (after a UTF-8 byte order mark, if any).
    private(set) var start = 0

    /// Scans UTF-8 JSON text; throws where it is not RFC 8259 JSON by the rules above. String
    /// contents are left to `JSONStringText`.
    init(scanning bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var scanner = Scanner(bytes: bytes)
        try scanner.scanDocument()
        items = scanner.items
        stringStarts = scanner.stringStarts
        start = scanner.start
    }
}

private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var start = 0
    var items: [JSONDocumentShape.Item] = []
    var stringStarts: [Int] = []

    /// An open container: where its item is, and what it holds so far.
    struct Open {
        let item: Int
        let isObject: Bool
        var count = 0
        var keys: [String] = []
        /// Built once an object has many keys, so the duplicate check stays linear in the input.
        var keySet: Set<String>? = nil

        /// Adds a key; false if the object already has it.
        mutating func insert(_ key: String) -> Bool {
            if keySet == nil, keys.count >= 16 { keySet = Set(keys) }
            if keySet != nil {
                guard keySet?.insert(key).inserted == true else { return false }
            } else if keys.contains(key) {
                return false
            }
            keys.append(key)
            return true
        }
    }
    var open: [Open] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? i, reason: reason)
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    mutating func scanDocument() throws(JSONParseError) {
        // A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 allows ignoring it).
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        start = i
        try scanValue()
        while !open.isEmpty { try scanAfterMember() }
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected text after the JSON value") }
    }

    /// One value; a container is opened, and its members are scanned by `scanAfterMember`.
    mutating func scanValue() throws(JSONParseError) {
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard open.count < JSONDocumentShape.maxDepth else {
                throw fail("nesting deeper than \(JSONDocumentShape.maxDepth) levels")
            }
            let isObject = bytes[i] == UInt8(ascii: "{")
            open.append(Open(item: items.count, isObject: isObject))
            items.append(.null)  // the container's item, written when it closes
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                i += 1
                close()
            } else {
                try scanMember()
            }
        case UInt8(ascii: "\""):
            try skipString()
            items.append(.string)
        case UInt8(ascii: "t"):
            try literal("true")
            items.append(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            items.append(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            items.append(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): items.append(.number(try scanNumber()))
        case 0x00: throw fail("a NUL byte (the text is not UTF-8)")
        default: throw fail("invalid value")
        }
    }

    /// The next member of the innermost open container: `"key": value` or `value`.
    mutating func scanMember() throws(JSONParseError) {
        guard let top = open.indices.last else { return }
        if open[top].isObject {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyStart = i
            try skipString()
            let key = try JSONStringText.text(bytes, at: keyStart)  // for order and the duplicate check
            guard open[top].insert(key) else { throw fail("duplicate key", at: keyStart) }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
        }
        open[top].count += 1
        try scanValue()
    }

    /// After a member: `,` and the next member, or the container's closing bracket.
    mutating func scanAfterMember() throws(JSONParseError) {
        guard let top = open.last else { return }
        skipSpace()
        guard i < bytes.count else {
            throw fail("unexpected end of input in \(top.isObject ? "an object" : "an array")")
        }
        let closing = top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if bytes[i] == closing {
            i += 1
            close()
        } else if bytes[i] == UInt8(ascii: ",") {
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == closing { throw fail("trailing comma") }
            try scanMember()
        } else {
            throw fail(top.isObject ? "expected ',' or '}'" : "expected ',' or ']'")
        }
    }

    mutating func close() {
        guard let done = open.popLast() else { return }
        items[done.item] = done.isObject ? .object(keys: done.keys) : .array(count: done.count)
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("invalid literal") }
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        for k in 0..<n where bytes[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    /// Moves past a string; its contents are `JSONStringText`'s to judge.
    mutating func skipString() throws(JSONParseError) {
        stringStarts.append(i)
        let open = i
        i += 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                return
            case UInt8(ascii: "\\"): i += 2
            case 0x00: throw fail("a NUL byte (the text is not UTF-8)")
            default: i += 1
            }
        }
        throw fail("unterminated string", at: open)
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber() throws(JSONParseError) -> JSONValue {
        let first = i
        var isInteger = true
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number", at: first) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, isDigit(bytes[i]) { throw fail("number with a leading zero", at: first) }
        } else {
            skipDigits()
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number", at: first) }
            skipDigits()
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("invalid number", at: first) }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<i]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        // Double's parser rounds to nearest; only overflow gives infinity. An overflowing number is
        // kept as ±infinity rather than failing the whole document: one absurd field from an API must
        // cost that field only, and the decoders' value checks turn it into null with an `errors`
        // entry naming the field (WeatherValueCheck). Written out again it is `null`, never a number.
        guard let double = Double(text) else { throw fail("invalid number", at: first) }
        return .double(double)
    }

    mutating func skipDigits() { while i < bytes.count, isDigit(bytes[i]) { i += 1 } }
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
