// `fixcast-bench --json FILE…` (bench/json.sh): time of `JSONValue.parse` and `serialized()` per file.
import FixcastAdapters
import FixcastCore
import FixcastText

/// Median parse and write time of each file, each over enough repetitions to take ~0.2 s.
func runJSONBench(_ paths: [String]) -> Int32 {
    let clock = ContinuousClock()
    print(pad("file", 40) + pad("bytes", 10) + pad("parse", 14) + pad("MB/s", 8) + "serialized()")
    for path in paths {
        guard let bytes = DataFiles.readBytes(path) else {
            Console.err("fixcast-bench: cannot read \(path)\n")
            return 1
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            Console.err("fixcast-bench: \(path): \(error.summary)\n")
            return 1
        }
        let repetitions = max(10, 2_000_000 / max(bytes.count, 1))
        var parseTimes: [Double] = []
        var writeTimes: [Double] = []
        var checksum = 0
        for _ in 0..<7 {
            let t0 = clock.now
            for _ in 0..<repetitions { checksum &+= (try? JSONValue.parse(bytes))?.objectValue?.count ?? 0 }
            parseTimes.append(seconds(clock.now - t0) / Double(repetitions))
            let t1 = clock.now
            for _ in 0..<repetitions { checksum &+= value.serialized().utf8.count }
            writeTimes.append(seconds(clock.now - t1) / Double(repetitions))
        }
        let parse = median(parseTimes)
        let name = String(path.split(separator: "/").last ?? "")
        print(
            pad(name, 40) + pad("\(bytes.count)", 10) + pad(format(parse), 14)
                + pad("\(Int(Double(bytes.count) / parse / 1e6))", 8) + format(median(writeTimes))
                + (checksum == 42 ? " " : ""))
    }
    return 0
}
