import FixcastCore
import FixcastText
import FoundationEssentials

/// Which trip `fixcast report --trip` means: a number as `fixcast trips` lists them, or the last.
public enum TripChoice: Sendable, Hashable {
    case number(Int)
    /// The last trip that went somewhere (the very last when none did). A trip of no distance is
    /// one point on its own, with no other fix received within the gap (an undated first fix joins the
    /// fixes received next to it, `UndatedTripTime`): not what "my last trip" means.
    case last

    /// The index in `trips` (oldest first) that `last` means; nil when there is none.
    public static func lastIndex(_ trips: [StoredTrip]) -> Int? {
        trips.lastIndex { $0.distanceKm > 0 } ?? (trips.isEmpty ? nil : trips.count - 1)
    }

    /// `last`, or a whole number from 1; nil otherwise (the CLI exits 2 naming --trip).
    public init?(parsing text: String) {
        if text == "last" {
            self = .last
            return
        }
        guard let n = Int(text), n >= 1 else { return nil }
        self = .number(n)
    }
}

/// What `report -o` writes, from the file name's extension.
public enum ReportFormat: String, Sendable, Hashable {
    case svg, html

    /// `.svg` or `.html`/`.htm` (any case); nil for anything else.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".svg") {
            self = .svg
        } else if lower.hasSuffix(".html") || lower.hasSuffix(".htm") {
            self = .html
        } else {
            return nil
        }
    }
}

/// Why `trips` or `report` could not do it; code branches on the case, people read the message.
public enum ReportError: UserFacingError, Hashable {
    case noTrips(path: String)
    /// `--trip N` past the last trip: a usage error (exit 2).
    case noSuchTrip(number: Int, count: Int)
    case nothingInRange
    case cannotWrite(path: String, detail: String)
    case storage(StorageError)

    public var component: Component { .storage }

    public var message: String {
        switch self {
        case .noTrips(let p):
            return "report: no trips in the store \(p); record one with fixcast run (or pass --db PATH)."
        case .noSuchTrip(let n, let count):
            return
                "report: --trip \(n): the store has \(CountedNoun.phrase(count, "trip")); see fixcast trips for their numbers."
        case .nothingInRange:
            return "report: no track points in the chosen time range; widen --since/--until or see fixcast trips."
        case .cannotWrite(let p, let d) where p == "-":
            return
                "report: cannot write to standard output (\(d)); check where the output goes (a full disk, a closed stream)."
        case .cannotWrite(let p, let d):
            return
                "report: cannot write \(p) (\(d)); check the folder exists and is writable, or use -o with another path."
        case .storage(let e):
            return e.message
        }
    }

    /// Exit status: a trip number that does not exist is a usage error (2), the rest could not be done (1).
    public var exitCode: Int32 { if case .noSuchTrip = self { return 2 } else { return 1 } }
}
