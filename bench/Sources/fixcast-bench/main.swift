import FixcastAdapters
// Offline place index benchmark (bench/places.sh): load time and lookup time of the bundled GeoNames
// table, side by side with a brute-force scan; `--json` is bench/json.sh's. Timing lives here, never in tests.
import FixcastApp
import FixcastCore
import FixcastFuzz

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

// `fixcast-bench --compile IN.tsv OUT.bin`: writes the binary table (scripts/build-places.py runs this).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "fuzz" { exit(runFuzz(Array(arguments.dropFirst()))) }
if arguments.first == "--json" { exit(runJSONBench(Array(arguments.dropFirst()))) }
if arguments.first == "--live" { exit(runLiveBench()) }
if arguments.first == "--areas" { exit(runAreasBench(Array(arguments.dropFirst()))) }
if arguments.first == "--ahead-compute" { exit(runAheadComputeBench(Array(arguments.dropFirst()))) }
if arguments.first == "--ahead-eta" { exit(runAheadETABench(Array(arguments.dropFirst()))) }
if arguments.first == "--compile" {
    guard arguments.count == 3, let text = DataFiles.readBytes(arguments[1]) else {
        Console.err("fixcast-bench: usage: fixcast-bench --compile places.tsv places.bin (input must be readable)\n")
        exit(2)
    }
    let image: [UInt8]
    do {
        image = try OfflinePlaceTable.encodeImage(fromText: text)
    } catch {
        Console.err("fixcast-bench: \(arguments[1]) line \(error.line): \(error.reason)\n")
        exit(1)
    }
    let tmp = arguments[2] + ".tmp"
    guard let out = fopen(tmp, "wb"), fwrite(image, 1, image.count, out) == image.count, fclose(out) == 0,
        rename(tmp, arguments[2]) == 0
    else {
        Console.err("fixcast-bench: cannot write \(arguments[2])\n")
        exit(1)
    }
    Console.err("fixcast-bench: wrote \(arguments[2]) (\(image.count) bytes)\n")
    exit(0)
}

let files = DataFiles.current()
guard let path = arguments.first ?? files.locate(OfflinePlaces.fileName) else {
    Console.err(
        "fixcast-bench: \(OfflinePlaces.fileName) not found (looked in \(files.candidateDirectories().joined(separator: ", "))).\n"
    )
    exit(1)
}

func residentKB(_ field: String = "VmRSS:") -> Int {
    guard let f = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), f) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field) { return Int(text.dropFirst(field.count).filter { $0.isNumber }) ?? -1 }
    }
    return -1
}

let clock = ContinuousClock()
var loadTimes: [Double] = []
var loaded: OfflinePlaceTable?
let rssBefore = residentKB()
let fileBefore = residentKB("RssFile:")
var rssAfterLoad = 0
var rssAfterFewLookups = 0
var fileAfterFewLookups = 0
for attempt in 0..<7 {
    let t0 = clock.now
    do {
        loaded = try OfflinePlaceTable(mappingFile: path)
    } catch {
        Console.err("fixcast-bench: \(path): \(error.reason)\n")
        exit(1)
    }
    loadTimes.append(seconds(clock.now - t0))
    if attempt == 0, let t = loaded {
        rssAfterLoad = residentKB()
        // The resident cost of a loaded table after a handful of lookups (what `fixcast run` pays).
        for (lat, lon) in [(52.52, 13.40), (39.53, -119.81), (39.10, -120.03), (-23.55, -46.63), (35.68, 139.69)] {
            if let c = Coordinate(lat: lat, lon: lon) { _ = t.settlement(at: c) }
        }
        rssAfterFewLookups = residentKB()
        fileAfterFewLookups = residentKB("RssFile:")
    }
}
guard let table = loaded else { exit(1) }

// Random query points, uniform on the sphere, from a fixed seed so runs compare.
var rng = FuzzRandom(seed: 42)
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
// The former in-memory index build, for comparison (what every load cost before the mapped table).
var lats: [Double] = []
var lons: [Double] = []
for row in 0..<table.count {
    if let c = table.coordinate(row) {
        lats.append(c.lat)
        lons.append(c.lon)
    }
}
var buildTimes: [Double] = []
var index = NearestPlaceIndex(lat: [], lon: [])
for _ in 0..<3 {
    let b0 = clock.now
    index = NearestPlaceIndex(lat: lats, lon: lons)
    buildTimes.append(seconds(clock.now - b0))
    checksum &+= index.count
}
// The same k-d tree walk over the in-memory arrays (the other `KDTreeStorage`), and whether it agrees.
var arrayTimes: [Double] = []
var storageMismatches = 0
for q in queries {
    let t0 = clock.now
    let hit = index.nearest(lat: q.lat, lon: q.lon)
    arrayTimes.append(seconds(clock.now - t0))
    if hit?.index != table.nearest(to: q)?.row { storageMismatches += 1 }
}

// What a reading pays to name its place through `OfflinePlaces` (the bundled borders read near one:
// `BorderSide`), over land in Europe, where borders are many, and near four borders.
let tableDirectory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
let named = OfflinePlaces(dataFiles: DataFiles(environment: ["FIXCAST_DATA_DIR": tableDirectory], executablePath: nil))
var europe: [Coordinate] = []
for _ in 0..<2_000 {
    if let c = Coordinate(lat: Double.random(in: 43...55, using: &rng), lon: Double.random(in: -5...20, using: &rng)) {
        europe.append(c)
    }
}
let borderPoints = [(42.3190, -83.0405), (48.5730, 7.8150), (46.2050, 6.2400), (47.5950, 7.5850)].compactMap {
    Coordinate(lat: $0.0, lon: $0.1)
}
var namedTimes: [Double] = []
var borderTimes: [Double] = []
_ = try? named.nearestPlace(to: europe[0])  // maps the files
for q in europe {
    let t0 = clock.now
    checksum &+= (try? named.nearestPlace(to: q))?.name.count ?? 0
    namedTimes.append(seconds(clock.now - t0))
}
for _ in 0..<50 {
    for q in borderPoints {
        let t0 = clock.now
        checksum &+= (try? named.nearestPlace(to: q))?.name.count ?? 0
        borderTimes.append(seconds(clock.now - t0))
    }
}

let t0 = clock.now
let newYork = table.search("new york", limit: 5)
let searchTime = seconds(clock.now - t0)

print("offline place index: \(table.count) places from \(path)")
print("")
print(pad("", 26) + pad("k-d tree", 14) + "brute-force scan")
print(pad("load (mmap)", 26) + pad(format(median(loadTimes)), 14) + format(median(loadTimes)))
print(pad("median lookup", 26) + pad(format(median(treeTimes)), 14) + format(median(scanTimes)))
print(pad("median lookup, in memory", 26) + pad(format(median(arrayTimes)), 14) + "-")
print(pad("median lookup, districts", 26) + pad(format(median(settlementTimes)), 14) + "-")
print(pad("a reading's name, Europe", 26) + pad(format(median(namedTimes)), 14) + "-")
print(pad("... at four borders", 26) + pad(format(median(borderTimes)), 14) + "-")
print("")
print("targets: load ≤ 150 ms, median lookup ≤ 50 µs")
print("load = map the file and read its header, country and region names; nothing is built")
print("an in-memory k-d tree build (the former load) would add \(format(median(buildTimes)))")
print(
    "resident: \(rssBefore) kB before load, \(rssAfterLoad) kB after load, \(rssAfterFewLookups) kB after 5 lookups (+\(rssAfterFewLookups - rssBefore) kB; file-backed +\(fileAfterFewLookups - fileBefore) kB)"
)
print("load runs: \(loadTimes.map(format).joined(separator: ", "))")
print("k-d tree vs scan disagreements on 300 points: \(mismatches)")
print("mapped table vs in-memory arrays (same walk) disagreements on \(queries.count) points: \(storageMismatches)")
print(
    "search \"new york\" (offline, full scan): \(format(searchTime)) → \(newYork.map { table.name($0) }.joined(separator: ", "))"
)
if checksum == 42 { print("") }  // keeps the lookups from being optimised away
