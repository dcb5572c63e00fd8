import FoundationEssentials

/// MeteoAlarm's per-country Atom feed (`feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-<country>`):
/// one `<entry>` per warning and region with CAP fields in the `cap:` namespace.
///
/// Decoding only: the feed names regions by geocode and seldom has polygons, so which entries apply
/// at a position is `MeteoAlarmFeedAlerts`' business (with the bundled area table).
/// A deliberately small reader for this one feed shape (no DTDs, no CDATA needed), not a general
/// XML parser: elements are found by their literal tags, and text is entity-decoded.
public enum MeteoAlarmAtomDecoder {
    /// The feed's `<updated>` (its own time), for tests and for a source's `fetchedAt`.
    public static func updated(_ body: [UInt8]) -> Date? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        let head = text.firstRange(of: "<entry>").map { text[..<$0.lowerBound] } ?? Substring(text)
        return AtomXMLReader.element("updated", in: head).flatMap(UTCTime.parse)
    }

    public static func decode(_ body: [UInt8]) throws(AlertDecodeFailure) -> [Alert] {
        let text = try feedText(body)
        // No `AlertIdentity` here: one entry names one area, and the areas of one warning share its
        // identifier (CONTRACT.md: entries are one alert when event, severity, onset, expiry and area match).
        return AtomXMLReader.blocks("entry", in: text).compactMap(alert(entry:))
    }

    /// The feed's text, when it is a whole Atom feed in UTF-8: it has a `<feed` element and ends with
    /// `</feed>`. A feed cut short (a proxy or a dropped connection that still answered 200 with a
    /// matching length) is refused rather than read as the entries before the cut: a warning in the
    /// missing part would read as "no alerts here", which is never to be said for a failed answer.
    public static func feedText(_ body: [UInt8]) throws(AlertDecodeFailure) -> String {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw AlertDecodeFailure("the feed is not UTF-8")
        }
        guard text.contains("<feed") else { throw AlertDecodeFailure("not an Atom feed (no <feed> element)") }
        var tail = Substring(text)
        while let last = tail.last, last.isWhitespace { tail = tail.dropLast() }
        guard tail.hasSuffix("</feed>") else {
            throw AlertDecodeFailure("the feed is cut short (it does not end with </feed>)")
        }
        return text
    }

    /// One `<entry>` as an alert; nil when it is not one (not `Actual`, a `Cancel`, no identifier).
    static func alert(entry: Substring) -> Alert? {
        guard let message = message(entry: entry), message.kind != .cancel else { return nil }
        return message.alert
    }

    /// One `<entry>` as a message of its warning's chain (`AlertIdentity`): an `Alert`, an `Update` or
    /// a `Cancel`, with its `sent`; nil when it is not one (not `Actual`, no identifier). A Cancel
    /// carries no references in this feed: it joins its alert by event, severity, onset, expiry and area.
    static func message(entry: Substring) -> AlertIdentity.Message? {
        func cap(_ name: String) -> String? { AtomXMLReader.element("cap:" + name, in: entry) }
        if let status = cap("status"), status != "Actual" { return nil }
        guard let id = AlertText.line(cap("identifier") ?? AtomXMLReader.element("id", in: entry)) else { return nil }
        let capLink = AtomXMLReader.attribute("href", ofTagWith: "type=\"application/cap+xml\"", in: entry)
        let alert = Alert(
            id: id, event: AlertText.line(cap("event")) ?? "Alert",
            headline: AlertText.line(AtomXMLReader.element("title", in: entry)),
            severity: AlertSeverity(cap: cap("severity")), certainty: AlertText.line(cap("certainty")),
            urgency: AlertText.line(cap("urgency")), onset: AlertTime.parse(cap("onset") ?? cap("effective")),
            expires: AlertTime.parse(cap("expires")), ends: nil, area: AlertText.line(cap("areaDesc")),
            description: nil, instruction: nil, url: AlertText.line(capLink))
        return AlertIdentity.Message(
            alert: alert, sent: sent(entry: entry), kind: AlertIdentity.Kind(cap: cap("message_type")))
    }

    /// An entry's CAP `sent` (the newest of one identifier's copies wins `AlertIdentity`).
    static func sent(entry: Substring) -> Date? {
        AlertTime.parse(AtomXMLReader.element("cap:sent", in: entry))
    }
}

/// Literal-tag lookups in a small, known XML document, with the five predefined entities and
/// numeric character references decoded.
enum AtomXMLReader {
    /// The contents of every `<name>…</name>` (or `<name attr…>…</name>`) block, in order.
    static func blocks(_ name: String, in text: String) -> [Substring] {
        var out: [Substring] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<" + name),
            let close = rest[open.upperBound...].firstRange(of: "</" + name + ">")
        {
            let afterName = rest[open.upperBound...]
            guard let first = afterName.first, first == ">" || first == " " || first == "\t" || first == "\n",
                let tagEnd = afterName.firstIndex(of: ">"), tagEnd < close.lowerBound
            else {
                rest = rest[open.upperBound...]
                continue
            }
            out.append(rest[rest.index(after: tagEnd)..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return out
    }

    /// The decoded text of the first `<name>` element, or nil.
    static func element(_ name: String, in text: Substring) -> String? {
        blocks(name, in: String(text)).first.map { decodeEntities(String($0)) }
    }

    /// The value of `attribute` in the first tag that contains `marker`.
    static func attribute(_ attribute: String, ofTagWith marker: String, in text: Substring) -> String? {
        guard let m = text.firstRange(of: marker) else { return nil }
        guard let start = text[..<m.lowerBound].lastIndex(of: "<"), let end = text[m.upperBound...].firstIndex(of: ">")
        else { return nil }
        let tag = text[start..<end]
        guard let a = tag.firstRange(of: attribute + "=\"") else { return nil }
        let value = tag[a.upperBound...].prefix { $0 != "\"" }
        return decodeEntities(String(value))
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            var replacement: String?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if name.hasPrefix("#x"), let v = UInt32(name.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                    replacement = String(Character(u))
                } else if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let u = Unicode.Scalar(v) {
                    replacement = String(Character(u))
                }
            }
            if let replacement {
                out += replacement
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        out += rest
        return out
    }
}
