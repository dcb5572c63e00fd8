import FoundationEssentials

/// Decides which messages are one alert, and what that alert says now (CONTRACT.md "Alerts", issue 21).
///
/// - **One identity**: two messages are one alert when they share an id, when one `references` the
///   other (CAP's chain of updates), or when event, severity, onset, expiry and area all match (the rule
///   for feeds that carry no references and reissue a warning under a new id). Linked through any
///   member, a chain is one alert whatever order its messages arrive in.
/// - **Latest text**: the most recently `sent` message wins; where the times do not tell, the one that
///   references the other, then a `Cancel`, then the most severe (so a feed listing an id twice can
///   never make `alerts.command` run for the milder copy), then the first listed.
/// - **Ends**: when that latest message is a `Cancel`; or, at a given moment, when it has expired.
/// - **Name**: the alert keeps the id of the chain's first message (the earliest `sent`; without
///   times, the one that references nothing), so that an update is not a new alert to anything keyed
///   by id (`alerts.command`, the MQTT `alert` topic, the store); the other ids become `aliases`.
///   `continuing` carries that name from one answer to the next, whose chain may no longer list it.
public enum AlertIdentity {
    /// CAP `msgType` (NWS `messageType`, MetAlerts `type`, MeteoAlarm `message_type`).
    public enum Kind: Sendable, Hashable {
        case alert, update, cancel

        /// `Update` and `Cancel` in any case; anything else (`Alert`, absent, unknown) is a first message.
        public init(cap text: String?) {
            switch text?.lowercased() {
            case "update": self = .update
            case "cancel": self = .cancel
            default: self = .alert
            }
        }
    }

    /// CAP `status`: only an `Actual` message is an alert (`Exercise`, `System`, `Test` and `Draft`
    /// are not); one without a status counts as actual, as the feeds that leave it out mean.
    public static func isActual(status: String?) -> Bool { status == nil || status == "Actual" }

    /// One earlier message a message names in `references`.
    public struct Reference: Sendable, Hashable {
        public var id: String
        public var sent: Date?

        /// nil for an id that cleans to nothing.
        public init?(id: String?, sent: Date?) {
            guard let clean = AlertText.line(id) else { return nil }
            self.id = TextCap.capped(clean, maxBytes: TextCap.alertID)
            self.sent = sent
        }
    }

    /// One decoded message: the alert, its CAP `sent` time (nil when the feed gives none), its kind
    /// and the earlier messages it references.
    public struct Message: Sendable, Hashable {
        public var alert: Alert
        public var sent: Date?
        public var kind: Kind
        public var references: [Reference]

        public init(alert: Alert, sent: Date?, kind: Kind = .alert, references: [Reference] = []) {
            self.alert = alert
            self.sent = sent
            self.kind = kind
            self.references = Array(references.prefix(AlertIdentity.maxReferences))
        }
    }

    /// References kept per message, and aliases per alert: a real chain names a handful of earlier
    /// messages (NWS lists each update of a warning); a hostile one must not grow a reading.
    public static let maxReferences = 64

    /// One alert per identity, in the order each was first listed; a chain whose latest message is a
    /// `Cancel` is left out. Expired alerts stay (`AlertReport.fetched` drops them at its `now`).
    public static func onePerIdentity(_ messages: [Message]) -> [Alert] {
        var groups = DisjointSets(count: messages.count)
        var holder: [String: Int] = [:]
        for (i, message) in messages.enumerated() {
            for key in keys(message) {
                if let j = holder[key] { groups.join(i, j) } else { holder[key] = i }
            }
        }
        var order: [Int] = []
        var members: [Int: [Int]] = [:]
        for i in messages.indices {
            let root = groups.root(i)
            if members[root] == nil { order.append(root) }
            members[root, default: []].append(i)
        }
        return order.compactMap { root in
            let chain = (members[root] ?? []).map { messages[$0] }
            guard var latest = chain.first else { return nil }
            for candidate in chain.dropFirst() where isNewer(candidate, than: latest) { latest = candidate }
            guard latest.kind != .cancel else { return nil }
            let (name, aliases) = names(chain)
            var alert = latest.alert
            alert.id = name
            alert.aliases = aliases
            return alert
        }
    }

    /// The whole rule at `now`: one alert per identity, cancelled and expired ones ended.
    public static func current(_ messages: [Message], at now: Date) -> [Alert] {
        onePerIdentity(messages).filter { !$0.isExpired(at: now) }
    }

    /// The alerts of a new answer, each that continues an alert of the last answer (shares its id, an
    /// alias, or event, severity, onset, expiry and area) under that alert's id, with the aliases of
    /// both: a chain whose latest message no longer names the first stays one alert across answers.
    public static func continuing(_ current: [Alert], from previous: [Alert]) -> [Alert] {
        guard !previous.isEmpty else { return current }
        var owner: [String: Int] = [:]
        for (i, alert) in previous.enumerated() {
            for key in keys(alert) where owner[key] == nil { owner[key] = i }
        }
        var taken = Set<Int>()
        return current.map { alert in
            guard let i = keys(alert).lazy.compactMap({ owner[$0] }).first(where: { !taken.contains($0) }) else {
                return alert
            }
            taken.insert(i)
            let earlier = previous[i]
            var carried = alert
            carried.id = earlier.id
            // Newest first, so the cap (`maxReferences`) drops the oldest: the next update names the
            // latest messages, and a chain longer than the cap (a river's flood warning, updated twice a
            // day for a month) kept its first 64 ids and lost its way.
            carried.aliases = unique([alert.id] + alert.aliases + earlier.aliases, without: earlier.id)
            return carried
        }
    }

    /// What makes two entries without references one alert: event, severity, onset, expiry and area;
    /// nil when onset, expiry or area is unknown (then two unrelated warnings could not be told apart).
    public static func sameAlertKey(_ a: Alert) -> String? {
        guard let onset = a.onset, let expires = a.expires, let area = a.area else { return nil }
        return [a.event, a.severity.rawValue, UTCTime.format(onset), UTCTime.format(expires), area].joined(
            separator: "\u{1F}")
    }

    /// CAP's `references` text: space-separated `sender,identifier,sent` triples (MetAlerts and
    /// MeteoAlarm CAP). A triple that is not one is skipped.
    public static func references(cap text: String?) -> [Reference] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).prefix(maxReferences)
            .compactMap { triple in
                let parts = triple.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 3 else { return nil }
                return Reference(id: String(parts[1]), sent: AlertTime.parse(String(parts[2])))
            }
    }

    // MARK: - Parts

    private static func keys(_ m: Message) -> [String] {
        ["id:" + m.alert.id] + m.references.map { "id:" + $0.id } + (sameAlertKey(m.alert).map { ["same:" + $0] } ?? [])
    }

    private static func keys(_ a: Alert) -> [String] {
        ["id:" + a.id] + a.aliases.map { "id:" + $0 } + (sameAlertKey(a).map { ["same:" + $0] } ?? [])
    }

    static func isNewer(_ candidate: Message, than held: Message) -> Bool {
        if let a = held.sent, let b = candidate.sent, a != b { return b > a }
        if candidate.references.contains(where: { $0.id == held.alert.id }) { return true }
        if held.references.contains(where: { $0.id == candidate.alert.id }) { return false }
        if (candidate.kind == .cancel) != (held.kind == .cancel) { return candidate.kind == .cancel }
        return candidate.alert.severity > held.alert.severity
    }

    /// The chain's first id (earliest sent; unknown times after known ones; then one whose message
    /// references nothing; then the smallest, so the choice does not depend on the order listed), and
    /// every other id of the chain.
    private static func names(_ chain: [Message]) -> (String, [String]) {
        struct Candidate {
            var id: String
            var sent: Date?
            var references: Bool
        }
        var candidates: [String: Candidate] = [:]
        var listed: [String] = []
        func add(_ id: String, sent: Date?, references: Bool) {
            if var held = candidates[id] {
                if let sent, held.sent.map({ sent < $0 }) ?? true { held.sent = sent }
                held.references = held.references || references
                candidates[id] = held
            } else {
                candidates[id] = Candidate(id: id, sent: sent, references: references)
                listed.append(id)
            }
        }
        for m in chain {
            add(m.alert.id, sent: m.sent, references: !m.references.isEmpty)
            for r in m.references { add(r.id, sent: r.sent, references: false) }
        }
        let first = candidates.values.min { a, b in
            switch (a.sent, b.sent) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if a.references != b.references { return !a.references }
            return a.id < b.id
        }
        let name = first?.id ?? chain[0].alert.id
        return (name, unique(listed, without: name))
    }

    private static func unique(_ ids: [String], without name: String) -> [String] {
        var seen: Set<String> = [name]
        return Array(ids.filter { seen.insert($0).inserted }.prefix(maxReferences))
    }
}

/// Union–find over message indices (path halving, union by index), for grouping a chain's members.
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ i: Int) -> Int {
        var i = i
        while parent[i] != i {
            parent[i] = parent[parent[i]]
            i = parent[i]
        }
        return i
    }

    mutating func join(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }
}
