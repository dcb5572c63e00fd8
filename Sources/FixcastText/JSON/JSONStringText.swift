/// The text of one JSON string literal (RFC 8259 §7): escapes decoded, surrogate pairs joined, and
/// refused where the text is not JSON — a raw control character, a bad escape, a lone surrogate, or
/// invalid UTF-8.
///
/// Decoded here rather than by `JSONDecoder`: the scan (`JSONDocumentShape`) has found every string
/// already, and calling FoundationEssentials' decoder for them cost `fixcast run` about 1.8 MB of
/// resident memory (bench/README.md, "JSON"), a large share of a Raspberry Pi's 24 MB budget.
enum JSONStringText {
    /// The text of the literal that starts with the `"` at `start`, or the parse error at `start`.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONParseError) -> String {
        guard let text = decode(bytes, at: start) else { throw JSONValue.invalidStringError(at: start) }
        return text
    }

    /// Decodes the literal that starts with the `"` at `start`; nil when it is not valid JSON text.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> String? {
        var i = start + 1
        var out: [UInt8] = []
        var plainFrom = i
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if out.isEmpty {
                    return String(validating: UnsafeBufferPointer(rebasing: bytes[plainFrom..<i]), as: UTF8.self)
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<i]))
                return String(validating: out, as: UTF8.self)
            }
            if b < 0x20 { return nil }
            guard b == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<i]))
            guard i + 1 < bytes.count else { return nil }
            switch bytes[i + 1] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4(bytes, i + 2) else { return nil }
                var scalarValue = UInt32(unit)
                var consumed = 6
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"),
                        bytes[i + 7] == UInt8(ascii: "u"), let low = hex4(bytes, i + 8), (0xDC00...0xDFFF).contains(low)
                    else { return nil }
                    scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    consumed = 12
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return nil
                }
                guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i += consumed
                plainFrom = i
                continue
            default:
                return nil
            }
            i += 2
            plainFrom = i
        }
        return nil
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16? {
        guard at + 4 <= bytes.count else { return nil }
        var v: UInt16 = 0
        for k in 0..<4 {
            let c = bytes[at + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
        }
        return v
    }
}
