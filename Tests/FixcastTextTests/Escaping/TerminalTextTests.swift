import Testing

@testable import FixcastText

/// Issue 11 item 1: outside text never drives the terminal.
@Suite struct TerminalTextTests {
    /// The hostile Nominatim `address.town` of the issue.
    static let hostileTown = "\u{1B}]0;pwned\u{07}\u{1B}[2JTown"

    static func hasUnsafe(_ s: String, allowNewline: Bool = false) -> Bool {
        s.unicodeScalars.contains { TerminalText.isUnsafe($0) && !(allowNewline && $0 == "\n") }
    }

    @Test("every C0, DEL, C1 and bidi control counts as unsafe; letters, CJK and emoji do not")
    func unsafeSet() {
        for v: UInt32 in Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029]
            + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        {
            #expect(TerminalText.isUnsafe(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))")
        }
        for c in "Kölnа北京😀 ,.-'" { #expect(!TerminalText.isUnsafe(c.unicodeScalars.first!)) }
    }

    @Test("the hostile town name loses its escape sequences but keeps its letters")
    func hostileTownName() {
        let shown = TerminalText.name(Self.hostileTown)
        #expect(!Self.hasUnsafe(shown))
        #expect(shown == "]0;pwned[2JTown")
    }

    @Test("newlines, CR and tabs become one space; NUL, BS, C1 and bidi overrides are dropped")
    func breaksAndDrops() {
        #expect(TerminalText.line("Bad\nTown") == "Bad Town")
        #expect(TerminalText.line("a\r\n\tb") == "a b")
        #expect(TerminalText.line("x\u{0}y\u{8}z") == "xyz")
        #expect(TerminalText.line("\u{9B}31m\u{9D}0;t\u{9C}Red") == "31m0;tRed")
        #expect(TerminalText.line("abc\u{202E}fdp.exe\u{2066}\u{2069}\u{200F}") == "abcfdp.exe")
    }

    @Test("names are capped at 60 characters ending in …; shorter ones are untouched")
    func nameCap() {
        let long = String(repeating: "x", count: 500)
        let shown = TerminalText.name(long)
        #expect(shown.count == TerminalText.maxNameCharacters)
        #expect(shown.hasSuffix("…"))
        let welsh = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"
        #expect(TerminalText.name(welsh) == welsh)
        #expect(TerminalText.name("  Köln \n") == "Köln")
    }

    @Test("an echo in an error shows each dropped character as \\u{…} and is capped")
    func echoShowsEscapes() {
        #expect(TerminalText.echo("0x10\u{1B}[2J,0") == "0x10\\u{1B}[2J,0")
        #expect(TerminalText.echo("a\u{202E}b") == "a\\u{202E}b")
        #expect(TerminalText.echo("a\nb") == "a b")
        #expect(TerminalText.echo(String(repeating: "h", count: 100_000)).count == TerminalText.maxEchoCharacters)
    }

    @Test("stdout text keeps its own newlines and drops the rest; a stderr message is one line, the rest escaped")
    func streams() {
        let text = "line one \(Self.hostileTown)\nline\ttwo\n"
        let out = TerminalText.forStdout(text)
        #expect(!Self.hasUnsafe(out, allowNewline: true))
        #expect(out == "line one ]0;pwned[2JTown\nline two\n")
        let err = TerminalText.forStderrMessage(text)
        #expect(!Self.hasUnsafe(err, allowNewline: true))
        #expect(err == "line one \\u{1B}]0;pwned\\u{07}\\u{1B}[2JTown line two\n")
        // The line ends at the end are the caller's and stay; a clean message is given back as it is.
        #expect(TerminalText.forStderrMessage("storage: the disk is full.\n\n") == "storage: the disk is full.\n\n")
        #expect(TerminalText.forStderrMessage("a\nb") == "a b")
        #expect(TerminalText.forStdout("plain\n") == "plain\n")
    }

    @Test func colouredStdoutKeepsOnlyColourSequences() {
        let text = "\u{1B}[31m[SEVERE]\u{1B}[0m Heat \u{1B}]0;pwned\u{07}\u{1B}[2JTown\u{9B}31m\n"
        let out = TerminalText.forStdoutKeepingColour(text)
        #expect(out == "\u{1B}[31m[SEVERE]\u{1B}[0m Heat ]0;pwned[2JTown31m\n")
        // The plain route keeps no escape at all.
        #expect(!TerminalText.forStdout(text).unicodeScalars.contains("\u{1B}"))
    }

    @Test("reading the UTF-8 bytes finds exactly the scalars isUnsafe refuses, alone and inside text")
    func byteScanAgreesWithIsUnsafe() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // the surrogates
            let alone = String(Character(scalar))
            let inside = "a°" + alone + "—b"
            let unsafe = TerminalText.isUnsafe(scalar)
            if TerminalText.hasUnsafeScalar(alone) != unsafe || TerminalText.hasUnsafeScalar(inside) != unsafe
                || TerminalText.needsCleaning(inside) != (unsafe && scalar != "\n")
            {
                disagreements.append(value)
            }
        }
        #expect(disagreements.isEmpty)
        #expect(!TerminalText.hasUnsafeScalar("Ω😀北京 🇩🇪"))
        #expect(TerminalText.hasUnsafeScalar("Ω😀\u{202E}"))
    }

    @Test("a line with nothing to clean comes back as it was; one with something is cleaned")
    func cleanLineUnchanged() {
        let clean = "Truckee, California · 12.3 °C — overcast …"
        #expect(TerminalText.line(clean) == clean)
        #expect(TerminalText.line("a\u{1B}[2Jb\u{200F}c") == "a[2Jbc")
    }
}
