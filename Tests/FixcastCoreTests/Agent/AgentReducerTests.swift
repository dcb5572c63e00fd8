import FixcastCore
import FoundationEssentials
import Testing

/// The reducer's branches one at a time (the stories are in `AgentReducerScenarioTests`).
@Suite struct AgentReducerTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture

    /// A reducer that took and finished its startup reading at Berlin (fix at 1 s, done at 2 s).
    func running(_ configuration: AgentReducer.Configuration = .init()) -> (AgentReducer, Position) {
        var r = A.reducer(configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let f = A.fix(F.berlin, at: 1)
        _ = r.handle(.gps(.fix(f), at: F.at(1)))
        _ = r.handle(.readingFinished(A.reading(.startup, at: A.position(f), time: 2), at: F.at(2)))
        _ = r.handle(.deadline(at: F.at(6)))  // the startup fix's track write
        return (r, A.position(f))
    }

    /// Stored weather served stale because the service failed is not fresh weather: the next reading
    /// comes a minute later, a periodic one, not half an hour later.
    @Test func aReadingServedStaleWeatherIsFollowedSooner() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let f = A.fix(F.berlin, at: 1)
        _ = r.handle(.gps(.fix(f), at: F.at(1)))
        var stale = A.reading(.startup, at: A.position(f), time: 2)
        stale.weather?.stale = true
        _ = r.handle(.readingFinished(stale, at: F.at(2)))
        _ = r.handle(.deadline(at: F.at(6)))  // the startup fix's track write
        #expect(r.nextDeadline == F.at(61))
        #expect(A.requests(r.handle(.deadline(at: F.at(61)))).map(\.trigger) == [.periodic])
    }

    @Test func configurationFromSettings() {
        var settings = Settings()
        settings.trigger.moveKm = 2
        settings.trigger.periodicMin = 15
        settings.trigger.resumeMinAwayS = 60
        settings.gps.fixTimeoutS = 5
        settings.gps.fixRetries = 1
        settings.storage.trackIntervalS = 3
        settings.storage.trackDistanceM = 20
        var c = AgentReducer.Configuration(settings: settings, alertCheckMin: 7)
        #expect(c.trackStillIntervalS == TrackThinner.standingStillIntervalS)
        c.trackStillIntervalS = nil  // the every-value form below leaves it out
        #expect(
            c
                == .init(
                    moveKm: 2, periodicMin: 15, resumeMinAwayS: 60, fixTimeoutS: 5, fixRetries: 1, retryDelayS: 1,
                    trackIntervalS: 3, trackDistanceM: 20, lastKnownSaveIntervalS: 10, alertCheckMin: 7))
        #expect(
            c.scheduler
                == .init(moveKm: 2, periodicMin: 15, resumeMinAwayS: 60, fixTimeoutS: 5, fixRetries: 1, retryDelayS: 1))
        #expect(AgentReducer.Configuration(settings: Settings(), alertCheckMin: nil).alertCheckMin == nil)
        #expect(AgentReducer.Configuration(fixRetries: -2, retryDelayS: -1).scheduler.fixRetries == 0)
    }

    @Test func theInitialStatus() {
        let r = A.reducer()
        #expect(r.status == AgentStatus())
        #expect(r.status.gps == .starting)
        #expect(r.nextDeadline == F.at(8))
    }

    @Test func theStoredReadingIsShownAtLaunchButNeverOverAFreshOne() {
        var r = A.reducer()
        let old = A.reading(.periodic, at: Position.manual(F.berlin, at: F.at(-7200)), time: -7200)
        #expect(r.handle(.storedReadingLoaded(old)) == [.redraw])
        #expect(r.status.reading == old)
        #expect(r.status.problems == [])  // a stored reading's errors are history, not the status
        let (fresh, _) = running()
        var r2 = fresh
        let shown = r2.status.reading
        #expect(r2.handle(.storedReadingLoaded(old)) == [])
        #expect(r2.status.reading == shown)
    }

    @Test func problemsAreOrderedGPSStorageThenTheReading() {
        var (r, p) = running()
        let weatherDown = ReadingIssue(component: .weather, message: "weather: the API answered 503; retrying later.")
        let diskFull = ReadingIssue(component: .storage, message: "storage: the disk is full; free some space.")
        #expect(
            r.handle(.manualRequest(at: F.at(10)))
                == [.takeReading(ReadingRequest(trigger: .manual, position: p, forced: true)), .redraw])
        let manual = A.reading(.manual, at: p, time: 11, errors: [weatherDown], weather: false)
        #expect(
            r.handle(.readingFinished(manual, at: F.at(11)))
                == [
                    .printReading(manual),
                    .announceHealth([HealthNotice(component: .weather, message: weatherDown.message, isFailure: true)]),
                    .redraw,
                ])
        #expect(
            r.handle(.storageProblem(diskFull))
                == [
                    .announceHealth([HealthNotice(component: .storage, message: diskFull.message, isFailure: true)]),
                    .redraw,
                ])
        let lost = GPSError.connectionLost(address: A.gpsd)
        _ = r.handle(.gps(.disconnected(lost), at: F.at(12)))
        #expect(r.status.problems == [ReadingIssue(lost), diskFull, weatherDown])
        #expect(
            r.handle(.storageProblem(nil))
                == [
                    .announceHealth([
                        HealthNotice(component: .storage, message: HealthNotice.recovered(.storage), isFailure: false)
                    ]), .redraw,
                ])
        #expect(r.status.storage == nil)
        #expect(r.status.problems == [ReadingIssue(lost), weatherDown])
    }

    @Test func aFailedFetchKeepsTheFetchPointAtTheAttempt() {
        var (r, _) = running()
        let far = A.fix(F.north(km: 20), at: 10)
        #expect(A.requests(r.handle(.gps(.fix(far), at: F.at(10)))).map(\.trigger) == [.moved])
        _ = r.handle(.readingFinished(A.reading(.moved, at: A.position(far), time: 11, weather: false), at: F.at(11)))
        #expect(A.requests(r.handle(.gps(.fix(A.fix(F.north(km: 20.1), at: 12)), at: F.at(12)))).isEmpty)
    }

    @Test func satellitesUpdateThePositionShown() {
        var r = A.reducer()
        #expect(r.handle(.gps(.satellites(used: 5, visible: 9), at: F.at(0.5))) == [])  // no position yet
        _ = r.handle(.gps(.fix(A.fix(F.berlin, at: 1, sats: 8)), at: F.at(1)))
        #expect(r.handle(.gps(.satellites(used: 11, visible: 14), at: F.at(1.5))) == [.redraw])
        #expect(r.status.position?.satellitesUsed == 11)
        #expect(r.handle(.gps(.satellites(used: nil, visible: 14), at: F.at(1.6))) == [])
        #expect(r.handle(.gps(.satellites(used: 11, visible: 3), at: F.at(1.7))) == [])
    }

    @Test func aConnectionProblemHidesTheWaitForAFixUntilGPSDIsBack() {
        var r = A.reducer(lastKnown: Position(coordinate: F.berlin, obtainedAt: F.at(-60), source: .gps))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let refused = GPSError.unreachable(address: A.gpsd, detail: nil)
        #expect(
            r.handle(.gps(.disconnected(refused), at: F.at(0.1)))
                == [
                    .announceHealth([HealthNotice(component: .gps, message: refused.message, isFailure: true)]),
                    .redraw,
                ])
        // run waits the attempts out even with gpsd down (it may come up after fixcast).
        // (The deadline also finds gpsd's reconnect due: its 1 s back-off is long over.)
        #expect(r.handle(.deadline(at: F.at(8))) == [.connectGPS])
        #expect(r.status.gps == .problem(refused))
        #expect(
            r.handle(.gps(.connected(address: A.gpsd), at: F.at(8.5)))
                == [
                    .announceHealth([
                        HealthNotice(
                            component: .gps, message: HealthNotice.gpsdBack(address: A.gpsd), isFailure: false),
                        // gpsd's problem hid the wait for a fix; headless, it is said now that gpsd is back.
                        HealthNotice(
                            component: .gps, message: "gps: no fix yet after 8 s; waiting again (retry 1 of 2).",
                            isFailure: true),
                    ]), .redraw,
                ])
        #expect(r.status.gps == .waitingForFix(retry: 1, of: 2, timeoutS: 8))
        #expect(A.requests(r.handle(.deadline(at: F.at(26)))).map(\.trigger) == [.startup])
    }

    @Test func aForcedRequestBeforeTheFirstReadingMakesTheStartupForced() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(r.handle(.key(UInt8(ascii: "R"), at: F.at(0.5))) == [])
        let f = A.fix(F.berlin, at: 1)
        #expect(
            A.requests(r.handle(.gps(.fix(f), at: F.at(1))))
                == [ReadingRequest(trigger: .startup, position: A.position(f), forced: true)])
    }

    @Test func aBusyGPSStreamCannotStarveTheTimers() {
        // Fixes keep the loop's poll from ever timing out; the periodic reading still comes.
        var (r, _) = running()
        #expect(r.nextDeadline == F.at(1801))
        #expect(A.requests(r.handle(.gps(.fix(A.fix(F.berlin, at: 1800)), at: F.at(1800)))).isEmpty)
        let f = A.fix(F.berlin, at: 1801)
        #expect(
            A.requests(r.handle(.gps(.fix(f), at: F.at(1801))))
                == [ReadingRequest(trigger: .periodic, position: A.position(f), forced: false)])
    }

    @Test func aBusyGPSStreamCannotStarveTheFixWait() {
        var r = A.reducer(lastKnown: Position(coordinate: F.berlin, obtainedAt: F.at(-60), source: .gps))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let waiting = HealthNotice(
            component: .gps, message: "gps: no fix yet after 8 s; waiting again (retry 1 of 2).", isFailure: true)
        #expect(r.handle(.gps(.noFix, at: F.at(8))) == [.announceHealth([waiting]), .redraw])
        #expect(r.status.gps == .waitingForFix(retry: 1, of: 2, timeoutS: 8))
        #expect(A.requests(r.handle(.gps(.noFix, at: F.at(26)))).map(\.trigger) == [.startup])
    }

    @Test func aLateDeadlineSkipsStraightToTheFallback() {
        var r = A.reducer(lastKnown: Position(coordinate: F.berlin, obtainedAt: F.at(-60), source: .gps))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(A.requests(r.handle(.deadline(at: F.at(500)))).map(\.trigger) == [.startup])
    }

    @Test func aStrayReadingFinishedIsShownAndChangesNoTrigger() {
        var (r, p) = running()
        let stray = A.reading(.manual, at: p, time: 50)
        #expect(r.handle(.readingFinished(stray, at: F.at(50))) == [.printReading(stray), .redraw])
        #expect(r.status.reading?.time == F.at(50))
        #expect(r.nextDeadline == F.at(1801))
    }

    @Test func nextDeadlineIsTheEarliestOfPeriodicAndAlerts() {
        var (r, p) = running(.init(periodicMin: 5, alertCheckMin: 10))
        #expect(r.nextDeadline == F.at(1 + 300))  // periodic first (alerts: 601)
        #expect(A.requests(r.handle(.deadline(at: F.at(301)))).map(\.trigger) == [.periodic])
        #expect(r.nextDeadline == F.at(601))  // in flight: only the alert check is timed
        _ = r.handle(.readingFinished(A.reading(.periodic, at: p, time: 302), at: F.at(302)))
        #expect(r.nextDeadline == F.at(601))
        #expect(
            r.handle(.deadline(at: F.at(601))) == [
                .takeReading(ReadingRequest(trigger: .periodic, position: p, forced: false)), .checkAlerts(p), .redraw,
            ])
        #expect(r.nextDeadline == F.at(1201))
    }

    @Test func anAlertsAnswerWithNothingNewTakesNoReading() {
        var (r, _) = running(.init(alertCheckMin: 10))
        #expect(r.handle(.alertsChecked(activeIDs: [], at: F.at(3))) == [])
        #expect(r.handle(.alertsChecked(activeIDs: ["x", "x"], at: F.at(4))).contains(.redraw))
        #expect(A.requests(r.handle(.alertsChecked(activeIDs: ["x"], at: F.at(4.5)))).isEmpty)
    }
}
