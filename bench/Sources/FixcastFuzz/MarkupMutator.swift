/// Mutations of XML (GPX routes, MeteoAlarm's feeds) by its tokens: a tag, a run of text. Elements are
/// repeated (100,001 points), nested past the depth limit, given hostile numbers, entities, character
/// references, DOCTYPEs and thousands of attributes, and the document kind's own hostile fragments are
/// put between tokens; then, sometimes, the bytes are corrupted.
public struct MarkupMutator: Sendable {
    let seeds: [[UInt8]]
    /// How large a case grows: just past the reader's own limit (`XMLStreamReader.maxBytes`), or less (the
    /// test suite's cases stay small, for time).
    let limit: Int
    /// What is put between two tokens: `markupInsertions` and the document kind's own fragments.
    let insertions: [String]
    /// The start tags whose element is repeated many times (a route's points, a feed's entries).
    let repeated: [String]

    public init(
        seeds: [[UInt8]], maxBytes: Int = (8 << 20) + 4096, insertions: [String] = gpxInsertions,
        repeated: [String] = ["<trkpt", "<rtept"]
    ) {
        self.seeds = seeds.filter { !$0.isEmpty }
        limit = maxBytes
        self.insertions = Self.markupInsertions + insertions
        self.repeated = repeated
    }

    /// What hostile XML of any kind puts between two tokens.
    static let markupInsertions = [
        "<!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>", "<!DOCTYPE gpx>",
        "<!DOCTYPE gpx [ <!ELEMENT gpx ANY> ]>", "<!-- c -->", "<!-- unclosed", "<![CDATA[x<y>&z]]>", "<![CDATA[",
        "]]>", "&#0;", "&#x110000;", "&#xD800;", "&#x1B;[2J", "&#x202E;", "&#x85;", "&#1114111;", "&#-1;",
        "&#x;", "&#99999999999999999999;", "&bogus;", "&", "&amp;", "&lt;&gt;&quot;&apos;", "<", ">",
        "<?xml version=\"1.0\"?>", "<?pi", "<!x>", "<a b=\"1\" b=\"2\"/>", "<a b=1/>", "<a b=\"<\"/>", "<a\u{0}/>",
        "<1a/>", "<-a/>", "<a:b:c/>", "<\u{202E}a/>", "<x xmlns:p=\"urn:p\"><p:y/></x>", "<p:undeclared/>",
        "\u{FEFF}", "\r\n", " ",
    ]

    /// A GPX file's own.
    public static let gpxInsertions = [
        "</gpx>", "</trkpt>", "<gpx>", "<name>\u{1B}]0;t\u{7}</name>", "<name>&#x1B;]0;title&#x7;</name>",
        "<name>\u{9B}31m&#x202E;</name>", "<rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"3\" lon=\"4\"/></rte>",
        "<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk>",
        "<metadata><name>m</name></metadata>",
    ]

    public func mutate(_ g: inout FuzzRandom) -> [UInt8] {
        guard !seeds.isEmpty else { return [] }
        var tokens = Self.tokens(g.pick(seeds))
        for _ in 0..<(1 + g.below(4)) { mutateOnce(&tokens, &g) }
        var bytes = Array(tokens.joined())
        if g.oneIn(4) { bytes = ByteMutator.mutateText(bytes, &g) }
        return bytes
    }

    /// Markup (`<` to the next `>`) and the text between, in order; joined they are the input.
    static func tokens(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            var j = i + 1
            if bytes[i] == UInt8(ascii: "<") {
                while j < bytes.count, bytes[j - 1] != UInt8(ascii: ">") { j += 1 }
            } else {
                while j < bytes.count, bytes[j] != UInt8(ascii: "<") { j += 1 }
            }
            out.append(Array(bytes[i..<min(j, bytes.count)]))
            i = j
        }
        return out
    }

    func mutateOnce(_ tokens: inout [[UInt8]], _ g: inout FuzzRandom) {
        let at = g.below(tokens.count + 1)
        switch g.below(9) {
        case 0:
            tokens.insert(Array(g.pick(insertions).utf8), at: at)
        case 1 where !tokens.isEmpty:
            tokens.remove(at: min(at, tokens.count - 1))
        case 2:
            // A point or an entry repeated, past the 100,000-point limit at times.
            guard let element = repeatedElement(tokens, &g) else { return }
            let copies = min(g.pick([2, 100, 10_000, 100_001]), limit / max(1, element.count))
            tokens.insert(Array(repeating: element, count: copies).flatMap { $0 }, at: at)
        case 3:
            // Nesting around and past the 32-level limit.
            let depth = g.pick([8, 31, 32, 33, 1000])
            tokens.insert(Array(String(repeating: "<x>", count: depth).utf8), at: at)
            tokens.insert(Array(String(repeating: "</x>", count: depth).utf8), at: min(tokens.count, at + 1))
        case 4:
            // A coordinate replaced by a hostile decimal.
            guard
                let index = tokens.indices.filter({ tokens[$0].starts(with: Array("<".utf8)) }).randomElement(using: &g)
            else { return }
            tokens[index] = replacingAttribute(tokens[index], &g)
        case 5:
            // Thousands of distinct attributes in one tag.
            let count = min(g.pick([100, 10_000, 200_000]), limit / 8)
            var tag = Array("<gpx".utf8)
            for k in 0..<count { tag += Array(" a\(k)=\"\"".utf8) }
            tag += Array(">".utf8)
            tokens.insert(tag, at: at)
        case 6 where tokens.count > 1:
            tokens.swapAt(g.below(tokens.count), g.below(tokens.count))
        case 7:
            // A long name, text or comment.
            let text = String(
                repeating: g.pick(["x", "é", "&amp;", "&#x202E;", "\u{301}", " "]),
                count: min(g.pick([101, 5000, 500_000]), limit / 8))
            tokens.insert(Array(("<name>" + text + "</name>").utf8), at: at)
        default:
            tokens = Array(tokens.prefix(at))
        }
    }

    /// One of the `repeated` elements of `tokens`, whole: from its start tag to its end tag (a point's
    /// `<ele>` and `<time>`, an entry's fields), or the start tag alone when it is self-closed or not
    /// closed at all.
    func repeatedElement(_ tokens: [[UInt8]], _ g: inout FuzzRandom) -> [UInt8]? {
        let starts = tokens.indices.filter { i in repeated.contains { tokens[i].starts(with: Array($0.utf8)) } }
        guard let start = starts.randomElement(using: &g) else { return nil }
        let tag = tokens[start]
        if tag.dropLast().last == UInt8(ascii: "/") { return tag }
        let name = tag.dropFirst().prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ">") && $0 != 0x09 }
        let end = Array("</".utf8) + name + Array(">".utf8)
        guard let close = tokens[start...].firstIndex(where: { $0 == end }) else { return tag }
        return Array(tokens[start...close].joined())
    }

    func replacingAttribute(_ tag: [UInt8], _ g: inout FuzzRandom) -> [UInt8] {
        let text = String(decoding: tag, as: UTF8.self)
        for key in ["lat=\"", "lon=\"", "version=\""].shuffled(using: &g) {
            guard let start = text.firstRange(of: key), let end = text[start.upperBound...].firstIndex(of: "\"") else {
                continue
            }
            let value = key == "version=\"" ? g.pick(["1.1", "1.0", "2.0", "", "1.1 "]) : g.pick(FuzzValues.decimals)
            return Array((text[..<start.upperBound] + value + text[end...]).utf8)
        }
        return tag
    }
}

/// Mutations of TOML config files by line: values swapped for hostile ones, lines repeated or dropped,
/// sections repeated, keys moved between sections; then, sometimes, bytes.
public struct LineMutator: Sendable {
    let seeds: [[UInt8]]

    public init(seeds: [[UInt8]]) { self.seeds = seeds.filter { !$0.isEmpty } }

    static let values = [
        "\"127.0.0.1\"", "2947", "0", "-1", "65536", "1e308", "1e999", "-0", "-0.0", "nan", "+inf", "-inf",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1_000", "1__0", "_1", "0x10", "0o7",
        "01", "1.", ".5", "1e", "true", "false", "True", "\"\"", "''", "\"\\u0000\"", "\"\\uD800\"", "\"\\U0011FFFF\"",
        "\"\\U0010FFFF\"", "\"\\x41\"", "\"\\q\"", "\"\\", "\"unterminated", "'lit", "'''x'''", "\"\"\"x\"\"\"",
        "[1,2]",
        "{a=1}", "2026-01-01", "\"\u{1B}[2J\"", "\"\\u001b]0;pwned\\u0007\"", "\"\u{202E}\"",
        "\"" + String(repeating: "x", count: 100_000) + "\"", "\"http://example.com\"", "\"https://127.0.0.1:1/\"",
        "\"metric\"", "\"imperial\"", "\"open-meteo\"", "\"metno\"", "\"openweathermap\"", "\"offline\"", "\"auto\"",
        "\"none\"", "\"en\"", "\"zh\"", "\"xx\"",
    ]

    public func mutate(_ g: inout FuzzRandom) -> [UInt8] {
        guard !seeds.isEmpty else { return [] }
        var lines = g.pick(seeds).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        for _ in 0..<(1 + g.below(5)) {
            if lines.isEmpty { lines = [[]] }
            let at = g.below(lines.count)
            switch g.below(8) {
            case 0, 1:
                // key = <hostile value>
                guard let eq = lines[at].firstIndex(of: UInt8(ascii: "=")) else { continue }
                lines[at] = Array(lines[at][...eq]) + Array((" " + g.pick(Self.values)).utf8)
            case 2: lines.insert(lines[g.below(lines.count)], at: at)
            case 3: lines.remove(at: at)
            case 4:
                lines.insert(
                    Array(
                        g.pick([
                            "[gps]", "[[x]]", "[a.b]", "[]", "[weather", "x.y = 1", "= 1", "\"k\" = 1", "k = ",
                            "[display] # c", "\u{FEFF}[gps]",
                        ]).utf8), at: at)
            case 5: lines[at] += Array(g.pick(["\r", " # comment", " x", "\t", "\u{0}"]).utf8)
            case 6 where lines[at].last.map({ $0 >= 0x30 && $0 <= 0x39 }) == true:
                // A count or a number at the end of a line (a table's `#regions\t3603`) made hostile.
                let digits = lines[at].reversed().prefix { $0 >= 0x30 && $0 <= 0x39 }.count
                lines[at] =
                    Array(lines[at].dropLast(digits))
                    + Array(g.pick(["0", "1", "-1", "999999999999", "99999999999999999999", "2147483648"]).utf8)
            default: lines.swapAt(at, g.below(lines.count))
            }
        }
        var bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        if g.oneIn(4) { bytes = ByteMutator.mutateText(bytes, &g) }
        return bytes
    }
}
