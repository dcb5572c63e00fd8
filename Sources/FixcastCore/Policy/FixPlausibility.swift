import FixcastText
import FoundationEssentials

/// Why a fix was not used: the keys of `status`'s `rejected_fixes`.
public enum FixRejection: String, Sendable, Hashable, CaseIterable {
    /// (0,0): what receivers and drivers send for "no position" while claiming a fix.
    case nullIsland = "null_island"
    /// Implies a speed over `gps.max_speed_mps` from the last accepted fix.
    case jump
    /// Its time runs backwards, or lies more than a day from the system clock.
    case time
}

/// How many fixes were not used, by reason. Kept by the GPS client, persisted in the store's
/// `state` table under `key` so that `status` (another process) can show them.
public struct RejectedFixCounts: Sendable, Hashable {
    public var nullIsland = 0
    public var jump = 0
    public var time = 0

    /// The `state` key the counts are stored under, as `json` text.
    public static let key = "gps.rejected_fixes"

    public init(nullIsland: Int = 0, jump: Int = 0, time: Int = 0) {
        self.nullIsland = nullIsland
        self.jump = jump
        self.time = time
    }

    /// Saturates at `Int.max`: the counts may have been read back from a damaged store.
    public var total: Int { nullIsland.addingSaturated(jump).addingSaturated(time) }

    public mutating func add(_ reason: FixRejection, count: Int = 1) {
        switch reason {
        case .nullIsland: nullIsland = nullIsland.addingSaturated(count)
        case .jump: jump = jump.addingSaturated(count)
        case .time: time = time.addingSaturated(count)
        }
    }

    public subscript(reason: FixRejection) -> Int {
        switch reason {
        case .nullIsland: return nullIsland
        case .jump: return jump
        case .time: return time
        }
    }

    /// Both sets of counts added (to fold one process's counts into the stored ones).
    public static func + (a: RejectedFixCounts, b: RejectedFixCounts) -> RejectedFixCounts {
        RejectedFixCounts(
            nullIsland: a.nullIsland.addingSaturated(b.nullIsland), jump: a.jump.addingSaturated(b.jump),
            time: a.time.addingSaturated(b.time))
    }

    /// `{"jump": n, "time": n, "null_island": n}`, as in `status --json`.
    public var json: JSONValue {
        .object([("jump", .int(jump)), ("time", .int(time)), ("null_island", .int(nullIsland))])
    }

    /// The counts from their `json` text; nil when the text is not such an object. A missing key
    /// reads 0; a negative or non-integer count makes the whole text unreadable (it was not ours).
    public init?(jsonText: String) {
        guard case .object(let pairs)? = try? JSONValue.parse(jsonText) else { return nil }
        var counts = RejectedFixCounts()
        for (key, value) in pairs {
            guard let reason = FixRejection(rawValue: key) else { continue }
            guard let n = value.intValue, n >= 0 else { return nil }
            counts.add(reason, count: n)
        }
        self = counts
    }
}

/// Decides whether a fix is believable enough to become a position fixcast acts on.
///
/// Receivers and gpsd sometimes report positions that are not where the receiver is: (0,0) with a
/// fix mode, a lone epoch metres or continents away, a stray RMC whose 1994 date gpsd rolls over to
/// 2013. Each such fix used to become a "moved" reading and a track point. The rules:
/// - (0,0) is never used (`isNullIsland`).
/// - A fix that disagrees with the last accepted one (speed over `maxSpeedMps`, time running
///   backwards, or a clock offset that changed by more than a day) is held. So is a first fix more
///   than a day from the system clock. Held fixes are not delivered.
/// - After `agreeingFixes` consecutive held fixes agree with each other, the last of them is
///   accepted: the receiver really moved while fixcast was off, or the log being replayed really is
///   from 2007. A single stray fix never gets that far.
/// Fixes without a receiver time are compared by the time fixcast received them.
public struct FixPlausibility: Sendable, Hashable {
    /// Above any airliner's ground speed (~300 m/s even with a jet stream behind it): only a glitch,
    /// or a receiver taken somewhere else while fixcast was off, moves faster.
    public static let defaultMaxSpeedMps = 600.0
    /// Consecutive agreeing fixes that make a held jump or clock change real. Two is not enough: gpsd
    /// can report one bad epoch twice (once from GGA, once from RMC, with different times when the
    /// receiver stamps them apart), and some receivers repeat their last bad position for a cycle.
    /// Three costs two seconds at 1 Hz after a real jump, nothing beside a 5 km movement trigger.
    public static let agreeingFixes = 3
    /// How far a receiver's time may be from the system clock (and how far the offset between the
    /// two may change between fixes). A day is far beyond any clock's drift or a leap second, and
    /// far below what the GPS week rollover (1024 weeks) or a wrong century makes of a date.
    public static let maxClockOffsetS = 86_400.0
    /// Degrees within which a coordinate counts as (0,0). Receivers send exact zeros, which parse
    /// to exact zeros; 1e-6° (11 cm) only also catches zeros that went through a float conversion
    /// (e.g. a driver's `0.0000001`). It is far below NMEA's resolution (0.0001 minute, 18 cm), so
    /// the only true position it loses is an 11 cm square of the Gulf of Guinea.
    public static let nullIslandToleranceDeg = 1e-6
    /// Below this interval, the distance between two fixes is position scatter, not movement: receivers
    /// report up to 10-20 times a second, and fixes read in one batch can share a receive time.
    static let minimumIntervalS = 1.0

    public let maxSpeedMps: Double

    /// The facts of one fix the rules compare.
    struct Stamp: Sendable, Hashable {
        var coordinate: Coordinate
        var time: Date?
        var receivedAt: Date

        init(_ fix: Fix) {
            coordinate = fix.coordinate
            time = fix.time
            receivedAt = fix.receivedAt
        }

        /// The receiver's clock minus the system clock, when the fix has a time.
        var clockOffsetS: Double? { time.map { $0.timeIntervalSince(receivedAt) } }
    }

    private var lastAccepted: Stamp?
    private var held: [Stamp] = []

    /// - Parameter maxSpeedMps: `gps.max_speed_mps`; a value that is not a positive number is the default.
    public init(maxSpeedMps: Double = FixPlausibility.defaultMaxSpeedMps) {
        self.maxSpeedMps = maxSpeedMps.isFinite && maxSpeedMps > 0 ? maxSpeedMps : Self.defaultMaxSpeedMps
    }

    public static func isNullIsland(_ c: Coordinate) -> Bool {
        abs(c.lat) < nullIslandToleranceDeg && abs(c.lon) < nullIslandToleranceDeg
    }

    /// nil when `fix` may be used (it becomes the last accepted fix); otherwise why not (it is held).
    public mutating func check(_ fix: Fix) -> FixRejection? {
        if Self.isNullIsland(fix.coordinate) { return .nullIsland }
        let stamp = Stamp(fix)
        let problem: FixRejection?
        if let lastAccepted {
            problem = disagreement(from: lastAccepted, to: stamp)
        } else if let offset = stamp.clockOffsetS, abs(offset) > Self.maxClockOffsetS {
            problem = .time
        } else {
            problem = nil
        }
        guard let problem else {
            accept(stamp)
            return nil
        }
        if let previous = held.last, disagreement(from: previous, to: stamp) == nil {
            held.append(stamp)
        } else {
            held = [stamp]
        }
        if held.count >= Self.agreeingFixes {
            accept(stamp)
            return nil
        }
        return problem
    }

    /// Forgets the held fixes (after a reconnect the next fixes start a new run); the last accepted
    /// fix stays, so a jump across a reconnect is still caught.
    public mutating func forgetHeld() {
        held.removeAll()
    }

    private mutating func accept(_ stamp: Stamp) {
        lastAccepted = stamp
        held.removeAll()
    }

    /// Why `b` cannot follow `a`, or nil when it can.
    func disagreement(from a: Stamp, to b: Stamp) -> FixRejection? {
        let interval: Double
        if let ta = a.time, let tb = b.time {
            if tb < ta { return .time }
            if let oa = a.clockOffsetS, let ob = b.clockOffsetS, abs(ob - oa) > Self.maxClockOffsetS { return .time }
            interval = tb.timeIntervalSince(ta)
        } else {
            // After a fix without a time, a dated one must still be within a day of the clock.
            if let ob = b.clockOffsetS, abs(ob) > Self.maxClockOffsetS { return .time }
            interval = abs(b.receivedAt.timeIntervalSince(a.receivedAt))
        }
        let metres = GreatCircle.distanceKm(a.coordinate, b.coordinate) * 1000
        return metres > maxSpeedMps * max(interval, Self.minimumIntervalS) ? .jump : nil
    }
}
