import FixcastCore
import Testing

@Suite struct ReadingSchedulerTests {
    typealias F = PolicyFixture

    /// A scheduler that has taken (and finished) its startup reading at Berlin at t0.
    func started(lastKnown: Position? = nil) -> ReadingScheduler {
        var s = ReadingScheduler(startedAt: F.at(0), lastKnown: lastKnown)
        _ = s.handle(.resumeSample(sleepOffsetS: 0, at: F.at(0)))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1)))
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(2)))
        return s
    }

    func request(_ d: ReadingScheduler.Decision) -> ReadingScheduler.Request? {
        if case .takeReading(let r) = d { return r }
        return nil
    }

    // MARK: startup

    @Test func theFirstFixGivesExactlyOneStartupReading() {
        var s = ReadingScheduler(startedAt: F.at(0))
        let first = request(s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1))))
        #expect(first?.trigger == .startup)
        #expect(first?.forced == false)
        #expect(first?.position.source == .gps)
        // The seed's double load: a resume sample and a timer tick at the same moment add nothing.
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 12_345, at: F.at(1)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.tick(at: F.at(1)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(2)), at: F.at(2)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(3)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 12_346, at: F.at(4)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(5)), at: F.at(5)))
            #expect(r == .none)
        }
    }

    @Test func aResumeBeforeTheFirstReadingIsNotRemembered() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.resumeSample(sleepOffsetS: 0, at: F.at(0)))
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 100, at: F.at(1)))
            #expect(r == .none)
        }
        let first = request(s.handle(.fix(F.fix(F.berlin, at: F.at(2)), at: F.at(2))))
        #expect(first?.trigger == .startup)
        #expect(first?.forced == false)
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(3)))
            #expect(r == .none)
        }
    }

    @Test func aManualRequestBeforeTheFirstFixMakesTheStartupReadingForcedNotASecondOne() {
        var s = ReadingScheduler(startedAt: F.at(0))
        do {
            let r = s.handle(.manualRequest(at: F.at(1)))
            #expect(r == .none)
        }
        let first = request(s.handle(.fix(F.fix(F.berlin, at: F.at(2)), at: F.at(2))))
        #expect(first?.trigger == .startup)
        #expect(first?.forced == true)
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(3)))
            #expect(r == .none)
        }
    }

    // MARK: fix timeout, retries, last known

    @Test func aFixTimeoutIsRetriedThenTheLastKnownPositionIsUsed() {
        let stored = F.fix(F.berlin, at: F.at(-86_400))
        var s = ReadingScheduler(startedAt: F.at(0), lastKnown: stored)  // 8 s timeout, 2 retries, 1 s apart
        #expect(s.nextTickAt == F.at(8))
        do {
            let r = s.handle(.tick(at: F.at(7.9)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.tick(at: F.at(8)))
            #expect(r == .retryFix(attempt: 1, of: 2))
        }
        #expect(s.nextTickAt == F.at(9))  // the pause before the retry
        do {
            let r = s.handle(.tick(at: F.at(9)))
            #expect(r == .none)
        }
        #expect(s.nextTickAt == F.at(17))
        do {
            let r = s.handle(.tick(at: F.at(17)))
            #expect(r == .retryFix(attempt: 2, of: 2))
        }
        #expect(s.nextTickAt == F.at(18))
        do {
            let r = s.handle(.tick(at: F.at(18)))
            #expect(r == .none)  // announced once
        }
        #expect(s.nextTickAt == F.at(26))
        do {
            let r = s.handle(.tick(at: F.at(25.9)))
            #expect(r == .none)
        }
        let fallback = request(s.handle(.tick(at: F.at(26))))
        #expect(fallback?.trigger == .startup)
        #expect(fallback?.position.source == .lastKnown)
        #expect(fallback?.position.coordinate == F.berlin)
        #expect(fallback?.position.obtainedAt == F.at(-86_400))  // its age stays honest
        do {
            let r = s.handle(.tick(at: F.at(40)))
            #expect(r == .none)
        }
        // Now the periodic timer owns the ticks (once the reading in flight is done), still at the
        // last known position.
        #expect(s.nextTickAt == nil)
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(27)))
        #expect(s.nextTickAt == F.at(26 + 1800))
        let periodic = request(s.handle(.tick(at: F.at(26 + 1800))))
        #expect(periodic?.trigger == .periodic)
        #expect(periodic?.position.source == .lastKnown)
    }

    @Test func aLateTickSkipsStraightToTheFallback() {
        var s = ReadingScheduler(startedAt: F.at(0), lastKnown: F.fix(F.berlin, at: F.at(-60)))
        do {
            let r = s.handle(.tick(at: F.at(15)))
            #expect(r == .retryFix(attempt: 1, of: 2))
        }
        do {
            let r = s.handle(.tick(at: F.at(100)))
            #expect(request(r)?.trigger == .startup)
        }
    }

    @Test func noLastKnownPositionIsSaidOnceAndTheFirstFixStillStarts() {
        var s = ReadingScheduler(
            configuration: .init(fixTimeoutS: 8, fixRetries: 0, retryDelayS: 0), startedAt: F.at(0), lastKnown: nil)
        do {
            let r = s.handle(.tick(at: F.at(8)))
            #expect(r == .noPosition)
        }
        do {
            let r = s.handle(.tick(at: F.at(9)))
            #expect(r == .none)
        }
        #expect(s.nextTickAt == nil)
        do {
            let r = s.handle(.tick(at: F.at(5000)))
            #expect(r == .none)  // no periodic reading without a position
        }
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(60)), at: F.at(60)))
            #expect(request(r)?.trigger == .startup)
        }
    }

    @Test func aFixDuringTheRetriesCancelsTheFallback() {
        var s = ReadingScheduler(startedAt: F.at(0), lastKnown: F.fix(F.north(km: 100), at: F.at(-60)))
        do {
            let r = s.handle(.tick(at: F.at(8)))
            #expect(r == .retryFix(attempt: 1, of: 2))
        }
        let first = request(s.handle(.fix(F.fix(F.berlin, at: F.at(12)), at: F.at(12))))
        #expect(first?.trigger == .startup)
        #expect(first?.position.coordinate == F.berlin)
        do {
            let r = s.handle(.tick(at: F.at(28)))
            #expect(r == .none)
        }
    }

    // MARK: moved

    @Test func movedIsMeasuredFromTheLastFetchPoint() {
        var s = started()
        // A slow drift: 0.9 km steps; never 5 km from the previous fix, but 5.4 km from the fetch point.
        for km in 1...5 {
            let t = Double(km) * 60
            do {
                let r = s.handle(.fix(F.fix(F.north(km: Double(km) * 0.9), at: F.at(t)), at: F.at(t)))
                #expect(r == .none)
            }
        }
        let moved = request(s.handle(.fix(F.fix(F.north(km: 5.4), at: F.at(360)), at: F.at(360))))
        #expect(moved?.trigger == .moved)
        #expect(moved?.forced == false)
        _ = s.handle(.readingFinished(weatherFetchedAt: F.north(km: 5.4), at: F.at(361)))
        do {
            let r = s.handle(.fix(F.fix(F.north(km: 10), at: F.at(400)), at: F.at(400)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.fix(F.fix(F.north(km: 11.1), at: F.at(420)), at: F.at(420)))
            #expect(request(r)?.trigger == .moved)
        }
    }

    @Test func theWeathersOwnCoordinateBecomesTheReference() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(0)), at: F.at(0)))
        // Served from a cache entry fetched 1 km south of here.
        _ = s.handle(.readingFinished(weatherFetchedAt: F.north(km: -1), at: F.at(1)))
        #expect(s.movement.fetchPoint == F.north(km: -1))
        do {
            let r = s.handle(.fix(F.fix(F.north(km: 4.5), at: F.at(60)), at: F.at(60)))
            #expect(request(r)?.trigger == .moved)
        }
    }

    @Test func aFailedFetchDoesNotRetriggerOnEveryFix() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(0)), at: F.at(0)))
        _ = s.handle(.readingFinished(weatherFetchedAt: nil, at: F.at(1)))
        let far = F.north(km: 20)
        do {
            let r = s.handle(.fix(F.fix(far, at: F.at(10)), at: F.at(10)))
            #expect(request(r)?.trigger == .moved)
        }
        _ = s.handle(.readingFinished(weatherFetchedAt: nil, at: F.at(11)))
        do {
            let r = s.handle(.fix(F.fix(far, at: F.at(11.1)), at: F.at(11.1)))
            #expect(r == .none)
        }
    }

    @Test func aMoveDuringAReadingIsCheckedWhenItEnds() {
        var s = started()
        _ = s.handle(.manualRequest(at: F.at(100)))
        do {
            let r = s.handle(.fix(F.fix(F.north(km: 7), at: F.at(101)), at: F.at(101)))
            #expect(r == .none)
        }
        #expect(s.isReadingInFlight)
        let after = request(s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(102))))
        #expect(after?.trigger == .moved)
        #expect(after?.position.coordinate == F.north(km: 7))
    }

    // MARK: periodic

    @Test func periodicAfterThirtyMinutesOfAnyReading() {
        var s = started()
        #expect(s.nextTickAt == F.at(1 + 1800))
        do {
            let r = s.handle(.tick(at: F.at(1800)))
            #expect(r == .none)
        }
        let periodic = request(s.handle(.tick(at: F.at(1801))))
        #expect(periodic?.trigger == .periodic)
        #expect(periodic?.forced == false)
        // A tick while it is in flight joins it.
        do {
            let r = s.handle(.tick(at: F.at(5000)))
            #expect(r == .none)
        }
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(1802)))
        // A manual reading resets the period.
        _ = s.handle(.manualRequest(at: F.at(2000)))
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(2001)))
        do {
            let r = s.handle(.tick(at: F.at(1801 + 1800)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.tick(at: F.at(2000 + 1800)))
            #expect(request(r)?.trigger == .periodic)
        }
    }

    @Test func aLostFixDoesNotStopPeriodicReadingsAtTheLastPosition() {
        var s = started()
        let here = F.north(km: 2)
        _ = s.handle(.fix(F.fix(here, at: F.at(100)), at: F.at(100)))
        _ = s.handle(.fixLost(at: F.at(200)))
        _ = s.handle(.fixLost(at: F.at(300)))  // repeated reports keep the first time
        #expect(s.fixLostSince == F.at(200))
        let periodic = request(s.handle(.tick(at: F.at(1801))))
        #expect(periodic?.trigger == .periodic)
        #expect(periodic?.position.coordinate == here)
        #expect(periodic?.position.source == .lastKnown)
        _ = s.handle(.readingFinished(weatherFetchedAt: here, at: F.at(1802)))
        do {
            let r = s.handle(.tick(at: F.at(3601)))
            #expect(request(r)?.trigger == .periodic)
        }
        _ = s.handle(.readingFinished(weatherFetchedAt: here, at: F.at(3602)))
        // The fix comes back: live again.
        _ = s.handle(.fix(F.fix(here, at: F.at(4000)), at: F.at(4000)))
        #expect(s.fixLostSince == nil)
        #expect(s.readingPosition?.source == .gps)
    }

    // MARK: weather missing

    /// A startup reading that got no weather (the network not up yet) is followed by a periodic one a
    /// minute later, not half an hour; the first with weather brings the period back.
    @Test func aReadingWithoutWeatherIsFollowedSooner() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1)))
        _ = s.handle(.readingFinished(weatherFetchedAt: nil, at: F.at(3)))
        #expect(s.nextTickAt == F.at(61))
        let retry = request(s.handle(.tick(at: F.at(61))))
        #expect(retry?.trigger == .periodic)
        #expect(retry?.forced == false)
        _ = s.handle(.readingFinished(weatherFetchedAt: nil, at: F.at(62)))
        #expect(s.nextTickAt == F.at(181))
        _ = s.handle(.tick(at: F.at(181)))
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(182)))
        #expect(s.nextTickAt == F.at(181 + 1800))
    }

    // MARK: resume

    /// The fix held at a suspend is from before it: the resume reading waits for the first fix after the
    /// wake-up and is for where that says the machine is now, not where it went to sleep.
    @Test func aLongSuspendGivesAForcedResumeReadingAtTheFirstFixAfterIt() {
        var s = started()
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 20, at: F.at(100)))
            #expect(r == .none)  // a 20 s nap: nothing, and the fix stays live
        }
        #expect(s.hasLiveFix)
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 80, at: F.at(200)))
            #expect(r == .none)
        }
        #expect(!s.hasLiveFix)
        #expect(s.fixLostSince == F.at(140))  // the wall clock when the 60 s sleep began
        #expect(s.readingPosition?.source == .lastKnown)
        #expect(s.nextTickAt == F.at(200 + s.configuration.fixTimeoutS))
        let hamburg = Coordinate(lat: 53.55, lon: 10.0)!
        let resume = request(s.handle(.fix(F.fix(hamburg, at: F.at(201)), at: F.at(201))))
        #expect(resume?.trigger == .resume)
        #expect(resume?.forced == true)
        #expect(resume?.position.coordinate == hamburg)
        #expect(resume?.position.source == .gps)
        #expect(s.resumeFixWaitUntil == nil)
        #expect(s.pendingForced == nil)
    }

    /// A periodic due time inside the resume reading's wait is not a deadline of its own: its tick
    /// would decide nothing and leave a due time in the past, which the loop would wake for at once,
    /// again and again, until the wait ended.
    @Test func aPeriodicDueTimeInsideTheResumeWaitIsNotADeadline() {
        var s = started()  // the startup reading at 1 s: periodic due at 1801 s
        _ = s.handle(.resumeSample(sleepOffsetS: 600, at: F.at(1797)))
        #expect(s.nextTickAt == F.at(1797 + s.configuration.fixTimeoutS))
        #expect(s.handle(.tick(at: F.at(1801))) == .none)
        #expect(s.nextTickAt == F.at(1797 + s.configuration.fixTimeoutS))
        let resume = request(s.handle(.tick(at: F.at(1797 + s.configuration.fixTimeoutS))))
        #expect(resume?.trigger == .resume)
        #expect(s.nextTickAt == nil)  // in flight
    }

    @Test func noFixAfterAResumeGivesTheResumeReadingAtTheLastKnownPositionMarkedSo() {
        var s = started()
        _ = s.handle(.resumeSample(sleepOffsetS: 600, at: F.at(200)))
        do {
            let r = s.handle(.tick(at: F.at(207)))
            #expect(r == .none)  // still waiting
        }
        let resume = request(s.handle(.tick(at: F.at(200 + s.configuration.fixTimeoutS))))
        #expect(resume?.trigger == .resume)
        #expect(resume?.forced == true)
        #expect(resume?.position.coordinate == F.berlin)
        #expect(resume?.position.source == .lastKnown)
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(210)))
        // The fix that comes later is only a fix: within 5 km, no second reading.
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(230)), at: F.at(230)))
            #expect(r == .none)
        }
        #expect(s.hasLiveFix)
    }

    /// `--at` / `--place`: the position does not go stale in a suspend; the resume reading is at once.
    @Test func aFixedPositionGivesTheResumeReadingAtOnce() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.resumeSample(sleepOffsetS: 0, at: F.at(0)))
        let fixed = Position(coordinate: F.berlin, mode: nil, obtainedAt: F.at(0), source: .manual)
        _ = s.handle(.fix(fixed, at: F.at(0)))
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(1)))
        let resume = request(s.handle(.resumeSample(sleepOffsetS: 600, at: F.at(200))))
        #expect(resume?.trigger == .resume)
        #expect(resume?.position.source == .manual)
    }

    /// With the fix already lost at the suspend, there is no stale fix to hold: the resume reading is at
    /// once, at the last known position.
    @Test func aResumeWithTheFixAlreadyLostIsAtOnce() {
        var s = started()
        _ = s.handle(.fixLost(at: F.at(50)))
        let resume = request(s.handle(.resumeSample(sleepOffsetS: 600, at: F.at(200))))
        #expect(resume?.trigger == .resume)
        #expect(resume?.position.source == .lastKnown)
    }

    @Test func aPersonAskingWhileTheResumeReadingWaitsForAFixJoinsIt() {
        var s = started()
        _ = s.handle(.resumeSample(sleepOffsetS: 600, at: F.at(200)))
        do {
            let r = s.handle(.manualRequest(at: F.at(201)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.newAlerts(at: F.at(202)))
            #expect(r == .none)  // not a reading at the stale fix either
        }
        let reading = request(s.handle(.fix(F.fix(F.berlin, at: F.at(203)), at: F.at(203))))
        #expect(reading?.trigger == .manual)
        #expect(reading?.forced == true)
        #expect(reading?.position.source == .gps)
    }

    // MARK: manual and coalescing

    @Test func aManualRequestWhenIdleIsAForcedReading() {
        var s = started()
        let manual = request(s.handle(.manualRequest(at: F.at(50))))
        #expect(manual?.trigger == .manual)
        #expect(manual?.forced == true)
        #expect(manual?.position.coordinate == F.berlin)
    }

    @Test func aForcedRequestDuringAnOrdinaryReadingIsNotSwallowed() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1)))  // startup, ordinary, in flight
        do {
            let r = s.handle(.manualRequest(at: F.at(1.5)))
            #expect(r == .none)  // joins...
        }
        #expect(s.pendingForced == .manual)
        let forced = request(s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(2))))
        #expect(forced?.trigger == .manual)  // ...then forces a fresh one
        #expect(forced?.forced == true)
        #expect(s.pendingForced == nil)
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(3)))
            #expect(r == .none)
        }
    }

    @Test func aResumeDuringAnOrdinaryReadingIsNotSwallowed() {
        var s = started()
        _ = s.handle(.tick(at: F.at(1801)))  // periodic in flight
        do {
            let r = s.handle(.resumeSample(sleepOffsetS: 100, at: F.at(1802)))
            #expect(r == .none)
        }
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(1803)))
            #expect(r == .none)  // still waiting for a fix after the wake-up
        }
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(1804)), at: F.at(1804)))
            #expect(request(r)?.trigger == .resume)
        }
    }

    /// The first fix after the wake-up comes while a reading is in flight: that reading's end brings
    /// the resume reading, at the new fix.
    @Test func aFixAfterAResumeDuringAReadingGivesTheResumeReadingAtItsEnd() {
        var s = started()
        _ = s.handle(.tick(at: F.at(1801)))  // periodic in flight
        _ = s.handle(.resumeSample(sleepOffsetS: 100, at: F.at(1802)))
        do {
            let r = s.handle(.fix(F.fix(F.berlin, at: F.at(1803)), at: F.at(1803)))
            #expect(r == .none)
        }
        let resume = request(s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(1804))))
        #expect(resume?.trigger == .resume)
        #expect(resume?.position.source == .gps)
    }

    @Test func aForcedRequestDuringAForcedReadingJoinsIt() {
        var s = started()
        _ = s.handle(.manualRequest(at: F.at(10)))
        do {
            let r = s.handle(.manualRequest(at: F.at(11)))
            #expect(r == .none)
        }
        #expect(s.pendingForced == nil)
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(12)))
            #expect(r == .none)
        }
    }

    @Test func aStrayFinishChangesNothingButTheReference() {
        var s = started()
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.north(km: 3), at: F.at(10)))
            #expect(r == .none)
        }
        #expect(s.movement.fetchPoint == F.north(km: 3))
    }

    // MARK: alerts

    @Test func newAlertsGiveAnOrdinaryAlertReadingJoinedWhileOneIsInFlight() {
        var before = ReadingScheduler(startedAt: F.at(0), lastKnown: F.fix(F.berlin, at: F.at(-5)))
        #expect(before.handle(.newAlerts(at: F.at(1))) == .none)  // the startup reading comes first
        var s = started()
        let alert = request(s.handle(.newAlerts(at: F.at(10))))
        #expect(
            alert == ReadingScheduler.Request(trigger: .alert, position: F.fix(F.berlin, at: F.at(1)), forced: false))
        do {
            let r = s.handle(.newAlerts(at: F.at(11)))
            #expect(r == .none)  // joined
        }
        #expect(s.pendingForced == nil)
        do {
            let r = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(12)))
            #expect(r == .none)  // and not repeated after
        }
        #expect(s.nextTickAt == F.at(10 + 1800))  // it restarted the period
    }

    // MARK: configuration

    @Test func configurationComesFromSettings() {
        var settings = Settings()
        settings.trigger.moveKm = 1
        settings.trigger.periodicMin = 5
        settings.trigger.resumeMinAwayS = 10
        settings.gps.fixTimeoutS = 3
        settings.gps.fixRetries = 1
        let c = ReadingScheduler.Configuration(settings: settings, retryDelayS: 1)
        #expect(
            c == .init(moveKm: 1, periodicMin: 5, resumeMinAwayS: 10, fixTimeoutS: 3, fixRetries: 1, retryDelayS: 1))
        var s = ReadingScheduler(settings: settings, startedAt: F.at(0), lastKnown: F.fix(F.berlin, at: F.at(-5)))
        #expect(s.configuration == .init(settings: settings))
        #expect(s.configuration.retryDelayS == FixWaitPolicy.retryDelayS)
        do {
            let r = s.handle(.tick(at: F.at(3)))
            #expect(r == .retryFix(attempt: 1, of: 1))
        }
        do {
            let r = s.handle(.tick(at: F.at(6.9)))  // 3 s + 1 s delay + 3 s
            #expect(r == .none)
        }
        do {
            let r = s.handle(.tick(at: F.at(7)))
            #expect(request(r)?.trigger == .startup)
        }
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(8)))
        do {
            let r = s.handle(.fix(F.fix(F.north(km: 1.1), at: F.at(9)), at: F.at(9)))
            #expect(request(r)?.trigger == .moved)
        }
    }
}
