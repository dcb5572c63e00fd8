/// A value of fixcast's TOML subset.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)

    /// The TOML type name, for "expected an integer, found a string" messages.
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        }
    }
}

/// One `key = value` line.
public struct TOMLEntry: Sendable, Hashable {
    public var section: String
    public var key: String
    public var value: TOMLValue
    public var line: Int
}

/// A `[section]` header.
public struct TOMLSection: Sendable, Hashable {
    public var name: String
    public var line: Int
}

/// A syntax error at a line (1-based).
public struct TOMLSyntaxError: Error, Sendable, Hashable {
    public var line: Int
    public var reason: String
    /// Set when the value of a key could not be read: `[section]` and key, so the config loader can
    /// keep a secret's text out of the message (`valueReason` may quote the value).
    public var section: String? = nil
    public var key: String? = nil
}

/// The parsed file: its sections and entries in file order.
public struct TOMLDocument: Sendable, Hashable {
    public var sections: [TOMLSection] = []
    public var entries: [TOMLEntry] = []
}

/// A strict parser of the TOML subset fixcast's config uses (TOML 1.0 for these parts):
/// `[section]` tables, `key = value` with bare keys, basic strings with escapes, literal strings,
/// decimal integers, floats, booleans, comments and blank lines.
///
/// Anything else (arrays, inline tables, dotted keys, multi-line strings, dates) is a syntax
/// error naming the line rather than something silently misread; so are duplicate keys and
/// tables, and keys before the first table (every fixcast key belongs to a section).
public enum TOMLSubset {
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLDocument {
        var doc = TOMLDocument()
        var section: String?
        var seenKeys: Set<String> = []
        var seenSections: Set<String> = []
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            // A line break is LF or CR LF (one Character, split on above): a CR left is a lone one, a
            // control character like the others TOML 1.0 refuses anywhere but as an escape in a string
            // (in a comment too).
            if let bad = rawLine.utf8.first(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) {
                let hex = String(bad, radix: 16, uppercase: true)
                throw TOMLSyntaxError(
                    line: lineNumber,
                    reason:
                        "control character (byte 0x\(hex.count < 2 ? "0" + hex : hex)) in the line; inside a double-quoted string write it as an escape such as \\t or \\u0001"
                )
            }
            var scanner = LineScanner(Substring(rawLine), number: lineNumber)
            scanner.skipSpace()
            if scanner.atEndOrComment { continue }
            if scanner.peek == UInt8(ascii: "[") {
                scanner.advance()
                if scanner.peek == UInt8(ascii: "[") {
                    throw scanner.fail("arrays of tables ([[...]]) are not used in fixcast's config")
                }
                scanner.skipSpace()
                let name = try scanner.bareKey()
                scanner.skipSpace()
                if scanner.peek == UInt8(ascii: ".") {
                    throw scanner.fail("dotted table names are not used in fixcast's config")
                }
                guard scanner.peek == UInt8(ascii: "]") else { throw scanner.fail("expected ']' after the table name") }
                scanner.advance()
                scanner.skipSpace()
                guard scanner.atEndOrComment else { throw scanner.fail("unexpected text after [\(name)]") }
                guard seenSections.insert(name).inserted else { throw scanner.fail("table [\(name)] is defined twice") }
                section = name
                doc.sections.append(TOMLSection(name: name, line: lineNumber))
                continue
            }
            let key = try scanner.bareKey()
            scanner.skipSpace()
            if scanner.peek == UInt8(ascii: ".") {
                throw scanner.fail("dotted keys are not used in fixcast's config (use a [table])")
            }
            // The key is not quoted back: a line that is not `key = value` may be a secret pasted alone.
            guard scanner.peek == UInt8(ascii: "=") else {
                throw scanner.fail("expected key = value (a word alone on a line is not a setting)")
            }
            scanner.advance()
            scanner.skipSpace()
            let value: TOMLValue
            do {
                value = try scanner.value()
            } catch {
                // Name the key, so that every syntax error after a key says which one.
                // Not a key that looks like a pasted secret (`abc…==` reads as key `abc…`, value `=`).
                guard !SecretShape.looksLikeSecret(key) else {
                    throw TOMLSyntaxError(line: error.line, reason: "this line is not key = value with a value")
                }
                throw TOMLSyntaxError(
                    line: error.line, reason: "the value of \"\(key)\": \(error.reason)", section: section ?? "",
                    key: key)
            }
            scanner.skipSpace()
            guard scanner.atEndOrComment else {
                throw scanner.fail("unexpected text after the value of \(SecretShape.quoted(key))")
            }
            guard let section else {
                throw scanner.fail(
                    "the key \(SecretShape.quoted(key)) comes before any [table]; put it under its section, e.g. [weather]"
                )
            }
            guard seenKeys.insert(section + "." + key).inserted else {
                throw scanner.fail("the key \"\(key)\" is set twice in [\(section)]")
            }
            doc.entries.append(TOMLEntry(section: section, key: key, value: value, line: lineNumber))
        }
        return doc
    }
}

/// Reads one line byte by byte.
private struct LineScanner {
    let bytes: [UInt8]
    let number: Int
    var i = 0

    init(_ line: Substring, number: Int) {
        bytes = Array(line.utf8)
        self.number = number
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
    var atEndOrComment: Bool { i >= bytes.count || bytes[i] == UInt8(ascii: "#") }
    mutating func advance() { i += 1 }
    func fail(_ reason: String) -> TOMLSyntaxError { TOMLSyntaxError(line: number, reason: reason) }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    }

    static func isBareKeyByte(_ b: UInt8) -> Bool {
        (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D
    }

    mutating func bareKey() throws(TOMLSyntaxError) -> String {
        if peek == UInt8(ascii: "\"") || peek == UInt8(ascii: "'") {
            throw fail("quoted keys are not used in fixcast's config")
        }
        let start = i
        while let b = peek, Self.isBareKeyByte(b) { i += 1 }
        guard i > start else { throw fail("expected a key (letters, digits, '_' or '-')") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        guard let b = peek else { throw fail("expected a value after '='") }
        switch b {
        case UInt8(ascii: "\""):
            if bytes[i...].starts(with: Array("\"\"\"".utf8)) {
                throw fail("multi-line strings are not used in fixcast's config")
            }
            return .string(try basicString())
        case UInt8(ascii: "'"):
            if bytes[i...].starts(with: Array("'''".utf8)) {
                throw fail("multi-line strings are not used in fixcast's config")
            }
            return .string(try literalString())
        case UInt8(ascii: "["): throw fail("arrays are not used in fixcast's config")
        case UInt8(ascii: "{"): throw fail("inline tables are not used in fixcast's config")
        default:
            let start = i
            while let c = peek, c != 0x20, c != 0x09, c != UInt8(ascii: "#") { i += 1 }
            let word = String(decoding: bytes[start..<i], as: UTF8.self)
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            if let v = TOMLNumber.integer(word) { return .integer(v) }
            if let v = TOMLNumber.float(word) { return .float(v) }
            if word.isEmpty { throw fail("expected a value after '='") }
            let shown = TerminalText.echo(word)
            if TOMLNumber.isDecimalInteger(word) {
                throw fail("\(shown) is too large for an integer (at most \(Int.max))")
            }
            if let first = word.drop(while: { $0 == "+" || $0 == "-" }).first, first.isASCII, first.isNumber {
                throw fail(
                    "\(shown) is not a value (strings need quotes: \"\(shown)\"; numbers are decimal integers, and floats such as 2.5 or 1e3, without 0x, 0o, 0b, dates or times)"
                )
            }
            throw fail("\(shown) is not a value (strings need quotes: \"\(shown)\")")
        }
    }

    mutating func literalString() throws(TOMLSyntaxError) -> String {
        i += 1
        let start = i
        while let b = peek, b != UInt8(ascii: "'") {
            if b < 0x20 && b != 0x09 { throw fail("control character in a string") }
            i += 1
        }
        guard peek == UInt8(ascii: "'") else { throw fail("unterminated string (missing ')") }
        let s = String(decoding: bytes[start..<i], as: UTF8.self)
        i += 1
        return s
    }

    mutating func basicString() throws(TOMLSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw fail("unterminated string (missing \")") }
            i += 1
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 && b != 0x09 || b == 0x7F {
                throw fail("control character in a string (use an escape such as \\t)")
            }
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                continue
            }
            guard let e = peek else { throw fail("unterminated escape at the end of the line") }
            i += 1
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = e == UInt8(ascii: "u") ? 4 : 8
                // Hex digits only: UInt32(_:radix:) would also take a sign ("\u+041").
                guard i + count <= bytes.count,
                    bytes[i..<i + count].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                    let v = UInt32(String(decoding: bytes[i..<i + count], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(v)
                else {
                    throw fail(
                        "invalid \\\(Character(Unicode.Scalar(e))) escape (needs \(count) hex digits of a Unicode scalar)"
                    )
                }
                i += count
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail("unknown escape \\\(Character(Unicode.Scalar(e))) in a string")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// TOML 1.0 decimal integers and floats (underscores only between digits; no leading zeros).
public enum TOMLNumber {
    public static func integer(_ word: String) -> Int? {
        var s = Substring(word)
        var sign = ""
        if let f = s.first, f == "+" || f == "-" {
            sign = f == "-" ? "-" : ""
            s = s.dropFirst()
        }
        guard let digits = digitsWithUnderscores(s), !(digits.count > 1 && digits.hasPrefix("0")) else { return nil }
        return Int(sign + digits)
    }

    /// Whether `word` is written as a decimal integer (sign, digits, single underscores between
    /// them), whether or not it fits in an `Int`: told apart so a too large one is named as such.
    public static func isDecimalInteger(_ word: String) -> Bool {
        var s = Substring(word)
        if let f = s.first, f == "+" || f == "-" { s = s.dropFirst() }
        guard let digits = digitsWithUnderscores(s) else { return false }
        return !(digits.count > 1 && digits.hasPrefix("0"))
    }

    public static func float(_ word: String) -> Double? {
        switch word {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        var s = Substring(word)
        var text = ""
        if let f = s.first, f == "+" || f == "-" {
            text = f == "-" ? "-" : ""
            s = s.dropFirst()
        }
        // integer part [. fraction] [e exponent], at least one of fraction or exponent
        let expIndex = s.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = expIndex.map { s[..<$0] } ?? s
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let intPart = digitsWithUnderscores(parts[0]),
            !(intPart.count > 1 && intPart.hasPrefix("0"))
        else { return nil }
        text += intPart
        if parts.count == 2 {
            guard let frac = digitsWithUnderscores(parts[1]) else { return nil }
            text += "." + frac
        }
        if let e = expIndex {
            var exp = s[s.index(after: e)...]
            var expText = "e"
            if let f = exp.first, f == "+" || f == "-" {
                expText += String(f)
                exp = exp.dropFirst()
            }
            guard let digits = digitsWithUnderscores(exp) else { return nil }
            text += expText + digits
        }
        guard parts.count == 2 || expIndex != nil else { return nil }
        return Double(text)
    }

    /// The digits of `s` with single underscores between digits removed; nil otherwise.
    private static func digitsWithUnderscores(_ s: Substring) -> String? {
        guard let first = s.first, first.isASCII, first.isNumber, let last = s.last, last.isASCII, last.isNumber else {
            return nil
        }
        var out = ""
        var previousUnderscore = false
        for c in s {
            if c == "_" {
                if previousUnderscore { return nil }
                previousUnderscore = true
                continue
            }
            guard c.isASCII, c.isNumber else { return nil }
            previousUnderscore = false
            out.append(c)
        }
        return out
    }
}
