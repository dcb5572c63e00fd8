import FoundationEssentials

/// Decides whose reports count when one gpsd serves several receivers: the one that gave the last
/// fix, while it keeps giving them.
///
/// gpsd sends every device's reports on one connection, each naming its device. Two receivers (a USB
/// receiver and a laptop's mobile-broadband card with GNSS, which has no fix indoors) interleave: the
/// card's "no fix" after each of the receiver's fixes made the fix lost and found once a second, and two
/// fixes' clocks a fraction apart read as time running backwards. So a report from another device does
/// not count while the chosen one gave a fix within `holdS`; after that (its receiver lost the fix or
/// went quiet), another's fix is chosen. Reports that name no device (one receiver, an old gpsd) always
/// count. Times are the reports' arrival times.
public struct ReceiverChoice: Sendable, Hashable {
    /// 5 s: five of a 1 Hz receiver's epochs; a receiver that gave no fix for that long has lost it
    /// (then its own "no fix" reports have said so) or gone.
    public static let holdS = 5.0

    /// The device whose fixes count (nil before the first fix).
    public private(set) var chosen: String?
    private var lastFixAt: Date?

    public init() {}

    /// Whether a report from `device` that does or does not claim a fix, arriving at `now`, counts.
    public mutating func counts(device: String?, claimsFix: Bool, at now: Date) -> Bool {
        guard let device else { return true }
        if let chosen, chosen != device, let last = lastFixAt, now >= last, now.timeIntervalSince(last) < Self.holdS {
            return false
        }
        if claimsFix {
            chosen = device
            lastFixAt = now
        }
        return true
    }

    /// A new connection: the choice is made again.
    public mutating func reset() {
        chosen = nil
        lastFixAt = nil
    }
}
