import FixcastCore
import FoundationEssentials
import Testing

/// `ComponentHealth`: one line when a component starts failing, one when it works again, none per
/// retry; and the reducer turns gps events, storage outcomes and readings into those lines.
@Suite struct ComponentHealthTests {
    typealias A = AgentFixture
    typealias F = PolicyFixture

    static let lost = ReadingIssue(GPSError.connectionLost(address: A.gpsd))
    static let full = ReadingIssue(component: .storage, message: "storage: the disk is full.")

    @Test func aFailureIsSaidOnceAndTheRecoveryOnce() {
        var health = ComponentHealth()
        #expect(health.observe(.gps, problem: nil) == nil, "working from the start is no news")
        let first = health.observe(.gps, problem: Self.lost)
        #expect(first == HealthNotice(component: .gps, message: Self.lost.message, isFailure: true))
        #expect(health.observe(.gps, problem: Self.lost) == nil, "a retry that fails the same way")
        #expect(
            health.observe(.gps, problem: ReadingIssue(GPSError.unreachable(address: A.gpsd, detail: "x"))) == nil,
            "another failure while still failing")
        let back = health.observe(.gps, problem: nil, recovered: "gps: back.")
        #expect(back == HealthNotice(component: .gps, message: "gps: back.", isFailure: false))
        #expect(health.observe(.gps, problem: nil) == nil)
        #expect(health.observe(.gps, problem: Self.lost)?.isFailure == true, "a new failure is news again")
    }

    /// The broker went away ("lost"), then came back refusing the password: a problem only a person
    /// can end is said even while MQTT is already failing, once; the network's own comings and goings
    /// while it lasts are not.
    @Test func aProblemThatAsksForAPersonIsSaidWhileAlreadyFailing() {
        func mqtt(_ cause: MQTTFailureCause) -> (ReadingIssue, Bool) {
            let e = MQTTError(cause: cause, broker: "127.0.0.1:1883")
            return (ReadingIssue(e), cause.asksForAPerson)
        }
        var health = ComponentHealth()
        var said: [String] = []
        for cause in [MQTTFailureCause.lost, .tcp, .auth, .lost, .auth, .tcp, .noAnswer, .auth, .noAnswer] {
            let (issue, person) = mqtt(cause)
            if let n = health.observe(.mqtt, problem: issue, asksForAPerson: person) { said.append(n.message) }
        }
        // Each once while it lasts, however they alternate.
        #expect(said == [mqtt(.lost).0.message, mqtt(.auth).0.message, mqtt(.noAnswer).0.message])
        #expect(health.observe(.mqtt, problem: nil)?.isFailure == false)
        // A new outage starts afresh: the refused login is said again.
        let (auth, _) = mqtt(.auth)
        #expect(health.observe(.mqtt, problem: mqtt(.lost).0) != nil)
        #expect(health.observe(.mqtt, problem: auth, asksForAPerson: true)?.message == auth.message)
        #expect(!MQTTFailureCause.lost.asksForAPerson && !MQTTFailureCause.dns.asksForAPerson)
        #expect(MQTTFailureCause.tls.asksForAPerson && MQTTFailureCause.setting.asksForAPerson)
    }

    @Test func componentsAreTrackedApart() {
        var health = ComponentHealth()
        #expect(health.observe(.mqtt, problem: ReadingIssue(component: .mqtt, message: "mqtt: down.")) != nil)
        #expect(health.observe(.storage, problem: Self.full) != nil)
        #expect(health.observe(.mqtt, problem: nil)?.message == HealthNotice.recovered(.mqtt))
        #expect(health.failing.keys.sorted { $0.rawValue < $1.rawValue } == [.storage])
    }

    @Test func aReadingSaysWhichServicesFailedAndWhichWorkAgain() {
        var health = ComponentHealth()
        let p = A.position(A.fix(F.berlin, at: 0))
        let weatherDown = ReadingIssue(component: .weather, message: "weather: no answer.")
        let alertsDown = ReadingIssue(component: .alerts, message: "alerts: no answer.")
        var failed = A.reading(.startup, at: p, time: 1, errors: [weatherDown, alertsDown, Self.full], weather: false)
        failed.id = nil
        #expect(health.observe(failed).map(\.component) == [.weather, .alerts, .storage])
        #expect(health.observe(failed).isEmpty, "the same failures again: no news")

        // Stored weather served stale while the service fails is still a failure.
        var stale = A.reading(.periodic, at: p, time: 2, errors: [weatherDown])
        stale.weather?.stale = true
        stale.id = "d:1"
        let notices = health.observe(stale)
        #expect(notices.map { $0.component } == [Component.alerts, .storage])
        #expect(notices.allSatisfy { !$0.isFailure })

        // A cache hit within weather.cache_min asked nothing: it is no sign the service answers again
        // (the journal said "answers again" while every request still failed).
        var cacheHit = A.reading(.manual, at: p, time: 2.5)
        cacheHit.weather?.cached = true
        cacheHit.id = "d:1b"
        #expect(health.observe(cacheHit).isEmpty)
        #expect(health.failing[.weather] != nil)

        // A fresh answer with a value dropped as unbelievable: the service works.
        var fresh = A.reading(
            .periodic, at: p, time: 3, errors: [ReadingIssue(component: .weather, message: "weather: odd value.")])
        fresh.id = "d:2"
        #expect(
            health.observe(fresh) == [
                HealthNotice(component: .weather, message: HealthNotice.recovered(.weather), isFailure: false)
            ])
    }

    /// The weather ahead: said once when its refresh fails, not again while the readings until the next
    /// refresh name it, and once when a refresh works (stop 38: a headless run said nothing of it).
    @Test func theWeatherAheadFailingAndWorkingAgainIsSaidOnceEach() {
        var health = ComponentHealth()
        let p = A.position(A.fix(F.berlin, at: 0))
        let busy = ReadingIssue(component: .ahead, message: "ahead: the forecast service answered 429.")
        #expect(health.observe(A.reading(.moved, at: p, time: 1)).isEmpty, "working from the start")
        let failed = health.observe(A.reading(.moved, at: p, time: 2, errors: [busy]))
        #expect(failed == [HealthNotice(component: .ahead, message: busy.message, isFailure: true)])
        #expect(health.observe(A.reading(.periodic, at: p, time: 3, errors: [busy])).isEmpty)
        let back = health.observe(A.reading(.moved, at: p, time: 4))
        #expect(back == [HealthNotice(component: .ahead, message: HealthNotice.recovered(.ahead), isFailure: false)])
    }

    @Test func theReducerAnnouncesGPSDGoneAndBackOnce() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(!Self.notices(r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))).contains { _ in true })
        let error = GPSError.connectionLost(address: A.gpsd)
        #expect(
            Self.notices(r.handle(.gps(.disconnected(error), at: F.at(1)))) == [
                HealthNotice(component: .gps, message: error.message, isFailure: true)
            ])
        #expect(Self.notices(r.handle(.gps(.disconnected(error), at: F.at(2)))).isEmpty, "a failed reconnect")
        #expect(
            Self.notices(r.handle(.gps(.connected(address: A.gpsd), at: F.at(4)))) == [
                HealthNotice(component: .gps, message: HealthNotice.gpsdBack(address: A.gpsd), isFailure: false)
            ])
    }

    @Test func theReducerExitsWithOneWhenAReadingCouldNotBeStored() {
        var r = A.reducer()
        let fix = A.fix(F.berlin, at: 1)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        _ = r.handle(.gps(.fix(fix), at: F.at(1)))
        var lost = A.reading(.startup, at: A.position(fix), time: 2, errors: [Self.full])
        lost.id = nil
        let effects = r.handle(.readingFinished(lost, at: F.at(2)))
        #expect(Self.notices(effects).map(\.component) == [.storage])
        #expect(r.handle(.stopRequested(at: F.at(3))) == [.writeTrack, .exit(code: 1)])
    }

    @Test func theReducerExitsWithOneWhileTrackWritesFailAndZeroOnceTheyWorkAgain() {
        var failing = A.reducer()
        #expect(Self.notices(failing.handle(.storageProblem(Self.full))).map(\.isFailure) == [true])
        #expect(failing.handle(.stopRequested(at: F.at(3))) == [.exit(code: 1)])

        var recovered = A.reducer()
        _ = recovered.handle(.storageProblem(Self.full))
        #expect(Self.notices(recovered.handle(.storageProblem(nil))).map(\.isFailure) == [false])
        #expect(recovered.handle(.stopRequested(at: F.at(3))) == [.exit(code: 0)])
    }

    /// A reading stored while the track's batch still fails (a near-full disk takes a small insert, not
    /// 4,000 points) is not the store's recovery; the track's next write that works is, and only when the
    /// last reading was stored too.
    @Test func storageWorksAgainOnlyWhenTheTrackAndTheReadingsDo() {
        var r = A.reducer()
        let fix = A.fix(F.berlin, at: 1)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        _ = r.handle(.gps(.fix(fix), at: F.at(1)))
        #expect(Self.notices(r.handle(.storageProblem(Self.full))).map(\.isFailure) == [true])
        var stored = A.reading(.startup, at: A.position(fix), time: 2)
        stored.id = "dev:1"
        #expect(Self.notices(r.handle(.readingFinished(stored, at: F.at(2)))).isEmpty)
        #expect(Self.notices(r.handle(.storageProblem(nil))).map(\.isFailure) == [false])

        // The other way round: the track's writes work, the last reading was lost.
        var lost = A.reading(.manual, at: A.position(fix), time: 3, errors: [Self.full])
        lost.id = nil
        #expect(Self.notices(r.handle(.readingFinished(lost, at: F.at(3)))).map(\.isFailure) == [true])
        #expect(Self.notices(r.handle(.storageProblem(nil))).isEmpty)
    }

    /// The store's file deleted or replaced while recording: said once on stderr, not a failure (the
    /// write went to the file now at the path), so the exit stays 0; the live screen says nothing.
    @Test func aReplacedStoreIsSaidOnceHeadlessAndIsNoLoss() {
        var r = A.reducer()
        let said = Self.notices(r.handle(.storeReplaced(path: "/home/me/.local/share/fixcast/fixcast.sqlite")))
        #expect(said.map(\.component) == [.storage])
        #expect(said.map(\.isFailure) == [false])
        #expect(
            said.first?.message.hasPrefix("storage: the store /home/me/.local/share/fixcast/fixcast.sqlite was") == true
        )
        #expect(r.handle(.stopRequested(at: F.at(3))) == [.exit(code: 0)])

        var live = A.reducer(.init(liveScreen: true))
        #expect(Self.notices(live.handle(.storeReplaced(path: "/s.sqlite"))).isEmpty)
    }

    static func notices(_ effects: [AgentEffect]) -> [HealthNotice] {
        effects.flatMap { effect -> [HealthNotice] in
            if case .announceHealth(let n) = effect { return n }
            return []
        }
    }
}
