import FoundationEssentials

/// Decides whose reports count when one gpsd serves several receivers: the one that gave the last
/// fix, while it keeps giving them.
///
/// gpsd sends every device's reports on one connection, each naming its device. Two receivers (a USB
/// receiver and a laptop's mobile-broadband card with GNSS, which has no fix indoors) interleave: the
/// card's "no fix" after each of the receiver's fixes made the fix lost and found once a second, its
/// satellite count replaced the receiver's, and two fixes' clocks a fraction apart read as time
/// running backwards. So a report from another device does not count while the chosen one has a fix
/// and its last fix is less than `holdS` older than the report, by the receivers' own clocks (GNSS
/// time, the same for both; arrival times are not: a headless run reads ten seconds of reports at
/// once and dates the fixes back, not the rest). Another device's report without a time does not
/// count while the chosen one has a fix (the receiver's silence, `ReceiverSilence`, says when that
/// one is gone). The chosen device's own "no fix" counts, and then others' do. Reports that name no
/// device (one receiver, an old gpsd) always count.
public struct ReceiverChoice: Sendable, Hashable {
    /// 5 s: five of a 1 Hz receiver's epochs; a receiver that gave no fix for that long has lost it
    /// or gone.
    public static let holdS = 5.0

    /// The device whose fixes count (nil before the first fix).
    public private(set) var chosen: String?
    /// The chosen device's last report claimed a fix.
    public private(set) var chosenHasFix = false
    private var lastFixTime: Date?

    public init() {}

    /// Whether a report from `device` that does or does not claim a fix, with the receiver's time
    /// `receiverTime` (nil: none sent), counts.
    public mutating func counts(device: String?, claimsFix: Bool, receiverTime: Date?) -> Bool {
        guard let device else { return true }
        if chosen != nil, device != chosen, chosenHasFix {
            guard let time = receiverTime, let last = lastFixTime, time.timeIntervalSince(last) >= Self.holdS else {
                return false
            }
        }
        if claimsFix {
            chosen = device
            chosenHasFix = true
            if let receiverTime { lastFixTime = receiverTime }
        } else if device == chosen {
            chosenHasFix = false
        }
        return true
    }

    /// Whether a report from `device` (a SKY, which carries no fix) is another device's while the
    /// chosen one has a fix: then it does not count either.
    public func isOthers(_ device: String?) -> Bool {
        guard let device, let chosen else { return false }
        return device != chosen && chosenHasFix
    }

    /// A new connection: the choice is made again.
    public mutating func reset() {
        chosen = nil
        chosenHasFix = false
        lastFixTime = nil
    }
}
