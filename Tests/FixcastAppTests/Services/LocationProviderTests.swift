import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast now`'s position against a real gpsd: fix, retries, and the stored fallback.
@Suite("LocationProvider against a real gpsd", .scratch)
struct LocationProviderTests {
    static let stored = Position(
        coordinate: Coordinate(lat: 52.52, lon: 13.405)!, altitudeM: 34, mode: .threeD,
        fixTime: Date(timeIntervalSince1970: 1_790_000_000), obtainedAt: Date(timeIntervalSince1970: 1_790_000_000),
        source: .gps)

    @Test(
        "a log that acquires late: its first usable fixed position (the 2007 log is held until 3 fixes agree), from gps, saved as last-known"
    )
    func fixFromLateLog() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        let expected = try #require(NMEAReference.firstUsedPositionOfAnOldLog(in: log.lines))
        let gpsd = try GPSDOnPTY()
        defer { gpsd.stop() }
        let store = InMemoryLastKnownStore(Self.stored)
        let provider = LocationProvider(
            address: try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)"),
            limits: .init(timeoutS: 8, retries: 2, retryDelayS: 1), store: store)
        // A second client watching the same gpsd tells when gpsd is synced to the stream.
        let observer = GPSDClient(address: try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)"))
        let recorder = EventRecorder(observer)
        observer.start()
        defer { observer.stop() }
        #expect(await recorder.wait { $0.isConnected } != nil)
        let asking = Task { await provider.currentPosition() }
        #expect(gpsd.waitForClient(count: 2))
        #expect(await primeUntilSynced(gpsd, observer: recorder))
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }
        let outcome = await asking.value

        let position = try #require(outcome.position)
        #expect(position.source == .gps)
        #expect(abs(position.coordinate.lat - expected.lat) < 1e-5)
        #expect(abs(position.coordinate.lon - expected.lon) < 1e-5)
        #expect(position.mode != nil)
        #expect(outcome.error == nil)
        #expect(outcome.issues.isEmpty)
        #expect(await store.stored == position)
    }

    @Test("gpsd restarted while fixcast waits: it reconnects by itself and the fix still comes")
    func gpsdRestartDuringTheWait() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        let expected = try #require(NMEAReference.firstUsedPositionOfAnOldLog(in: log.lines))
        let gpsd = try GPSDOnPTY()
        defer { gpsd.stop() }
        let address = try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)")
        let provider = LocationProvider(
            address: address, limits: .init(timeoutS: 15, retries: 0, retryDelayS: 1), store: InMemoryLastKnownStore(),
            reconnect: ReconnectBackoff(initialS: 0.3, maximumS: 1))
        let asking = Task { await provider.currentPosition() }
        #expect(gpsd.waitForClient())
        gpsd.killGPSD()
        try gpsd.startGPSD()

        let observer = GPSDClient(address: address)
        let recorder = EventRecorder(observer)
        observer.start()
        defer { observer.stop() }
        #expect(gpsd.waitForClient(count: 2))
        #expect(await primeUntilSynced(gpsd, observer: recorder))
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }
        let outcome = await asking.value
        let position = try #require(outcome.position)
        #expect(position.source == .gps)
        #expect(abs(position.coordinate.lat - expected.lat) < 1e-5)
        #expect(abs(position.coordinate.lon - expected.lon) < 1e-5)
    }

    @Test("a log that never gets a fix: each try times out, 2 retries, then the stored position with a note")
    func noFixFallsBackAfterRetries() async throws {
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/skytraq.log"))
        defer { fake.stop() }
        let clock = SystemClock()
        let store = InMemoryLastKnownStore(Self.stored)
        let provider = LocationProvider(
            address: try GPSDAddress(parsing: "127.0.0.1:\(fake.port)"),
            limits: .init(timeoutS: 1, retries: 2, retryDelayS: 0.2), store: store, clock: clock)
        let began = clock.now()
        let outcome = await provider.currentPosition()
        let waited = clock.now().timeIntervalSince(began)

        let position = try #require(outcome.position)
        #expect(position.source == .lastKnown)
        #expect(position.coordinate == Self.stored.coordinate)
        #expect(position.obtainedAt == Self.stored.obtainedAt)
        #expect(outcome.error == nil)
        let note = try #require(outcome.issues.first)
        #expect(note.component == .gps)
        #expect(
            note.message.hasPrefix(
                "gps: no fix after 3 tries of 1 s; using the last known position from \(UTCTime.format(Self.stored.obtainedAt)), "
            ))
        // Three tries of 1 s and two pauses of 0.2 s happened (a lower bound, not a timing assertion).
        #expect(waited >= 3.4)
        #expect(await store.saves == 0)
    }

    /// The wait itself (3 tries of 8 s by default, 26 s in all) is `FixWaitPolicy`'s, tested in
    /// virtual time (FixWaitPolicyTests); here the settings' limits reach the provider, and a real
    /// gpsd that never gets a fix ends, with nothing stored, in the no-fix error (short tries).
    @Test("a binary log that never gets a fix, with nothing stored: the no-fix error")
    func timeoutNothingStored() async throws {
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/bu303-nofix.log"))
        defer { fake.stop() }
        let address = try GPSDAddress(parsing: "127.0.0.1:\(fake.port)")
        let defaults = LocationProvider(settings: Settings().gps, address: address, store: InMemoryLastKnownStore())
        #expect(defaults.limits == FixWaitPolicy.Limits(timeoutS: 8, retries: 2, retryDelayS: 1))
        #expect(
            GPSError.noFixInTime(address: address.description, attempts: 3, timeoutS: 8).message
                == "gps: no fix from gpsd at \(address) after 3 tries of 8 s and no position is stored; give the receiver a clear view of the sky or pass --at LAT,LON."
        )
        let provider = LocationProvider(
            address: address, limits: .init(timeoutS: 1, retries: 2, retryDelayS: 0.2),
            store: InMemoryLastKnownStore())
        let began = Date()
        let outcome = await provider.currentPosition()
        #expect(outcome.position == nil)
        #expect(outcome.error == .noFixInTime(address: address.description, attempts: 3, timeoutS: 1))
        #expect(Date().timeIntervalSince(began) >= 3.4)
    }

    @Test("gpsd not listening, a stored position: last-known at once, with a note naming gpsd")
    func unreachableWithStoredPosition() async throws {
        let port = freeLoopbackPort()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000 + 3 * 3600 + 5))
        let provider = LocationProvider(
            address: try GPSDAddress(parsing: "127.0.0.1:\(port)"), store: InMemoryLastKnownStore(Self.stored),
            clock: clock)
        let outcome = await provider.currentPosition()
        let position = try #require(outcome.position)
        #expect(position.source == .lastKnown)
        #expect(position.ageSeconds(at: clock.now()) == 3 * 3600 + 5)
        #expect(
            outcome.issues.map(\.message) == [
                "gps: gpsd at 127.0.0.1:\(port) is not answering; using the last known position from \(UTCTime.format(Self.stored.obtainedAt)), 3 h old."
            ])
    }

    @Test("gpsd not listening, nothing stored: the unreachable error, one sentence")
    func unreachableNothingStored() async throws {
        let port = freeLoopbackPort()
        let provider = LocationProvider(address: try GPSDAddress(parsing: "127.0.0.1:\(port)"), store: nil)
        let outcome = await provider.currentPosition()
        #expect(outcome.position == nil)
        #expect(
            outcome.error?.message
                == "gps: gpsd at 127.0.0.1:\(port) is not answering; start gpsd (systemctl start gpsd) or pass --at LAT,LON."
        )
    }
}
