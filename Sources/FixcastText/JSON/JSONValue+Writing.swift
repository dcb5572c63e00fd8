/// Compact, terminal-safe JSON text.
///
/// Written here rather than with `JSONEncoder`, which was tried (swift-foundation 6.3) and cannot
/// give CONTRACT.md's output: it keeps object members in a `Dictionary`, so key order is lost
/// unless sorted (`.sortedKeys`, not the contract's order); it writes `34.0` as `34`, `/` as `\/`;
/// it leaves DEL, C1 controls and U+2028/U+2029 raw; and it throws on a non-finite Double.
extension JSONValue {
    /// Compact JSON text (one line), as `run --json` prints it: no raw control character, so the
    /// line is safe to print to a terminal.
    public func serialized() -> String {
        var out = ""
        out.reserveCapacity(512)
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.format(d)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    /// Shortest text that reads back as the same Double (`3.1`, `0.30000000000000004`, `1e-07`);
    /// a whole number below 1e15 as `34.0`, so a double stays recognisably a double; a non-finite
    /// value as `null` (JSON has no NaN or infinity, and `JSONValue.number` already maps them so).
    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + ".0" }
        return "\(d)"
    }

    /// A JSON string literal. Escaped besides `"` and `\`: every character `TerminalText` calls
    /// unsafe — C0, DEL, C1 (a terminal acts on them: U+009B is CSI), U+2028/U+2029 (line breaks to
    /// JavaScript and some viewers) and the bidi controls — so one value is always one safe line, and
    /// the text is kept whole for whoever parses it.
    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case _ where TerminalText.isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
