import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.scratch) struct SQLiteStoreTests {
    @Test func createsFolderAndMigratesAnEmptyFile() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try await store.schemaVersion() == StoreSchema.currentVersion)
        #expect(try await store.integrityCheck())
        let tables = try StoreTestData.sqlite3(path, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        #expect(
            tables.split(separator: "\n") == [
                "ahead_alerts", "ahead_forecasts", "ahead_samples", "last_known_position", "outbox", "place_cache",
                "readings", "sqlite_sequence", "state", "track_points", "weather_cache",
            ])
        #expect(try StoreTestData.sqlite3(path, "PRAGMA journal_mode") == "wal")
    }

    @Test func migratesAZeroByteFile() async throws {
        let path = StoreTestData.temporaryStorePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let store = try SQLiteStore(path: path)
        #expect(try await store.schemaVersion() == StoreSchema.currentVersion)
    }

    @Test func reopeningKeepsRowsAndDoesNotMigrateAgain() async throws {
        let path = StoreTestData.temporaryStorePath()
        do {
            let store = try SQLiteStore(path: path)
            try await store.insertReading(StoreTestData.reading())
        }
        let again = try SQLiteStore(path: path)
        #expect(try await again.readingCount() == 1)
        #expect(try await again.schemaVersion() == StoreSchema.currentVersion)
    }

    @Test func refusesANewerSchema() throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        _ = try StoreTestData.sqlite3(path, "PRAGMA user_version = \(StoreSchema.currentVersion + 1)")
        #expect(throws: StorageError.newerSchema(path: path, version: StoreSchema.currentVersion + 1)) {
            _ = try SQLiteStore(path: path)
        }
    }

    /// A negative schema version (a flipped bit in the header; no fixcast writes one) is damage, for a
    /// writer (which would have migrated from `migrations[-1]`, a trap) and a reader alike.
    @Test func aNegativeSchemaVersionIsDamageNotACrash() throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        _ = try StoreTestData.sqlite3(path, "PRAGMA user_version = -1")
        let damaged = StorageError.corrupt(path: path, detail: "its schema version -1 is not one fixcast writes")
        #expect(throws: damaged) { _ = try SQLiteStore(path: path) }
        #expect(throws: damaged) { _ = try SQLiteStore.forReading(path: path) }
    }

    /// A store is a history of where the machine has been: made 0600 whatever the umask (022 made it
    /// readable by every user), and its -wal takes the same mode. One made by hand keeps its own.
    @Test func aNewStoreIsReadableByItsOwnerAlone() async throws {
        let path = StoreTestData.temporaryStorePath()
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try SQLiteStore(path: path)
        try await store.insertReading(StoreTestData.reading())
        for file in [path, path + "-wal"] {
            var st = stat()
            #expect(
                stat(file, &st) == 0 && st.st_mode & 0o777 == 0o600, "\(file): \(String(st.st_mode & 0o777, radix: 8))")
        }
    }

    @Test func aFileThatIsNotADatabaseIsCorrupt() throws {
        let path = StoreTestData.temporaryStorePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try String(repeating: "not a database at all\n", count: 100).write(
            toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SQLiteStore(path: path)
            Issue.record("opening garbage succeeded")
        } catch {
            guard case .corrupt(let p, _) = error else {
                Issue.record("expected corrupt, got \(error)")
                return
            }
            #expect(p == path)
            #expect(error.message.hasPrefix("storage: "))
        }
    }

    @Test func anUnopenablePathIsCannotOpen() {
        // A path under a regular file: its folder can never be created.
        let file = TestPaths.temporaryDirectory().appendingPathComponent("plain-file").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let path = file + "/fixcast.sqlite"
        do {
            _ = try SQLiteStore(path: path)
            Issue.record("opened a database under a regular file")
        } catch {
            guard case .cannotOpen(let p, _) = error else {
                Issue.record("expected cannotOpen, got \(error)")
                return
            }
            #expect(p == path)
        }
    }

    @Test func aReadingReadsBackEqualToTheOriginal() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let original = StoreTestData.reading(placeName: "Zürich \"Altstadt\", <Kreis 1>")
        let id = try await store.insertReading(original)
        #expect(id > 0)
        #expect(try await store.lastReading() == original)
    }

    @Test func aReadingWithNothingButTimeReadsBack() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let bare = Reading(
            time: StoreTestData.t0, trigger: .once, position: nil,
            errors: [ReadingIssue(component: .gps, message: "gpsd at 127.0.0.1:2947 is not answering")])
        try await store.insertReading(bare)
        #expect(try await store.lastReading() == bare)
    }

    @Test func queryableColumnsHoldTheFields() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        try await store.insertReading(StoreTestData.reading())
        let row = try StoreTestData.sqlite3(
            path,
            "SELECT trigger, lat, lon, place_name, place_country_code, weather_provider, temperature_c, wind_dir_deg, weather_code, cached, errors FROM readings"
        )
        #expect(row == "moved|52.52|13.4138|Berlin|DE|open-meteo|3.1|250.0|3|1|place: place: slow, \"quoted\"")
    }

    /// The row stored last, not the latest time (`NewestRowTests`: a clock set back since).
    @Test func lastReadingIsTheOneStoredLast() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        #expect(try await store.lastReading() == nil)
        try await store.insertReading(StoreTestData.reading(at: 100, placeName: "Later"))
        try await store.insertReading(StoreTestData.reading(at: 0, placeName: "Earlier, inserted last"))
        #expect(try await store.lastReading()?.place?.name == "Earlier, inserted last")
        #expect(try await store.readingCount() == 2)
    }

    @Test func forEachReadingHonoursSinceAndUntilInOrder() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        for i in [3, 0, 2, 1, 4] {
            try await store.insertReading(StoreTestData.reading(at: Double(i) * 60, placeName: "r\(i)"))
        }
        var names: [String] = []
        // By the readings' fix times, as trips take them: here each a second before its reading.
        try await store.forEachReading(
            since: StoreTestData.t0.addingTimeInterval(59), until: StoreTestData.t0.addingTimeInterval(179)
        ) {
            names.append($0.place?.name ?? "?")
        }
        #expect(names == ["r1", "r2", "r3"])
        var all = 0
        try await store.forEachReading(since: nil, until: nil) { _ in all += 1 }
        #expect(all == 5)
    }

    @Test func trackPointsRoundTripInOneTransaction() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let fixes = (0..<50).map {
            StoreTestData.fix(at: Double($0), lat: 52.5 + Double($0) * 0.001, alt: $0 % 2 == 0 ? 40 : nil)
        }
        try await store.appendTrackPoints(fixes)
        try await store.appendTrackPoints([])
        #expect(try await store.trackPointCount() == 50)
        var back: [Fix] = []
        try await store.forEachTrackPoint(since: nil, until: nil) { back.append($0) }
        #expect(back == fixes)
        // By the receiver's times (half a second before each receive time here), or by the receive times.
        var window = 0
        try await store.forEachTrackPoint(
            since: StoreTestData.t0.addingTimeInterval(9.5), until: StoreTestData.t0.addingTimeInterval(18.5)
        ) { _ in window += 1 }
        #expect(window == 10)
        var received = 0
        try await store.forEachTrackPoint(
            since: StoreTestData.t0.addingTimeInterval(10), until: StoreTestData.t0.addingTimeInterval(19),
            by: .received
        ) { _ in received += 1 }
        #expect(received == 10)
    }

    /// The agent's hand-over: points and the last-known position in one transaction, again and again
    /// through the connection's kept statements (reset between uses, so each write sees its own values).
    @Test func trackPointsAndLastKnownGoTogetherThroughKeptStatements() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        var written: [Fix] = []
        for batch in 0..<4 {
            let fixes = (0..<3).map { StoreTestData.fix(at: Double(batch * 3 + $0), lat: 50 + Double(batch)) }
            written += fixes
            try await store.appendTrackPoints(fixes, lastKnown: Position(fix: fixes[2]))
            #expect(try await store.lastKnownPosition()?.coordinate == fixes[2].coordinate)
        }
        // Only a position: no point is added.
        let alone = StoreTestData.fix(at: 100, lat: 60)
        try await store.appendTrackPoints([], lastKnown: Position(fix: alone))
        #expect(try await store.lastKnownPosition()?.coordinate == alone.coordinate)
        var back: [Fix] = []
        try await store.forEachTrackPoint(since: nil, until: nil) { back.append($0) }
        #expect(back == written)
        // A second connection (the next `run`) reads what was committed.
        #expect(try await SQLiteStore(path: path).trackPointCount() == written.count)
    }

    @Test func fileSizeCountsTheDatabaseAndItsWAL() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let before = store.fileSizeBytes()
        #expect(before > 0)
        for i in 0..<20 { try await store.insertReading(StoreTestData.reading(at: Double(i))) }
        #expect(store.fileSizeBytes() > before)
    }

    @Test(arguments: [
        (["XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/fixcast/fixcast.sqlite"),
        (["XDG_DATA_HOME": "/data/", "HOME": "/home/u"], "/data/fixcast/fixcast.sqlite"),
        (["XDG_DATA_HOME": "relative/ignored", "HOME": "/home/u"], "/home/u/.local/share/fixcast/fixcast.sqlite"),
        (["HOME": "/home/u"], "/home/u/.local/share/fixcast/fixcast.sqlite"),
    ])
    func defaultPathFollowsXDG(environment: [String: String], expected: String) {
        #expect(SQLiteStore.defaultPath(environment: environment) == expected)
    }

    @Test func resolvedPathPrefersTheConfiguredOne() {
        let env = ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]
        #expect(SQLiteStore.resolvedPath(configured: "", environment: env) == "/data/fixcast/fixcast.sqlite")
        #expect(SQLiteStore.resolvedPath(configured: "/srv/f.sqlite", environment: env) == "/srv/f.sqlite")
        #expect(SQLiteStore.resolvedPath(configured: "~/f.sqlite", environment: env) == "/home/u/f.sqlite")
        #expect(SQLiteStore.resolvedPath(configured: "rel/f.sqlite", environment: env) == "rel/f.sqlite")
    }

    @Test func defaultPathWithoutHomeUsesThePasswordDatabase() {
        let path = SQLiteStore.defaultPath(environment: [:])
        #expect(path.hasSuffix("/.local/share/fixcast/fixcast.sqlite"))
        #expect(path.hasPrefix("/"))
    }

    @Test func twoConnectionsToOneFileBothWrite() async throws {
        let path = StoreTestData.temporaryStorePath()
        let a = try SQLiteStore(path: path)
        let b = try SQLiteStore(path: path)
        async let x: Void = { for i in 0..<50 { try await a.insertReading(StoreTestData.reading(at: Double(i))) } }()
        async let y: Void = { for i in 0..<50 { try await b.appendTrackPoints([StoreTestData.fix(at: Double(i))]) } }()
        _ = try await (x, y)
        #expect(try await a.readingCount() == 50)
        #expect(try await b.trackPointCount() == 50)
    }
}
