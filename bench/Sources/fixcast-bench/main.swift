// Offline place index benchmark (bench/places.sh): load time and lookup time of the bundled GeoNames
// table, side by side with a brute-force scan. Timing lives here, never in tests.
import Fixcast
import FixcastCore

#if canImport(Glibc)
    import Glibc
#endif

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.isEmpty ? .nan : s[s.count / 2]
}

func format(_ s: Double) -> String {
    if s >= 1e-3 { return "\(Double(Int(s * 1e5)) / 100) ms" }
    return "\(Double(Int(s * 1e8)) / 100) µs"
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

let files = DataFiles.current()
guard let path = CommandLine.arguments.dropFirst().first ?? files.locate("places.tsv") else {
    Console.err(
        "fixcast-bench: places.tsv not found (looked in \(files.candidateDirectories().joined(separator: ", "))).\n")
    exit(1)
}

let clock = ContinuousClock()
var loadTimes: [Double] = []
var readTimes: [Double] = []
var loaded: OfflinePlaceTable?
for _ in 0..<7 {
    let t0 = clock.now
    guard let bytes = DataFiles.readBytes(path) else {
        Console.err("fixcast-bench: cannot read \(path)\n")
        exit(1)
    }
    let t1 = clock.now
    do {
        loaded = try OfflinePlaceTable(bytes: bytes)
    } catch {
        Console.err("fixcast-bench: \(path) line \(error.line): \(error.reason)\n")
        exit(1)
    }
    let t2 = clock.now
    readTimes.append(seconds(t1 - t0))
    loadTimes.append(seconds(t2 - t0))
}
guard let table = loaded else { exit(1) }

// Random query points, uniform on the sphere, from a fixed seed so runs compare.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
var rng = SplitMix(state: 42)
var queries: [Coordinate] = []
for _ in 0..<20_000 {
    let lat = asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi
    if let c = Coordinate(lat: lat, lon: Double.random(in: -180...180, using: &rng)) { queries.append(c) }
}

var treeTimes: [Double] = []
var settlementTimes: [Double] = []
var scanTimes: [Double] = []
var checksum = 0
for q in queries {
    let t0 = clock.now
    let hit = table.nearest(to: q)
    treeTimes.append(seconds(clock.now - t0))
    checksum &+= hit?.row ?? 0
}
for q in queries {
    let t0 = clock.now
    let hit = table.settlement(at: q)
    settlementTimes.append(seconds(clock.now - t0))
    checksum &+= hit?.row ?? 0
}
var mismatches = 0
for q in queries.prefix(300) {
    let t0 = clock.now
    let scan = table.nearestByScan(to: q)
    scanTimes.append(seconds(clock.now - t0))
    if scan?.row != table.nearest(to: q)?.row { mismatches += 1 }
}
// Index build alone, so that the brute-force column's load is read + parse without it.
var lats: [Double] = []
var lons: [Double] = []
for row in 0..<table.count {
    if let c = table.coordinate(row) {
        lats.append(c.lat)
        lons.append(c.lon)
    }
}
var buildTimes: [Double] = []
for _ in 0..<5 {
    let b0 = clock.now
    let index = NearestPlaceIndex(lat: lats, lon: lons)
    buildTimes.append(seconds(clock.now - b0))
    checksum &+= index.count
}

let t0 = clock.now
let newYork = table.search("new york", limit: 5)
let searchTime = seconds(clock.now - t0)

print("offline place index: \(table.count) places from \(path)")
print("")
print(pad("", 26) + pad("k-d tree", 14) + "brute-force scan")
print(pad("load", 26) + pad(format(median(loadTimes)), 14) + format(max(0, median(loadTimes) - median(buildTimes))))
print(pad("median lookup", 26) + pad(format(median(treeTimes)), 14) + format(median(scanTimes)))
print(pad("median lookup, districts", 26) + pad(format(median(settlementTimes)), 14) + "-")
print("")
print("targets: load ≤ 150 ms, median lookup ≤ 50 µs")
print(
    "load = read file (\(format(median(readTimes)))) + parse + build index (\(format(median(buildTimes)))); the scan needs no index"
)
print("load runs: \(loadTimes.map(format).joined(separator: ", "))")
print("k-d tree vs scan disagreements on 300 points: \(mismatches)")
print(
    "search \"new york\" (offline, full scan): \(format(searchTime)) → \(newYork.map { table.name($0) }.joined(separator: ", "))"
)
if checksum == 42 { print("") }  // keeps the lookups from being optimised away
