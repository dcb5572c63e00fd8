import FixcastText
import FoundationEssentials

/// MeteoAlarm's per-country Atom feed (`feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-<country>`):
/// one Atom `entry` per warning and region, with CAP 1.2 fields beside Atom's own. Elements are matched
/// by namespace and local name, never by prefix: the feed binds CAP to `cap:`, another prefix reads
/// the same.
///
/// Decoding only, from the document's tree: the adapters read the bytes with libxml2
/// (`XMLDocumentReader`) and the core parses no XML. The feed names regions by geocode and seldom has
/// polygons, so which entries apply at a position is `MeteoAlarmFeedAlerts`' business (with the bundled
/// area table).
public enum MeteoAlarmAtomDecoder {
    /// Atom 1.0's namespace (RFC 4287), the feed's default one.
    public static let atom = "http://www.w3.org/2005/Atom"
    /// CAP 1.2's namespace (OASIS): the feed's `cap:` fields, and every element of a CAP message.
    public static let cap = "urn:oasis:names:tc:emergency:cap:1.2"

    static let feed = XMLName(namespace: atom, "feed")
    static let entry = XMLName(namespace: atom, "entry")

    /// The feed's `<updated>` (its own time). Read by the tests of the recorded feeds only: a source's
    /// `fetchedAt` is when fixcast received the feed, on its own clock.
    public static func updated(_ feed: XMLElement) -> Date? {
        guard feed.name == Self.feed else { return nil }
        return feed.child(named: XMLName(namespace: atom, "updated")).flatMap { UTCTime.parse($0.text) }
    }

    /// The feed's entries, when the document is an Atom feed (its root is Atom's `feed`). That the
    /// document is whole is the reader's part: a feed cut short (a proxy or a dropped connection that
    /// still answered 200 with a matching length) is not well-formed XML and never becomes a tree, so it
    /// is refused rather than read as the entries before the cut: a warning in the missing part would
    /// read as "no alerts here", which is never to be said for a failed answer.
    public static func entries(_ feed: XMLElement) throws(AlertDecodeFailure) -> [XMLElement] {
        guard feed.name == Self.feed else {
            throw AlertDecodeFailure(
                "not an Atom feed (the root element is <\(ErrorText.clause(feed.name.description))>)")
        }
        return feed.children(named: entry)
    }

    /// `entry` as a message that still counts at `now`: a Cancel whatever its times (it ends the
    /// warning it joins, `AlertIdentity`), anything else while it has not expired. The one filter of
    /// the feed's alerts here (`MeteoAlarmFeedAlerts`) and ahead (`MeteoAlarmFeedFootprints`).
    static func liveMessage(entry: XMLElement, at now: Date) -> AlertIdentity.Message? {
        guard let message = message(entry: entry), message.kind == .cancel || !message.alert.isExpired(at: now)
        else { return nil }
        return message
    }

    /// One entry as a message of its warning's chain (`AlertIdentity`): an `Alert`, an `Update` or
    /// a `Cancel`, with its `sent`; nil when it is not one (not `Actual`, no identifier). A Cancel
    /// carries no references in this feed: it joins its alert by event, severity, onset, expiry and area.
    static func message(entry: XMLElement) -> AlertIdentity.Message? {
        func cap(_ name: String) -> String? { field(name, of: entry) }
        guard AlertIdentity.isActual(status: cap("status")) else { return nil }
        guard let id = identifier(entry: entry) else { return nil }
        let capLink = entry.children(named: XMLName(namespace: atom, "link"))
            .first { $0.attribute("type") == "application/cap+xml" }?.attribute("href")
        let alert = Alert(
            id: id, event: AlertText.line(cap("event")) ?? "Alert",
            headline: AlertText.line(entry.child(named: XMLName(namespace: atom, "title"))?.text),
            severity: AlertSeverity(cap: cap("severity")), certainty: AlertText.line(cap("certainty")),
            urgency: AlertText.line(cap("urgency")), onset: AlertTime.parse(cap("onset") ?? cap("effective")),
            expires: AlertTime.parse(cap("expires")), ends: nil, area: AlertText.line(cap("areaDesc")),
            description: nil, instruction: nil, url: AlertText.line(capLink))
        return AlertIdentity.Message(
            alert: alert, sent: sent(entry: entry), kind: AlertIdentity.Kind(cap: cap("message_type")))
    }

    /// An entry's identifier: its CAP `identifier`, else its Atom `id` (the alert's id, and the key
    /// `MeteoAlarmEntryAreas` files the entry's areas under).
    static func identifier(entry: XMLElement) -> String? {
        AlertText.line(field("identifier", of: entry) ?? entry.child(named: XMLName(namespace: atom, "id"))?.text)
    }

    /// An entry's CAP `sent` (the newest of one identifier's copies wins `AlertIdentity`).
    static func sent(entry: XMLElement) -> Date? {
        AlertTime.parse(field("sent", of: entry))
    }

    /// The text of the entry's CAP field `name`, without the white space around it (a feed laid out
    /// over lines puts it there, and XML's dateTime and CAP's codes allow it).
    static func field(_ name: String, of entry: XMLElement) -> String? {
        entry.child(named: XMLName(namespace: cap, name))?.text.trimmingWhitespace()
    }
}
