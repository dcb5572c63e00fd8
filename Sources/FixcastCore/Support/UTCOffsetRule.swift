import FoundationEssentials

/// The local clock's offset from UTC as a rule over instants, not a number read once.
///
/// A time zone's offset changes with daylight saving time: a sunrise in July and a "no fix since"
/// in January are an hour apart in Berlin, and a long-running `fixcast run` crosses the change.
/// Pure code asks the rule for the offset at the instant it shows; the adapter behind
/// `LocalTimeOffset.system` asks the C library (localtime_r) per instant. Two rules are equal when
/// their names are (a fixed offset is named by its seconds), so display options stay comparable.
public struct UTCOffsetRule: Sendable, Hashable {
    /// Identifies the rule ("localtime", "UTC+3600"); equality and hashing go by it.
    public let name: String
    private let offsetAt: @Sendable (Date) -> Int

    public init(name: String, offsetAt: @escaping @Sendable (Date) -> Int) {
        self.name = name
        self.offsetAt = offsetAt
    }

    /// The same offset at every instant (tests, and UTC).
    public static func fixed(_ seconds: Int) -> UTCOffsetRule {
        UTCOffsetRule(name: "UTC\(seconds >= 0 ? "+" : "")\(seconds)") { _ in seconds }
    }

    public static let utc = fixed(0)

    /// Seconds east of UTC at `date`.
    public func seconds(at date: Date) -> Int { offsetAt(date) }

    public static func == (a: UTCOffsetRule, b: UTCOffsetRule) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
