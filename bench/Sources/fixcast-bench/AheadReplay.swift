import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials
import Synchronization

/// The Open-Meteo side of an ahead replay: answers each multi-location request with one copy of a
/// recorded location per location asked for (as Tests/Support/fixture_server.py's `multi_location`
/// does), and keeps, for every request, the virtual time it came and how many locations it named
/// (Open-Meteo counts each location as one call unit).
final class RecordedAheadAnswers: HTTPFetching {
    struct Asked: Sendable {
        var at: Date
        var locations: Int
    }

    private let location: [UInt8]
    private let clock: ManualClock
    private let log = Mutex<[Asked]>([])

    /// `recorded`: a recorded multi-location answer (a JSON array); its first object is the copy.
    init?(recorded: [UInt8], clock: ManualClock) {
        guard let first = Self.firstElement(recorded) else { return nil }
        self.location = first
        self.clock = clock
    }

    var asked: [Asked] { log.withLock { $0 } }

    func get(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let query = request.url.split(separator: "?", maxSplits: 1).last ?? ""
        let lats = query.split(separator: "&").first { $0.hasPrefix("latitude=") } ?? ""
        let n = lats.dropFirst("latitude=".count).split(separator: ",").count
        let now = clock.now()
        log.withLock { $0.append(Asked(at: now, locations: n)) }
        var body: [UInt8] = [UInt8(ascii: "[")]
        for k in 0..<n {
            if k > 0 { body.append(UInt8(ascii: ",")) }
            body += location
        }
        body.append(UInt8(ascii: "]"))
        return HTTPResponse(
            status: 200, headers: ["content-type": "application/json"], body: body, effectiveURL: request.url)
    }

    /// The bytes of the first value of a JSON array (strings and nesting respected).
    static func firstElement(_ json: [UInt8]) -> [UInt8]? {
        guard let open = json.firstIndex(of: UInt8(ascii: "[")) else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var start: Int?
        for i in (open + 1)..<json.count {
            let b = json[i]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                }
                continue
            }
            switch b {
            case 0x22: inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 { start = i }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0, let s = start { return Array(json[s...i]) }
                if depth < 0 { return nil }
            default: break
            }
        }
        return nil
    }
}

/// Replays a recorded drive through `AheadService` as `run` drives it, in virtual time: each fix sets
/// the clock to its own time, goes through the track thinner into a real SQLite store (the track the
/// service learns the speed and the course from, written before each reading as the loop does), and
/// is a reading (`refreshed`): a reading at every fix is the most often `run` could ask, so the
/// requests counted are an upper bound of `run`'s. Every forecast made is kept.
struct AheadReplay: Sendable {
    struct Made: Sendable {
        /// Index of the fix the forecast was made at.
        var fixIndex: Int
        var forecast: AheadForecast
    }

    var forecasts: [Made] = []
    var asked: [RecordedAheadAnswers.Asked] = []

    static func run(
        fixes: [Fix], routePath: String?, recorded: [UInt8], refreshMin: Double, storeDirectory: String
    ) async throws -> AheadReplay {
        guard let first = fixes.first else { return AheadReplay() }
        let clock = ManualClock(first.receivedAt)
        guard let http = RecordedAheadAnswers(recorded: recorded, clock: clock) else {
            throw BenchFailure("the recorded multi-location answer is not a JSON array")
        }
        var settings = Settings().ahead
        settings.enabled = true
        settings.baseURL = "http://127.0.0.1:9"
        settings.refreshMin = refreshMin
        settings.route = routePath ?? ""
        let route = try AheadService.loadRoute(settings.route)
        let store = try SQLiteStore(path: storeDirectory + "/ahead-replay.sqlite")
        let service = AheadService(
            settings: settings, route: route, http: http, store: store, places: OfflinePlaces(), clock: clock)
        var thinner = TrackThinner()
        var pending: [Fix] = []
        var out = AheadReplay()
        var lastMade: Date?
        for (i, fix) in fixes.enumerated() {
            clock.set(fix.receivedAt)
            if thinner.accept(fix) { pending.append(fix) }
            if !pending.isEmpty {
                try await store.appendTrackPoints(pending)
                pending.removeAll()
            }
            let outcome = await service.refreshed(from: Position(fix: fix), force: false, offline: false)
            if let f = outcome.forecast, f.madeAt == fix.receivedAt, f.madeAt != lastMade {
                lastMade = f.madeAt
                out.forecasts.append(Made(fixIndex: i, forecast: f))
            }
        }
        out.asked = http.asked
        return out
    }
}

struct BenchFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
