// `fixcast-bench --areas [alert-areas.bin]` (bench/alert-areas.sh): the bundled MeteoAlarm area table's
// file size, load time (map + every offset checked) and the median time of "which areas contain this
// point" and of a geocode lookup.
import FixcastAdapters
import FixcastCore

#if canImport(Glibc)
    import Glibc
#endif

func runAreasBench(_ arguments: [String]) -> Int32 {
    let files = DataFiles.current()
    guard let path = arguments.first ?? files.locate(AlertAreaTable.fileName) else {
        Console.err("fixcast-bench: \(AlertAreaTable.fileName) not found\n")
        return 1
    }
    let clock = ContinuousClock()
    var info = stat()
    guard stat(path, &info) == 0 else {
        Console.err("fixcast-bench: cannot read \(path)\n")
        return 1
    }
    var loadTimes: [Double] = []
    var loadCPU: [Double] = []
    var table: AlertAreaTable?
    for _ in 0..<50 {
        let c0 = processCPUSeconds()
        let t0 = clock.now
        do {
            table = try AlertAreaTable(mappingFile: path)
        } catch {
            Console.err("fixcast-bench: \(path): \(error.reason)\n")
            return 1
        }
        loadTimes.append(seconds(clock.now - t0))
        loadCPU.append(processCPUSeconds() - c0)
    }
    guard let table else { return 1 }

    // Deterministic points: 3 in 4 inside some area's bounding box (where the work is), the rest anywhere
    // in 34°W…36°E × 27°N…72°N (MeteoAlarm's extent: sea and non-member land find nothing fast).
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func random() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    var points: [Coordinate] = []
    while points.count < 20_000 {
        let lat: Double
        let lon: Double
        if points.count % 4 == 3 {
            lat = 27 + random() * 45
            lon = -34 + random() * 70
        } else {
            let (w, s, e, n) = table.bounds(at: Int(random() * Double(table.count)))
            lat = s + random() * (n - s)
            lon = w + random() * (e - w)
        }
        if let c = Coordinate(lat: lat, lon: lon) { points.append(c) }
    }
    var indexTimes: [Double] = []
    var valueTimes: [Double] = []
    var found = 0
    for point in points {
        let t0 = clock.now
        found &+= table.areaIndices(containing: point).count
        indexTimes.append(seconds(clock.now - t0))
    }
    for point in points {
        let t0 = clock.now
        found &+= table.areas(containing: point).count
        valueTimes.append(seconds(clock.now - t0))
    }
    let geocodes = (0..<table.count).map { table.area(at: $0).geocode }
    var codeTimes: [Double] = []
    for g in geocodes {
        let t0 = clock.now
        found &+= table.area(code: g.code, scheme: g.scheme) == nil ? 0 : 1
        codeTimes.append(seconds(clock.now - t0))
    }
    func p99(_ v: [Double]) -> Double { v.sorted()[v.count * 99 / 100] }
    print("alert-areas.bin: \(info.st_size) bytes, \(table.count) areas (target ≤ 8 MB)")
    print(
        "load (map + check every offset), 50 loads: median \(format(median(loadTimes))), first \(format(loadTimes[0])) (CPU \(format(loadCPU[0])); target ≤ 20 ms)"
    )
    print(
        "areas(containing:) over \(points.count) points: median \(format(median(valueTimes))), p99 \(format(p99(valueTimes))) (target ≤ 50 µs)"
    )
    print(
        "areaIndices(containing:), same points: median \(format(median(indexTimes))), p99 \(format(p99(indexTimes)))"
    )
    print(
        "area(code:scheme:) over \(geocodes.count) geocodes: median \(format(median(codeTimes))), p99 \(format(p99(codeTimes)))"
    )
    print("areas found: \(found / 2 - geocodes.count / 2) per pass (a checksum)")
    return 0
}
