import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

/// `fixcast status`: gpsd reachability and last fix, the last reading and its age, the store.
struct StatusCommand {
    let context: CommandContext
    let options: StatusOptions

    func run() async -> Int32 {
        let clock = SystemClock()
        let gpsd = await GPSDStatus.probe(address: context.gpsd, timeout: 3)
        var storeIssue: String?
        var lastReading: Reading?
        var readingCount: Int?
        var bytes: Int64?
        var rejected: RejectedFixCounts?
        var unplacedAreas: Int?
        var mqtt = MQTTStatusReport(settings: context.settings.mqtt)
        let path = context.settings.storage.path
        // Read-only, and never a new store: "no store yet" is a fact to report, not a fault; a store
        // that exists but cannot be read (unreadable, damaged, foreign) is reported and exits 1.
        var noStore = false
        do {
            let store = try SQLiteStore.forReading(path: path)
            lastReading = try await store.lastReading()
            readingCount = try await store.readingCount()
            bytes = store.fileSizeBytes()
            rejected = try await store.rejectedFixes()
            unplacedAreas = AlertService.unplacedAreas(stateText: try await store.state(AlertService.unplacedAreasKey))
            await mqtt.read(from: store)
        } catch .missing {
            noStore = true
        } catch {
            storeIssue = error.message
        }
        let exitCode = storeIssue == nil ? ExitCode.success : ExitCode.failure
        let now = clock.now()
        if options.json {
            let json: JSONValue = .object([
                (
                    "gpsd",
                    .object([
                        ("address", .string(context.gpsd.description)),
                        ("reachable", .bool(gpsd.reachable)),
                        ("device", .string(gpsd.device)),
                        ("last_fix", gpsd.lastFix.map { Position(fix: $0).json(at: now) } ?? .null),
                        // Fixes dropped as implausible, stored by `run` and `now` (null: the store is unreadable).
                        ("rejected_fixes", rejected?.json ?? .null),
                    ])
                ),
                (
                    "store",
                    .object([
                        ("path", .string(path)),
                        ("bytes", bytes.map { .int(Int($0)) } ?? .null),
                        ("readings", .number(readingCount)),
                        ("error", .string(storeIssue)),
                    ])
                ),
                ("mqtt", mqtt.json),
                // MeteoAlarm geocodes of the last feeds that the bundled area table cannot place (null: no store).
                ("alerts", .object([("unplaced_areas", unplacedAreas.map { .int($0) } ?? .null)])),
                ("last_reading", lastReading?.json(language: context.language) ?? .null),
            ])
            Console.out(json.serialized() + "\n")
            if let storeIssue { Console.err(storeIssue + "\n") }
            return exitCode
        }
        var out = ""
        if gpsd.reachable {
            out += "gpsd      \(context.gpsd.description): answering"
            if let d = gpsd.device { out += ", device \(TerminalText.name(d))" }
            out += "\n"
            if let f = gpsd.lastFix {
                out += "last fix  \(SearchTable.formatCoordinate(f.coordinate)) (\(f.mode == .threeD ? "3D" : "2D"))"
                if let t = f.time { out += " at \(UTCTime.format(t))" }
                out += "\n"
            } else {
                out += "last fix  none seen in 3 s (no fix yet, or the receiver is silent)\n"
            }
        } else {
            out +=
                "gpsd      \(context.gpsd.description): not answering (start gpsd, or give now or run --at LAT,LON)\n"
        }
        if let rejected, rejected.total > 0 {
            out +=
                "rejected  \(CountedNoun.phrase(rejected.total, "implausible fix", plural: "implausible fixes")) "
                + "not used (\(CountedNoun.phrase(rejected.jump, "jump")), "
                + "\(rejected.time) with a wrong time, \(rejected.nullIsland) at 0,0)\n"
        }
        if let unplacedAreas, unplacedAreas > 0 {
            out +=
                "alerts    \(CountedNoun.phrase(unplacedAreas, "MeteoAlarm area code")) not in the area table (those warnings are listed for the whole country)\n"
        }
        if let r = lastReading {
            // status is English throughout (its labels, gpsd's and the store's lines): so is the age.
            var english = context.displayOptions
            english.language = .en
            let parts = ReadingParts(options: english, now: now)
            let labels = parts.labels
            var line =
                "reading   \(UTCTime.format(r.time)), \(labels.age(seconds: Int(clamping: now.timeIntervalSince(r.time), to: Int.min...Int.max)))"
            if let p = r.place { line += ", \(TerminalText.name(p.name))" }
            if let t = r.weather?.current.temperatureC { line += ", \(DisplayUnits(context.units).temperature(t))" }
            // Stored weather served because a fetch failed: the reading is new, its weather is not.
            if let w = r.weather, w.stale {
                line += " (weather \(parts.freshnessLine(w)))"
            }
            out += line + "\n"
        } else if storeIssue != nil {
            out += "reading   unknown: the store could not be read (see the store line)\n"
        } else {
            out += "reading   none stored yet\n"
        }
        if let storeIssue {
            out += "store     \(TerminalText.path(path)): \(TerminalText.path(storeIssue))\n"
        } else if noStore {
            out += "store     \(TerminalText.path(path)): no store yet (fixcast run or fixcast now makes it)\n"
        } else {
            out +=
                "store     \(TerminalText.path(path)), \(SearchTable.groupThousands(Int(bytes ?? 0))) bytes, \(CountedNoun.phrase(readingCount ?? 0, "reading"))\n"
        }
        out += mqtt.line + "\n"
        Console.out(out)
        if let storeIssue { Console.err(storeIssue + "\n") }
        return exitCode
    }
}
