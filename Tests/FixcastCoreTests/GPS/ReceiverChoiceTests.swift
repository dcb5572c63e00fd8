import FixcastCore
import FoundationEssentials
import Testing

@Suite struct ReceiverChoiceTests {
    static func at(_ s: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + s) }

    /// A USB receiver with a fix and a mobile-broadband card without one, interleaved by gpsd: the
    /// card's "no fix" and its stray fixes do not count while the receiver gives fixes, by the
    /// receivers' own times.
    @Test func anotherDeviceDoesNotCountWhileTheChosenOneGivesFixes() {
        var choice = ReceiverChoice()
        func counts(_ device: String?, _ fix: Bool, _ t: Double?) -> Bool {
            choice.counts(device: device, claimsFix: fix, receiverTime: t.map(Self.at))
        }
        #expect(counts("/dev/wwan0gps", false, 0), "no fix chosen yet")
        #expect(counts("/dev/ttyACM0", true, 0.2))
        #expect(choice.chosen == "/dev/ttyACM0")
        for t in stride(from: 1.0, through: 10, by: 1) {
            #expect(!counts("/dev/wwan0gps", false, t), "\(t)")
            #expect(!counts("/dev/wwan0gps", true, t + 0.1), "\(t)")
            #expect(!counts("/dev/wwan0gps", false, nil), "no time: \(t)")
            #expect(!choice.isOthers("/dev/ttyACM0") && choice.isOthers("/dev/wwan0gps"))
            #expect(counts("/dev/ttyACM0", true, t + 0.2), "\(t)")
        }
        // The receiver unplugged (its last fix at 10.2 s): 5 s later by the card's clock, its fix counts.
        #expect(!counts("/dev/wwan0gps", true, 15.1))
        #expect(counts("/dev/wwan0gps", true, 15.2))
        #expect(choice.chosen == "/dev/wwan0gps")
    }

    /// The chosen receiver's own "no fix" counts (it lost the fix), and then the other's reports do.
    @Test func theChosenOnesNoFixLetsTheOthersCount() {
        var choice = ReceiverChoice()
        func c(_ d: String?, _ f: Bool, _ t: Date?) -> Bool { choice.counts(device: d, claimsFix: f, receiverTime: t) }
        #expect(c("/dev/a", true, Self.at(0)))
        #expect(!c("/dev/b", false, Self.at(1)))
        #expect(c("/dev/a", false, Self.at(1.5)))
        #expect(!choice.isOthers("/dev/b"))
        #expect(c("/dev/b", false, Self.at(2)))
        #expect(c("/dev/b", true, Self.at(3)))
        #expect(choice.chosen == "/dev/b")
    }

    @Test func unnamedReportsAndANewConnectionAlwaysCount() {
        var choice = ReceiverChoice()
        func c(_ d: String?, _ f: Bool, _ t: Date?) -> Bool { choice.counts(device: d, claimsFix: f, receiverTime: t) }
        #expect(c("/dev/a", true, Self.at(0)))
        #expect(c(nil, false, nil), "a report naming no device")
        #expect(!c("/dev/b", true, Self.at(1)))
        choice.reset()
        #expect(choice.chosen == nil)
        #expect(c("/dev/b", true, Self.at(1.5)))
        // A receiver clock that reads earlier than the chosen one's last fix does not count.
        #expect(!c("/dev/a", true, Self.at(0)))
    }
}
