import FixcastCore
import FoundationEssentials
import Testing

@Suite struct ReceiverChoiceTests {
    static func at(_ s: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + s) }

    /// A USB receiver with a fix and a mobile-broadband card without one, interleaved by gpsd: the
    /// card's "no fix" and its stray fixes do not count while the receiver gives fixes.
    @Test func anotherDeviceDoesNotCountWhileTheChosenOneGivesFixes() {
        var choice = ReceiverChoice()
        func counts(_ device: String?, _ fix: Bool, _ t: Double) -> Bool {
            choice.counts(device: device, claimsFix: fix, at: Self.at(t))
        }
        #expect(counts("/dev/wwan0gps", false, 0), "no fix chosen yet")
        #expect(counts("/dev/ttyACM0", true, 0.2))
        #expect(choice.chosen == "/dev/ttyACM0")
        for t in stride(from: 1.0, through: 10, by: 1) {
            #expect(!counts("/dev/wwan0gps", false, t), "\(t)")
            #expect(!counts("/dev/wwan0gps", true, t + 0.1), "\(t)")
            #expect(counts("/dev/ttyACM0", true, t + 0.2), "\(t)")
        }
        // The receiver's own "no fix" counts: it lost it.
        #expect(counts("/dev/ttyACM0", false, 11))
        // 5 s after its last fix, the card's fix is chosen.
        #expect(!counts("/dev/wwan0gps", true, 15.1))
        #expect(counts("/dev/wwan0gps", true, 15.2))
        #expect(choice.chosen == "/dev/wwan0gps")
        #expect(!counts("/dev/ttyACM0", false, 16))
    }

    @Test func unnamedReportsAndANewConnectionAlwaysCount() {
        var choice = ReceiverChoice()
        func counts(_ device: String?, _ fix: Bool, _ t: Double) -> Bool {
            choice.counts(device: device, claimsFix: fix, at: Self.at(t))
        }
        #expect(counts("/dev/a", true, 0))
        #expect(counts(nil, false, 1), "a report naming no device")
        #expect(!counts("/dev/b", true, 1))
        choice.reset()
        #expect(choice.chosen == nil)
        #expect(counts("/dev/b", true, 1.5))
        // A clock read earlier than the last fix (a test's; never the monotonic one) does not hold.
        #expect(counts("/dev/a", false, 0))
    }
}
