import FixcastText

/// Turns an API's error text into something that fits inside one sentence of fixcast's output.
public enum ErrorText {
    /// A server's reason (or any outside text) for the middle of one of fixcast's sentences: one
    /// line, control characters shown as `\u{…}` (`TerminalText.echo`), at most 200 characters,
    /// and no full stop, semicolon or colon at its end, because the sentence goes on after it
    /// ("answered HTTP 400: Bad latitude; check …", never "latitude.;").
    public static func clause(_ text: String) -> String {
        var out = Substring(TerminalText.echo(oneLine(text), maxCharacters: 200))
        while let last = out.last, last == "." || last == ";" || last == ":" || last == "," || last == " " {
            out = out.dropLast()
        }
        return String(out)
    }

    /// Whitespace runs (including line breaks) become one space; at most 200 characters.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for c in text {
            if c.isWhitespace {
                if !lastWasSpace, !out.isEmpty { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(c)
                lastWasSpace = false
            }
        }
        while out.last == " " { out.removeLast() }
        if out.count > 200 { out = String(out.prefix(199)) + "…" }
        return out
    }

    /// How much of an error body is scanned for its reason: an API's error object is a few hundred
    /// bytes; a 2 MiB page (the body cap) scanned whole cost tens of MB of characters on a Pi.
    static let scannedBytes = 4096

    /// The string value of `"key": "..."` found by scanning the start of a body that is almost JSON.
    static func lenientStringMember(_ key: String, in body: [UInt8]) -> String? {
        let text = String(decoding: body.prefix(scannedBytes), as: UTF8.self)
        let chars = Array(text)
        let needle = Array("\"\(key)\"")
        guard chars.count >= needle.count else { return nil }
        var i = 0
        while i + needle.count <= chars.count {
            if chars[i..<i + needle.count].elementsEqual(needle) {
                var j = i + needle.count
                while j < chars.count, chars[j].isWhitespace { j += 1 }
                guard j < chars.count, chars[j] == ":" else {
                    i += 1
                    continue
                }
                j += 1
                while j < chars.count, chars[j].isWhitespace { j += 1 }
                guard j < chars.count, chars[j] == "\"" else { return nil }
                j += 1
                var value = ""
                while j < chars.count, chars[j] != "\"" {
                    if chars[j] == "\\", j + 1 < chars.count { j += 1 }
                    value.append(chars[j])
                    j += 1
                }
                return oneLine(value)
            }
            i += 1
        }
        return nil
    }
}
