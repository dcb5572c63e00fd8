import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation
import Synchronization
import Testing

/// A last-known store in memory, for tests (the SQLite one is tested with the store).
actor InMemoryLastKnownStore: LastKnownPositionStore {
    private(set) var stored: Position?
    private(set) var saves = 0

    init(_ position: Position? = nil) { stored = position }

    func lastKnownPosition() async throws(StorageError) -> Position? { stored }

    func saveLastKnownPosition(_ position: Position) async throws(StorageError) {
        stored = position
        saves += 1
    }
}

/// gpsd on a pty of the test's own, with a client connected, watching and synced to the stream (gpsd
/// primed with a no-fix cycle): the set-up of most GPS integration tests. `stop()` stops both.
/// `primed: false` leaves the priming for `syncedWithSecondClient()`, once the binary under test
/// listens too.
struct WatchedGPSD: @unchecked Sendable {
    let gpsd: GPSDOnPTY
    let client: GPSDClient
    let recorder: EventRecorder

    static func start(backoff: ReconnectBackoff = ReconnectBackoff(), primed: Bool = true) async throws -> WatchedGPSD {
        let gpsd = try GPSDOnPTY()
        let address: GPSDAddress
        do { address = try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)") } catch {
            gpsd.stop()
            throw error
        }
        let client = GPSDClient(address: address, backoff: backoff)
        let recorder = EventRecorder(client)
        client.start()
        #expect(await recorder.wait { $0.isConnected } != nil)
        let watched = WatchedGPSD(gpsd: gpsd, client: client, recorder: recorder)
        guard primed else { return watched }
        #expect(gpsd.waitForClient())
        #expect(await primeUntilSynced(gpsd, observer: recorder))
        return watched
    }

    /// "127.0.0.1:port", for `--gpsd`.
    var address: String { "127.0.0.1:\(gpsd.port)" }

    /// Once a second client (the binary under test) connected: gpsd primed until synced, so both see
    /// what is fed next from its start (use with `primed: false`).
    func syncedWithSecondClient() async -> Bool {
        guard gpsd.waitForClient(count: 2) else { return false }
        return await primeUntilSynced(gpsd, observer: recorder)
    }

    func stop() {
        client.stop()
        gpsd.stop()
    }

    /// A `GPSDConnection` of the test's own to this gpsd, open and watching; nil (an issue recorded)
    /// when it does not connect. The caller closes it.
    func openConnection() -> GPSDConnection? {
        guard let address = try? GPSDAddress(host: "127.0.0.1", port: Int(gpsd.port)) else {
            Issue.record("gpsd's port makes an address")
            return nil
        }
        let connection = GPSDConnection(address: address)
        guard case .opened = connection.open() else {
            Issue.record("the connection reaches gpsd")
            return nil
        }
        return connection
    }

    /// Feeds one epoch a second before `start` at (lat, lon), waits until the watcher saw its fix, and
    /// reads everything `connection` has so far into `events`, at `now`: gpsd's first fix comes from
    /// GGA alone, before RMC gives it the date, so the epochs a test feeds after this one are dated.
    func warmUp(
        _ connection: GPSDConnection, before start: Date, lat: Double, lon: Double, into events: inout [GPSEvent],
        at now: MonotonicInstant
    ) async throws {
        let warmUp = NMEAWriter.Epoch(lat: lat, lon: lon, time: start.addingTimeInterval(-1))
        for line in NMEAWriter.log([warmUp]) { gpsd.write(line) }
        #expect(await recorder.wait { $0.fix.map { abs($0.coordinate.lat - warmUp.lat) < 1e-6 } ?? false } != nil)
        try await Task.sleep(for: .milliseconds(300))
        while connection.hasWaitingReport { _ = connection.readAvailable(into: &events, at: now) }
    }
}

/// Records a client's events as they come (and the batches they came in), so a test can wait for the
/// one it needs.
final class EventRecorder: Sendable {
    private final class Box: Sendable {
        let seen = Mutex<[GPSEvent]>([])
        let batches = Mutex<[[GPSEvent]]>([])
        let finished = Mutex(false)
    }
    private let box = Box()
    private let task: Task<Void, Never>

    init(_ client: GPSDClient) {
        let box = self.box
        task = Task {
            for await batch in client.events {
                box.batches.withLock { $0.append(batch) }
                box.seen.withLock { $0.append(contentsOf: batch) }
            }
            box.finished.withLock { $0 = true }
        }
    }

    var events: [GPSEvent] { box.seen.withLock { $0 } }
    var batches: [[GPSEvent]] { box.batches.withLock { $0 } }
    var isFinished: Bool { box.finished.withLock { $0 } }

    /// Waits (up to a generous guard time, only so a broken build cannot hang) for an event matching `match`.
    @discardableResult
    func wait(seconds: Double = 20, after index: Int = 0, for match: (GPSEvent) -> Bool) async -> GPSEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let e = events.dropFirst(index).first(where: match) { return e }
            if isFinished { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func waitForEnd(seconds: Double = 5) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isFinished { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    deinit { task.cancel() }
}

struct UnsafeTransfer<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension GPSEvent {
    var fix: Fix? {
        if case .fix(let f) = self { return f }
        return nil
    }
    var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }
    var disconnection: GPSError? {
        if case .disconnected(let e) = self { return e }
        return nil
    }
}

/// Feeds a log on a thread of its own (the test goes on listening meanwhile).
func feedInBackground(_ gpsd: GPSDOnPTY, _ log: ReceiverLog, pause: Double = 0.003) -> Task<Void, Never> {
    let box = UnsafeTransfer((gpsd, log))
    return Task.detached { box.value.0.feed(box.value.1, pause: pause) }
}

/// Feeds a log again and again until the task is cancelled (for tests where any part of the log will
/// do: gpsd may drop the first bytes of a binary stream while it syncs to the protocol).
func feedRepeatedly(_ gpsd: GPSDOnPTY, _ log: ReceiverLog, pause: Double = 0.005) -> Task<Void, Never> {
    let box = UnsafeTransfer((gpsd, log))
    return Task.detached {
        while !Task.isCancelled {
            for chunk in box.value.1.chunks where !Task.isCancelled {
                box.value.0.write(chunk)
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }
}

/// A no-fix NMEA cycle (from haicom-305N.log) used to prime gpsd before a log is fed.
let noFixPrimer = [
    "$GPGGA,095257.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,*7B",
    "$GPRMC,095257.809,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A*64",
    "$GPVTG,0.00,T,,,0.00,N,0.00,K,A*70",
    "$GPGGA,095258.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,*74",
    "$GPGSA,A,1,,,,,,,,,,,,,0.0,0.0,0.0*30",
    "$GPRMC,095258.809,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A*6B",
    "$GPVTG,0.00,T,,,0.00,N,0.00,K,A*70",
].map { Array(($0 + "\r\n").utf8) }

/// Writes no-fix sentences until `observer` (a client watching the same gpsd) reports a no-fix TPV.
/// From then on gpsd is synced to the stream, so nothing fed afterwards is flushed away while it
/// sets the line up: a real signal instead of a guessed delay.
@discardableResult
func primeUntilSynced(_ gpsd: GPSDOnPTY, observer: EventRecorder, seconds: Double = 20) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if observer.events.contains(.noFix) { return true }
        for line in noFixPrimer { gpsd.write(line) }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return observer.events.contains(.noFix)
}
