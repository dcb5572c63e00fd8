/// Text from outside (API replies, gpsd strings, config values, arguments echoed in errors) made
/// safe to put on a terminal or stderr.
///
/// A terminal obeys what it is sent: ESC and the C1 controls start escape sequences (window title,
/// clear screen, cursor moves), BS and CR overwrite what was printed, NUL and BEL are noise, and the
/// bidi overrides and isolates reorder the text after them so a line can say something other than
/// its bytes. None of that may come from data fixcast did not write itself. JSON keeps the original
/// text (escaped: `JSONValue`), because a script should see what the server said.
public enum TerminalText {
    /// The longest place name shown on screen, in characters. The longest real place names (Welsh
    /// and Maori ones, about 58–85 letters) are rare; 60 keeps a name plus region and country on an
    /// 80-column line, and a "name" longer than that is junk or an attempt to push the rest of the
    /// line off the screen. JSON and the store keep the whole name.
    public static let maxNameCharacters = 60

    /// The longest piece of outside text echoed inside an error sentence (a 100,000-character
    /// host name must not fill the terminal): enough to recognise what was typed.
    public static let maxEchoCharacters = 80

    /// Whether `scalar` must never reach a terminal raw: C0 controls, DEL, C1 controls, the
    /// line and paragraph separators, and the bidi marks, embeddings, overrides and isolates.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Characters that break a line or a cell: they become one space, so words stay apart.
    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// One line for display: line breaks and tabs become a space (a run of them one space), every
    /// other unsafe character is dropped.
    public static func line(_ text: String) -> String {
        // Every break is also unsafe: text with neither is its own line (every line of every frame).
        guard hasUnsafeScalar(text) else { return text }
        var out = String.UnicodeScalarView()
        var lastWasBreak = false
        for scalar in text.unicodeScalars {
            if isBreak(scalar) {
                if !lastWasBreak { out.append(" ") }
                lastWasBreak = true
                continue
            }
            lastWasBreak = false
            if isUnsafe(scalar) { continue }
            out.append(scalar)
        }
        return String(out)
    }

    /// A name for the screen (place, region, country, device): `line`, trimmed, at most
    /// `maxNameCharacters` characters ending in "…" when cut.
    public static func name(_ text: String, maxCharacters: Int = maxNameCharacters) -> String {
        capped(trimmed(line(text)), maxCharacters)
    }

    /// Outside text to quote inside an error sentence: line breaks and tabs become a space, every
    /// other unsafe character is shown as `\u{1B}` (so a person can see it was there), at most
    /// `maxCharacters` characters.
    public static func echo(_ text: String, maxCharacters: Int = maxEchoCharacters) -> String {
        capped(escapingUnsafe(text, keepNewlines: false), maxCharacters)
    }

    /// Text for stdout: newlines kept (they are fixcast's own line ends), tabs and other breaks
    /// become a space, every other unsafe character dropped.
    public static func forStdout(_ text: String) -> String {
        forStdout(text, keepingColour: false)
    }

    /// Text for stdout that fixcast's own renderers coloured: like `forStdout`, but an SGR sequence
    /// (`ESC [ digits ; … m`, colours and bold only: it moves no cursor, sets no title, clears
    /// nothing) is kept. Every outside string a renderer embeds is cleaned first (`name`, `line`), so
    /// the only escapes left are the renderer's own.
    public static func forStdoutKeepingColour(_ text: String) -> String {
        forStdout(text, keepingColour: true)
    }

    private static func forStdout(_ text: String, keepingColour: Bool) -> String {
        guard needsCleaning(text) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if keepingColour, scalar == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, scalars[j] == ";" || ("0"..."9").contains(scalars[j]) { j += 1 }
                if j < scalars.count, scalars[j] == "m", j - i <= 16 {
                    out.append(contentsOf: scalars[i...j])
                    i = j + 1
                    continue
                }
            }
            if scalar == "\n" {
                out.append(scalar)
            } else if isBreak(scalar) {
                out.append(" ")
            } else if !isUnsafe(scalar) {
                out.append(scalar)
            }
            i += 1
        }
        return String(out)
    }

    /// One message for stderr (every caller writes one sentence and its line end): the line ends at
    /// its end are kept, a line break inside it (a path or a name with a newline in it) becomes a
    /// space, so one message stays one line in a journal; every other unsafe character is shown as
    /// `\u{…}`.
    public static func forStderrMessage(_ text: String) -> String {
        var body = text.unicodeScalars[...]
        var ends = 0
        while body.last == "\n" {
            body = body.dropLast()
            ends += 1
        }
        let inner = String(String.UnicodeScalarView(body))
        let shown =
            needsCleaning(inner) || inner.unicodeScalars.contains("\n")
            ? escapingUnsafe(inner, keepNewlines: false) : inner
        return shown + String(repeating: "\n", count: ends)
    }

    /// A file path (or other outside text quoted whole) inside a line of stdout: line breaks and tabs
    /// become a space, other unsafe characters are shown as `\u{…}`, and nothing is cut, so a person
    /// can still recognise the file.
    public static func path(_ text: String) -> String { escapingUnsafe(text, keepNewlines: false) }

    /// Whether anything in `text` other than "\n" is unsafe (the common case is no: a fast path).
    public static func needsCleaning(_ text: String) -> Bool {
        hasUnsafeScalar(text, allowingNewline: true)
    }

    /// Whether `text` holds a scalar `isUnsafe` refuses ("\n" excepted when `allowingNewline`), read
    /// from its UTF-8 bytes without decoding a scalar: every unsafe scalar has a first byte that is a
    /// C0 control, DEL, 0xC2 (C1: C2 80–9F), 0xD8 (U+061C: D8 9C) or 0xE2 (U+200E–202E: E2 80 8E–AE,
    /// U+2066–2069: E2 81 A6–A9), and a Swift string is always valid UTF-8, so the byte after a lead
    /// is its scalar's own. The same answer as asking `isUnsafe` of each scalar (a test holds that for
    /// every scalar of the Basic Multilingual Plane), at a byte compare each for the usual line.
    static func hasUnsafeScalar(_ text: String, allowingNewline: Bool = false) -> Bool {
        var text = text  // `withUTF8` is mutating: it may make a bridged string native first
        return text.withUTF8 { hasUnsafeScalar(utf8: $0, allowingNewline: allowingNewline) }
    }

    private static func hasUnsafeScalar(utf8 bytes: UnsafeBufferPointer<UInt8>, allowingNewline: Bool) -> Bool {
        var utf8 = bytes.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case 0x0A where allowingNewline: continue
            case 0x00...0x1F, 0x7F: return true
            case 0xC2, 0xD8, 0xE2: break
            default: continue
            }
            guard let second = utf8.next() else { return false }
            switch (byte, second) {
            case (0xC2, 0x80...0x9F), (0xD8, 0x9C): return true
            case (0xE2, 0x80), (0xE2, 0x81):
                guard let third = utf8.next() else { return false }
                switch (second, third) {
                case (0x80, 0x8E...0x8F), (0x80, 0xA8...0xAE), (0x81, 0xA6...0xA9): return true
                default: continue
                }
            default: continue
            }
        }
        return false
    }

    /// `\u{1B}` for U+001B: how an unsafe character is shown in an error message.
    public static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    }

    static func escapingUnsafe(_ text: String, keepNewlines: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if keepNewlines && scalar == "\n" {
                out.unicodeScalars.append(scalar)
            } else if isBreak(scalar) {
                out += " "
            } else if isUnsafe(scalar) {
                out += escaped(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }

    static func capped(_ text: String, _ maxCharacters: Int) -> String {
        guard maxCharacters > 0, text.count > maxCharacters else { return text }
        return String(text.prefix(maxCharacters - 1)) + "…"
    }
}
