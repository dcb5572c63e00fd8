import FixcastCore
import Foundation
import Testing

/// `StateFamilyLimit`: a family of state keys kept to the last day and the newest `limit`.
@Suite struct StateFamilyLimitTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    let family = StateFamilyLimit(prefix: "f.", maxAgeS: 86_400, limit: 3)

    static func at(_ secondsAgo: Double) -> Date { now.addingTimeInterval(-secondsAgo) }

    @Test func olderThanADayUnreadableOrFarAheadGo() {
        let entries: [(key: String, time: Date?)] = [
            ("f.fresh", Self.at(60)), ("f.day", Self.at(86_400)), ("f.old", Self.at(86_401)), ("f.none", nil),
            ("f.ahead", Self.at(-86_401)), ("f.soon", Self.at(-600)),
        ]
        #expect(Set(family.keysToDrop(entries, now: Self.now)) == ["f.old", "f.none", "f.ahead"])
    }

    @Test func pastTheLimitTheOldestGo() {
        let entries: [(key: String, time: Date?)] = (0..<6).map { ("f.\($0)", Self.at(Double($0) * 600)) }
        #expect(Set(family.keysToDrop(entries.shuffled(), now: Self.now)) == ["f.3", "f.4", "f.5"])
    }

    @Test func aTieIsBrokenByTheKeySoTheAnswerIsTheSameEveryTime() {
        let entries: [(key: String, time: Date?)] = ["f.d", "f.a", "f.c", "f.b"].map { ($0, Self.at(60)) }
        #expect(family.keysToDrop(entries, now: Self.now) == ["f.d"])
        #expect(family.keysToDrop(entries.reversed(), now: Self.now) == ["f.d"])
    }

    @Test func beyondTheNewestIsTheOldestPastTheLimit() {
        let entries: [(key: String, time: Date)] = (0..<5).map { ("k\($0)", Self.at(Double($0))) }
        #expect(StateFamilyLimit.beyondNewest(entries.shuffled(), limit: 2) == ["k2", "k3", "k4"])
        #expect(StateFamilyLimit.beyondNewest(entries, limit: 5).isEmpty)
        #expect(StateFamilyLimit.beyondNewest(entries, limit: 0).count == 5)
        #expect(StateFamilyLimit.beyondNewest([("b", Self.now), ("a", Self.now)], limit: 1) == ["b"])
    }

    @Test func withinTheLimitAndTheDayNothingGoes() {
        let entries: [(key: String, time: Date?)] = [("f.a", Self.at(0)), ("f.b", Self.at(3600))]
        #expect(family.keysToDrop(entries, now: Self.now).isEmpty)
        #expect(family.keysToDrop([], now: Self.now).isEmpty)
        #expect(StateFamilyLimit(prefix: "f.", maxAgeS: 60, limit: -1).limit == 0)
    }

    @Test func aRecordsCheckedAtIsReadFromItsHead() {
        let at = "2027-01-15T08:00:00Z"
        #expect(StateFamilyLimit.checkedAt(#"{"checked_at":"\#(at)","footprint":null}"#) == Self.now)
        #expect(StateFamilyLimit.checkedAt(#"{"feed":"france","checked_at":"\#(at)","body":"…"#) == Self.now)
        #expect(StateFamilyLimit.checkedAt(#"{"feed":"x"}"#) == nil)
        #expect(StateFamilyLimit.checkedAt(#"{"checked_at":"soon"}"#) == nil)
        #expect(StateFamilyLimit.checkedAt(#"{"checked_at":"\#(String(repeating: "9", count: 40))"}"#) == nil)
        let late =
            #"{"feed":""# + String(repeating: "x", count: StateFamilyLimit.headLength) + #"","checked_at":"\#(at)"}"#
        #expect(StateFamilyLimit.checkedAt(late) == nil, "past the head: not read")
    }

    /// The trim through the port: only the family's keys are read and dropped.
    @Test func trimDropsOnlyTheFamilysKeysItNames() async {
        let store = FamilyMemoryState([
            "f.keep": "\(Self.at(60).timeIntervalSince1970)", "f.old": "\(Self.at(90_000).timeIntervalSince1970)",
            "f.junk": "x", "g.other": "x",
        ])
        await store.trim(family, now: Self.now) { Double($0).map { Date(timeIntervalSince1970: $0) } }
        #expect(await store.values.keys.sorted() == ["f.keep", "g.other"])
    }
}

/// A `StateStore` in memory, for the trim's test.
actor FamilyMemoryState: StateStore {
    var values: [String: String]
    init(_ values: [String: String]) { self.values = values }
    func state(_ key: String) async throws(StorageError) -> String? { values[key] }
    func setState(_ key: String, _ value: String?) async throws(StorageError) { values[key] = value }
    func stateHeads(prefix: String, length: Int) async throws(StorageError) -> [String: String] {
        values.filter { $0.key.hasPrefix(prefix) }.mapValues { String($0.prefix(length)) }
    }
}
