import FixcastCore
import FoundationEssentials
import Testing

/// `fixcast now` as a one-reading run of the agent's reducer (`stopsAfterFirstReading`), in virtual
/// time: the first fix gives the reading, it is printed and the agent leaves; no fix within the
/// wait falls back to the last known position with `now`'s note, or ends in one sentence and exit 1;
/// gpsd not answering ends the wait at once.
@Suite struct AgentReducerOneReadingTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture

    static var configuration: AgentReducer.Configuration {
        var c = AgentReducer.Configuration()
        c.stopsAfterFirstReading = true
        c.gpsdAddress = A.gpsd
        return c
    }

    static let stored = Position(
        coordinate: F.berlin, mode: .threeD, obtainedAt: F.at(-3 * 3600), source: .gps, satellitesUsed: 7)

    @Test func theFirstFixGivesTheReadingThenTheAgentLeaves() {
        var r = A.reducer(Self.configuration)
        #expect(r.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS])
        #expect(r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1))) == [])
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        // No track point: `now` keeps no track; the fix is still saved as the last known position.
        #expect(
            r.handle(.gps(.fix(f1), at: F.at(1)))
                == [
                    .takeReading(ReadingRequest(trigger: .once, position: p1, forced: false)), .saveLastKnown(p1),
                    .redraw,
                ])
        // More fixes while the reading is under way ask for nothing more.
        #expect(!A.requests(r.handle(.gps(.fix(A.fix(F.north(km: 20), at: 2)), at: F.at(2)))).contains { _ in true })
        let reading = A.reading(.startup, at: p1, time: 3)
        #expect(r.handle(.readingFinished(reading, at: F.at(3))) == [.printReading(reading)])
        #expect(r.nextDeadline == F.at(3))
        #expect(r.handle(.deadline(at: F.at(3))) == [.writeTrack, .exit(code: 0)])
        #expect(r.handle(.gps(.fix(A.fix(F.berlin, at: 4)), at: F.at(4))) == [], "left")
    }

    /// A store that refused the reading (locked by another program) refuses the last-known write at
    /// the end too: the reading printed the sentence, so the end does not say it again (it did).
    @Test func aStorageProblemThePrintedReadingToldIsNotSaidAgainAtTheEnd() {
        let locked = ReadingIssue(component: .storage, message: "storage: the store was kept locked; try again.")
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        let f1 = A.fix(F.berlin, at: 1)
        _ = r.handle(.gps(.fix(f1), at: F.at(1)))
        let reading = A.reading(.startup, at: A.position(f1), time: 3, errors: [locked])
        #expect(r.handle(.readingFinished(reading, at: F.at(3))) == [.printReading(reading)])
        #expect(r.handle(.deadline(at: F.at(3))) == [.writeTrack, .exit(code: 1)])
        #expect(r.handle(.trackFinished(locked)) == [], "said with the reading; the exit stays 1")
        // Another problem at the end is news.
        var other = A.reducer(Self.configuration)
        _ = other.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = other.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        _ = other.handle(.gps(.fix(f1), at: F.at(1)))
        _ = other.handle(.readingFinished(A.reading(.startup, at: A.position(f1), time: 3), at: F.at(3)))
        _ = other.handle(.deadline(at: F.at(3)))
        #expect(
            other.handle(.trackFinished(locked)) == [
                .announceHealth([HealthNotice(component: .storage, message: locked.message, isFailure: true)]),
                .exit(code: 1),
            ])
    }

    @Test func noFixWithinTheWaitFallsBackToTheLastKnownPositionWithNowsNote() {
        var r = A.reducer(Self.configuration, lastKnown: Self.stored)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        // 3 tries of 8 s, 1 s apart: the wait ends at 26 s.
        #expect(A.requests(r.handle(.deadline(at: F.at(8)))).isEmpty)
        #expect(A.requests(r.handle(.deadline(at: F.at(17)))).isEmpty)
        let note = ReadingIssue(
            component: .gps,
            message:
                "gps: no fix after 3 tries of 8 s; using the last known position from 2027-01-15T05:00:00Z, 3 h old.")
        #expect(
            A.requests(r.handle(.deadline(at: F.at(26)))) == [
                ReadingRequest(trigger: .once, position: A.lastKnown(Self.stored), forced: false, notes: [note])
            ])
        let reading = A.reading(.startup, at: A.lastKnown(Self.stored), time: 27, errors: [note])
        #expect(r.handle(.readingFinished(reading, at: F.at(27))) == [.printReading(reading)])
        #expect(r.handle(.deadline(at: F.at(27))) == [.exit(code: 0)])
    }

    @Test func noFixAndNothingStoredIsOneSentenceAndExitOne() {
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        #expect(
            r.handle(.deadline(at: F.at(26))) == [
                .sayNoPosition(.noFixInTime(address: A.gpsd, attempts: 3, timeoutS: 8)), .exit(code: 1),
            ])
        #expect(r.nextDeadline == nil)
    }

    @Test func gpsdLostDuringTheWaitSaysSo() {
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        _ = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(3)))
        #expect(
            r.handle(.deadline(at: F.at(26))) == [
                .sayNoPosition(.lostBeforeFix(address: A.gpsd, attempts: 3, timeoutS: 8)), .exit(code: 1),
            ])
    }

    /// A `gps.host` name the DNS did not answer for: said as that, not as "start gpsd".
    @Test func aHostNameNotLookedUpIsSaidAsSuch() {
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(
            r.handle(.gps(.disconnected(.nameNotResolved(address: "gpspi.local:2947")), at: F.at(4)))
                == [.sayNoPosition(.nameNotResolved(address: "gpspi.local:2947")), .exit(code: 1)])
        #expect(GPSError.nameNotResolved(address: "h:1").message.contains("set gps.host to an address"))

        // With a position stored: the reading at it says why as well, not "gpsd is not answering".
        var stored = A.reducer(Self.configuration, lastKnown: Self.stored)
        _ = stored.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let request = A.requests(
            stored.handle(.gps(.disconnected(.nameNotResolved(address: A.gpsd)), at: F.at(4)))
        ).first
        #expect(request?.position.source == .lastKnown)
        #expect(request?.notes.first?.message.contains("could not be looked up in time") == true)
    }

    @Test func gpsdUnreachableEndsTheWaitAtOnce() {
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        // The same sentence `run` shows for gpsd not answering (`GPSError.unreachable`), at once.
        #expect(
            r.handle(.gps(.disconnected(.unreachable(address: A.gpsd, detail: "Connection refused")), at: F.at(0.1)))
                == [.sayNoPosition(.unreachable(address: A.gpsd, detail: nil)), .exit(code: 1)])
        #expect(
            GPSError.unreachable(address: A.gpsd, detail: nil).message
                == GPSError.unreachable(address: A.gpsd, detail: "Connection refused").message)
    }

    @Test func gpsdUnreachableWithAStoredPositionReadsThere() {
        var r = A.reducer(Self.configuration, lastKnown: Self.stored)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let note = ReadingIssue(
            component: .gps,
            message:
                "gps: gpsd at \(A.gpsd) is not answering; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        )
        #expect(
            A.requests(r.handle(.gps(.disconnected(.unreachable(address: A.gpsd, detail: nil)), at: F.at(0.1)))) == [
                ReadingRequest(trigger: .once, position: A.lastKnown(Self.stored), forced: false, notes: [note])
            ])
    }

    @Test func runWaitsTheAttemptsOutWhenGpsdIsUnreachable() {
        var c = Self.configuration
        c.stopsAfterFirstReading = false
        var r = A.reducer(c)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let effects = r.handle(.gps(.disconnected(.unreachable(address: A.gpsd, detail: nil)), at: F.at(0.1)))
        #expect(!effects.contains(.exit(code: 1)))
        #expect(r.nextDeadline != nil)
    }

    @Test func aReadingWithoutWeatherExitsOne() {
        var r = A.reducer(Self.configuration, fixed: F.fix(F.berlin, at: F.at(0)))
        let effects = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(A.requests(effects).count == 1)
        #expect(!effects.contains(.connectGPS), "--at and --place bypass gpsd")
        let reading = A.reading(.startup, at: F.fix(F.berlin, at: F.at(0)), time: 1, weather: false)
        #expect(r.handle(.readingFinished(reading, at: F.at(1))) == [.printReading(reading)])
        #expect(r.handle(.deadline(at: F.at(1))) == [.exit(code: 1)])
    }

    @Test func aStopBeforeTheReadingIsNoSuccess() {
        var r = A.reducer(Self.configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        #expect(r.handle(.stopRequested(at: F.at(2))) == [.exit(code: 1)])
    }
}

extension AgentReducerOneReadingTests {
    @Test func forceAndAStoreProblemGoIntoTheOneReading() {
        var c = Self.configuration
        c.forcesTheReading = true
        let fixed = F.fix(F.berlin, at: F.at(0))
        var r = A.reducer(c, fixed: fixed)
        let issue = ReadingIssue(component: .storage, message: "storage: the store could not be opened.")
        _ = r.handle(.storageProblem(issue))
        #expect(
            A.requests(r.handle(.started(at: F.at(0), sleepOffsetS: nil))) == [
                ReadingRequest(trigger: .once, position: fixed, forced: true, notes: [issue])
            ])
        let reading = A.reading(.startup, at: fixed, time: 1, errors: [issue])
        _ = r.handle(.readingFinished(reading, at: F.at(1)))
        #expect(r.handle(.deadline(at: F.at(1))) == [.exit(code: 1)], "not stored: a loss")
    }
}

/// `forecast`, `alerts` and `ahead` (`stopsAtPosition`): the same run, ended where its reading would
/// start, the position handed back with its notes.
extension AgentReducerOneReadingTests {
    static var stopsAtPosition: AgentReducer.Configuration {
        var c = AgentReducer.Configuration()
        c.stopsAtPosition = true
        c.gpsdAddress = A.gpsd
        return c
    }

    @Test func theFirstFixIsHandedBackSavedAsTheLastKnownPositionAndTheAgentLeaves() {
        #expect(Self.stopsAtPosition.stopsAfterFirstReading, "a one-reading run's fix wait")
        var r = A.reducer(Self.stopsAtPosition)
        #expect(r.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS])
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        #expect(
            r.handle(.gps(.fix(f1), at: F.at(1)))
                == [
                    .positionResolved(ReadingRequest(trigger: .startup, position: p1, forced: false)),
                    .saveLastKnown(p1), .writeTrack, .exit(code: 0),
                ])
        #expect(r.nextDeadline == nil)
        #expect(r.handle(.gps(.fix(A.fix(F.berlin, at: 2)), at: F.at(2))) == [], "left")
    }

    @Test func noFixFallsBackWithNowsNoteAndTheStoresProblemIsNotANote() {
        var r = A.reducer(Self.stopsAtPosition, lastKnown: Self.stored)
        _ = r.handle(.storageProblem(ReadingIssue(component: .storage, message: "storage: the store is damaged.")))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let note = ReadingIssue(
            component: .gps,
            message:
                "gps: gpsd at \(A.gpsd) is not answering; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        )
        let effects = r.handle(.gps(.disconnected(.unreachable(address: A.gpsd, detail: nil)), at: F.at(0.1)))
        #expect(
            effects.first
                == .positionResolved(
                    ReadingRequest(trigger: .startup, position: A.lastKnown(Self.stored), forced: false, notes: [note]))
        )
        #expect(!effects.contains { if case .takeReading = $0 { true } else { false } })
        #expect(effects.last.map { if case .exit = $0 { true } else { false } } == true)
    }

    @Test func noPositionAtAllIsNowsSentence() {
        var r = A.reducer(Self.stopsAtPosition)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(
            r.handle(.gps(.disconnected(.unreachable(address: A.gpsd, detail: nil)), at: F.at(0.1)))
                == [.sayNoPosition(.unreachable(address: A.gpsd, detail: nil)), .exit(code: 1)])
    }
}
