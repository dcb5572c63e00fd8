import FoundationEssentials

/// Decides which keys of a family in the store's `state` table to drop. Some families grow with
/// travel — one key per rounded position asked of MET Norway (its validators), one per NWS zone asked
/// for alerts ahead (its geometry) — and were never removed, so a year of driving filled the table
/// with entries no run would use again. Each family is kept to what can still be used:
/// - an entry older than `maxAgeS` goes (by then it is asked again anyway), and so does one dated
///   further ahead than that (written under a clock that was wrong) or whose time cannot be read (not
///   fixcast's text);
/// - of the rest, the newest `limit` stay.
public struct StateFamilyLimit: Sendable, Hashable {
    /// The keys' common beginning.
    public let prefix: String
    public let maxAgeS: Double
    public let limit: Int

    /// How much of each value the trim reads: a record's time comes first or second, before its body
    /// (a feed copy can be 2 MiB).
    public static let headLength = 256

    /// The time of a JSON record fixcast keeps (`"checked_at":"…"`, within its first `headLength`
    /// characters, as the alert checks and zones write it); nil for any other text.
    public static func checkedAt(_ head: String) -> Date? {
        let label = #""checked_at":""#
        guard let start = head.prefix(headLength).firstRange(of: label)?.upperBound else { return nil }
        let time = head[start...].prefix { $0 != "\"" }
        return time.count <= 32 ? UTCTime.parse(String(time)) : nil
    }

    public init(prefix: String, maxAgeS: Double, limit: Int) {
        self.prefix = prefix
        self.maxAgeS = maxAgeS
        self.limit = max(0, limit)
    }

    /// The keys of `entries` (each with the time its text holds, nil when unreadable) to remove at `now`.
    public func keysToDrop(_ entries: [(key: String, time: Date?)], now: Date) -> [String] {
        var drop: [String] = []
        var kept: [(key: String, time: Date)] = []
        for entry in entries {
            guard let time = entry.time, abs(now.timeIntervalSince(time)) <= maxAgeS else {
                drop.append(entry.key)
                continue
            }
            kept.append((entry.key, time))
        }
        return drop + Self.beyondNewest(kept, limit: limit)
    }

    /// The keys of `entries` past the newest `limit`, by time: the one rule of which entries a bounded
    /// family keeps, in the store (`keysToDrop`) and in memory (MET Norway's answers, alert copies).
    public static func beyondNewest(_ entries: [(key: String, time: Date)], limit: Int) -> [String] {
        guard entries.count > limit else { return [] }
        // Newest first; the key breaks a tie, so the same entries always give the same answer.
        let newestFirst = entries.sorted { $0.time != $1.time ? $0.time > $1.time : $0.key < $1.key }
        return newestFirst.dropFirst(max(0, limit)).map(\.key)
    }
}

extension StateStore {
    /// Removes the keys of `family` that `StateFamilyLimit.keysToDrop` names, reading each value's time
    /// with `time` from its first `StateFamilyLimit.headLength` characters. A store that fails only
    /// leaves the family as it was.
    public func trim(_ family: StateFamilyLimit, now: Date, time: (String) -> Date?) async {
        guard let values = try? await stateHeads(prefix: family.prefix, length: StateFamilyLimit.headLength)
        else { return }
        let entries = values.map { (key: $0.key, time: time($0.value)) }
        for key in family.keysToDrop(entries, now: now) { try? await setState(key, nil) }
    }
}
