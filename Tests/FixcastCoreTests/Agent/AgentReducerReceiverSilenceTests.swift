import FixcastCore
import FoundationEssentials
import Testing

/// A receiver that stops sending while gpsd stays up, told to the reducer in virtual time: the fix is
/// lost from the last fix on, the screen says so, a headless run says it once on stderr, and once again
/// when fixes come; the start-up wait for a first fix is said the same way.
@Suite struct AgentReducerReceiverSilenceTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture
    typealias Story = AgentReducerLoopStoryTests

    static func notices(_ effects: [AgentEffect]) -> [HealthNotice] {
        effects.flatMap { if case .announceHealth(let n) = $0 { return n } else { return [] } }
    }

    static let silentSentence = GPSStatus.silent(forS: 15).issue?.message ?? ""

    @Test func onTheLiveScreenASilentReceiversFixIsLostFromItsLastFix() {
        var r = Story.running(.init(liveScreen: true))
        for t in 2...10 { _ = Story.read(&r, [A.fix(F.berlin, at: Double(t))], at: Double(t)) }
        #expect(r.status.gps == .fixing)
        #expect(r.nextDeadline == F.at(25))
        #expect(r.handle(.deadline(at: F.at(24.9))) == [])
        let effects = r.handle(.deadline(at: F.at(25)))
        #expect(effects == [.redraw])  // the screen shows it; stderr is the headless run's
        #expect(r.status.gps == .silent(forS: 15))
        #expect(r.status.fixLostSince == F.at(10))
        #expect(r.status.problems.map(\.message) == [Self.silentSentence])
        // Nothing more is due for it: the loop sleeps until a fix or another deadline.
        #expect(r.nextDeadline != F.at(25))
        #expect(r.handle(.deadline(at: F.at(40))).isEmpty)
        // The next fix ends it.
        _ = Story.read(&r, [A.fix(F.berlin, at: 50)], at: 50)
        #expect(r.status.gps == .fixing)
        #expect(r.status.fixLostSince == nil)
        #expect(r.status.problems.isEmpty)
    }

    @Test func aReadingAfterTheSilenceIsAtTheLastKnownPosition() {
        var r = Story.running()
        _ = Story.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        _ = r.handle(.deadline(at: F.at(12)))  // the gather window's read
        _ = Story.read(&r, [], at: 12)
        _ = r.handle(.deadline(at: F.at(17)))
        #expect(r.status.gps == .silent(forS: 15))
        // A person asks: the reading is at the last fix, marked last-known, with since when.
        let requests = A.requests(r.handle(.manualRequest(at: F.at(20))))
        #expect(requests.map(\.position.source) == [.lastKnown])
        #expect(requests.first?.notes.first?.component == .gps)
    }

    @Test func headlessTheSilenceIsSaidOnceAndTheFixesComingAgainOnce() {
        var r = Story.running()
        // A 1 Hz receiver read ten seconds at a time: no silence while its reads bring fixes.
        _ = Story.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        var said: [HealthNotice] = []
        var t = 2.0
        while t < 62 {
            #expect(r.nextDeadline == F.at(t + 10))
            said += Self.notices(r.handle(.deadline(at: F.at(t + 10))))
            said += Self.notices(Story.read(&r, (1...10).map { A.fix(F.berlin, at: t + Double($0)) }, at: t + 10))
            t += 10
        }
        #expect(said.isEmpty)
        // The receiver stops after the fix of 62 s: the window's read at 72 s brings nothing, the
        // socket is then watched for reports, and 15 s after the last read with fixes it is said.
        said += Self.notices(r.handle(.deadline(at: F.at(72))))
        said += Self.notices(Story.read(&r, [], at: 72))
        #expect(r.gpsWatch == .reports)
        #expect(r.nextDeadline == F.at(77))
        said += Self.notices(r.handle(.deadline(at: F.at(77))))
        #expect(said == [HealthNotice(component: .gps, message: Self.silentSentence, isFailure: true)])
        // Once: later deadlines and reads without fixes say nothing more.
        #expect(Self.notices(r.handle(.deadline(at: F.at(200)))).isEmpty)
        #expect(Self.notices(Story.read(&r, [], at: 201)).isEmpty)
        // Fixes again: said once.
        let back = Self.notices(Story.read(&r, [A.fix(F.berlin, at: 300)], at: 300))
        #expect(back == [HealthNotice(component: .gps, message: HealthNotice.fixesCome, isFailure: false)])
        #expect(Self.notices(Story.read(&r, [A.fix(F.berlin, at: 301)], at: 301)).isEmpty)
    }

    @Test func aFixLostWithTheReceiverTalkingIsNoSilenceAndNotSaid() {
        var r = Story.running()
        _ = Story.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        _ = r.handle(.deadline(at: F.at(12)))
        // The window's read: the receiver says it has no fix (a tunnel).
        var effects = r.handle(.gps(.noFix, at: F.at(12)))
        effects += r.handle(.gpsReadEnded(connected: true, rejectedFixes: Story.noneRejected, at: F.at(12)))
        #expect(r.status.gps == .lost(since: F.at(12)))
        #expect(r.gpsd.silence.deadline == nil)
        effects += r.handle(.deadline(at: F.at(100)))
        #expect(r.status.gps == .lost(since: F.at(12)))
        #expect(Self.notices(effects).isEmpty)
        // Out of the tunnel: no "fixes come" for a loss that was not said.
        #expect(Self.notices(Story.read(&r, [A.fix(F.berlin, at: 120)], at: 120)).isEmpty)
    }

    @Test func gpsdGoneIsGPSDsProblemNotTheReceiversSilence() {
        var r = Story.running()
        _ = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(3)))
        #expect(r.gpsd.silence.deadline == nil)
        for t in stride(from: 4.0, through: 40, by: 1) { _ = r.handle(.deadline(at: F.at(t))) }
        #expect(r.status.gps == .problem(.connectionLost(address: A.gpsd)))
        #expect(r.fixHealth.failing.isEmpty)
    }

    @Test func aSuspendCountsTheSilenceFromTheWakeUp() {
        var r = Story.running(.init(liveScreen: true))
        _ = Story.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsd.silence.deadline == F.at(17))
        // Asleep from 3 s to an hour later: the receiver has a few seconds to send again.
        _ = r.handle(.resumeSample(sleepOffsetS: 3600, at: F.at(3605)))
        // The fix held is from before the sleep: lost since it began, until the receiver sends again.
        #expect(r.status.gps == .lost(since: F.at(5)))
        #expect(r.gpsd.silence.deadline == F.at(3620))
        _ = Story.read(&r, [A.fix(F.berlin, at: 3606)], at: 3606)
        #expect(r.status.gps == .fixing)
    }

    @Test func headlessTheStartupWaitIsSaidOnceAndTheFirstFixToo() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5)))
        let waiting = Self.notices(r.handle(.deadline(at: F.at(8))))
        #expect(
            waiting == [
                HealthNotice(
                    component: .gps, message: "gps: no fix yet after 8 s; waiting again (retry 1 of 2).",
                    isFailure: true)
            ])
        // The second retry and the fall-back say nothing more.
        var later: [HealthNotice] = []
        for t in [9.0, 17, 18, 26, 27] { later += Self.notices(r.handle(.deadline(at: F.at(t)))) }
        #expect(later.isEmpty)
        let first = Self.notices(Story.read(&r, [A.fix(F.berlin, at: 30)], at: 30))
        #expect(first == [HealthNotice(component: .gps, message: HealthNotice.fixesCome, isFailure: false)])
    }
}
