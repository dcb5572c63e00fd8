// `fixcast-bench fuzz TARGET|all [--seed N] [--cases M] [--from K] [--corpus DIR]… [--out DIR] [--hang-s S]
// [--max-rss-mb MB] [--no-guard]`, `fixcast-bench fuzz TARGET --replay FILE`, `fixcast-bench fuzz --list`:
// the fuzz campaign over every decoder of outside data (bench/README.md, "Fuzzing the decoders"). Each case
// is written to OUT/TARGET.case before it runs, so a trap, a hang (SIGALRM after --hang-s) or a fault (a
// table read past its bytes hits the guard page after them) leaves its reproducer behind.
import FixcastAdapters
import FixcastFuzz
import FixcastTables

#if canImport(Glibc)
    import Glibc
#endif

/// A table image followed by a page that cannot be read: in a release build an out-of-bounds read is
/// not checked, and lands there (SIGSEGV) instead of in whatever memory comes next.
final class GuardedTableStorage: TableStorage, @unchecked Sendable {
    // @unchecked: `bytes` is written once, in init, and never through this type again.
    let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeMutableRawPointer?
    private let length: Int

    init(copying array: [UInt8]) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = (array.count + page - 1) / page
        length = (dataPages + 1) * page
        let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != MAP_FAILED else {
            mapping = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        mapping = raw
        _ = mprotect(raw + dataPages * page, page, PROT_NONE)
        let start = raw + dataPages * page - array.count
        array.withUnsafeBytes { source in
            if let base = source.baseAddress { start.copyMemory(from: base, byteCount: array.count) }
        }
        bytes = UnsafeRawBufferPointer(start: start, count: array.count)
    }

    func willRead(_ range: Range<Int>) {}

    deinit { if let mapping { munmap(mapping, length) } }
}

struct FuzzOptions {
    var targets: [FuzzTarget] = []
    var seed: UInt64 = 1
    var cases = 10_000
    var from = 0
    var corpus = [
        "Tests/FixcastTests/Fixtures/api", "Tests/FixcastTests/Fixtures/acceptance", "demo", "config", "share/fixcast",
    ]
    var out = "/tmp/fixcast-fuzz"
    var hangS = 2.0
    var maxRSSMB = 1024
    var guarded = true
    var replay: String?
}

func parseFuzzOptions(_ arguments: [String]) -> FuzzOptions? {
    var o = FuzzOptions()
    var rest = arguments[...]
    guard let name = rest.popFirst() else { return nil }
    if name == "all" {
        o.targets = FuzzTargets.all
    } else if let target = FuzzTargets.named(name) {
        o.targets = [target]
    } else {
        return nil
    }
    var extraCorpus: [String] = []
    while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { return nil }
        switch flag {
        case "--seed":
            guard let v = UInt64(value) else { return nil }
            o.seed = v
        case "--cases":
            guard let v = Int(value), v >= 0 else { return nil }
            o.cases = v
        case "--from":
            guard let v = Int(value), v >= 0 else { return nil }
            o.from = v
        case "--corpus": extraCorpus.append(value)
        case "--out": o.out = value
        case "--hang-s":
            guard let v = Double(value), v > 0 else { return nil }
            o.hangS = v
        case "--max-rss-mb":
            guard let v = Int(value), v > 0 else { return nil }
            o.maxRSSMB = v
        case "--guard": o.guarded = value != "off"
        case "--replay": o.replay = value
        default: return nil
        }
    }
    o.corpus += extraCorpus
    return o
}

/// The seed files of `target` found in the corpus folders, each content once.
func loadSeeds(_ target: FuzzTarget, corpus: [String]) -> [[UInt8]] {
    var seen = Set<[UInt8]>()
    var seeds: [[UInt8]] = []
    for name in target.seedNames {
        for dir in corpus {
            guard let bytes = DataFiles.readBytes(dir + "/" + name), seen.insert(bytes).inserted else { continue }
            seeds.append(bytes)
        }
    }
    return seeds
}

func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    let ok = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) } == bytes.count
    return fclose(f) == 0 && ok
}

func peakRSSMB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
}

/// A hang kills the process: SIGALRM's default action, after `seconds` of one case.
func armHangAlarm(_ seconds: Double) {
    var timer = itimerval()
    timer.it_value.tv_sec = Int(seconds)
    timer.it_value.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
    setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
}

func runFuzz(_ arguments: [String]) -> Int32 {
    if arguments.first == "--list" {
        for t in FuzzTargets.all { print(pad(t.name, 18) + t.about) }
        return 0
    }
    guard let o = parseFuzzOptions(arguments) else {
        Console.err(
            "fixcast-bench: usage: fixcast-bench fuzz TARGET|all [--seed N] [--cases M] [--from K] [--corpus DIR] [--out DIR] [--hang-s S] [--max-rss-mb MB] [--guard on|off] [--replay FILE]; fixcast-bench fuzz --list\n"
        )
        return 2
    }
    mkdir(o.out, 0o755)
    let guarded = o.guarded
    let storage: @Sendable ([UInt8]) -> any TableStorage = { bytes in
        guarded ? GuardedTableStorage(copying: bytes) : InMemoryTableStorage(copying: bytes)
    }
    var failed = false
    for target in o.targets {
        let seeds = loadSeeds(target, corpus: o.corpus)
        let campaign = target.campaign(seeds: seeds, storage: storage)
        if let replay = o.replay {
            guard let bytes = DataFiles.readBytes(replay) else {
                Console.err("fixcast-bench: cannot read \(replay)\n")
                return 1
            }
            let result = campaign.run(bytes)
            print("\(target.name): \(replay): \(result.outcome.rawValue)")
            for v in result.violations { print("  violation: \(v)") }
            failed = failed || !result.violations.isEmpty
            continue
        }
        if campaign.seeds.isEmpty {
            print("\(target.name): no seeds found in \(o.corpus.joined(separator: ", ")); skipped")
            failed = true
            continue
        }
        failed = !fuzzCampaign(target, campaign, o) || failed
    }
    return failed ? 1 : 0
}

/// Runs one target's cases; false when a house rule was broken.
func fuzzCampaign(_ target: FuzzTarget, _ campaign: FuzzCampaign, _ o: FuzzOptions) -> Bool {
    let clock = ContinuousClock()
    let started = clock.now
    let casePath = "\(o.out)/\(target.name).case"
    let idPath = casePath + ".id"
    var decoded = 0
    var refused = 0
    var violating = 0
    var kept: [String: Int] = [:]
    var slowest = (seconds: 0.0, number: 0)
    var rssReported = false
    print("\(target.name): \(campaign.seeds.count) seeds, cases \(o.from)..<\(o.from + o.cases), seed \(o.seed)")
    for number in o.from..<(o.from + o.cases) {
        // Which case, before it is made (a mutator that fails leaves that), then the case itself.
        let id = "\(target.name) --seed \(o.seed) --from \(number) --cases 1"
        guard writeFile(idPath, Array("\(id) (being made)\n".utf8)) else {
            Console.err("fixcast-bench: cannot write \(idPath)\n")
            return false
        }
        let bytes = campaign.input(seed: o.seed, case: number)
        guard writeFile(casePath, bytes), writeFile(idPath, Array("\(id)\n".utf8)) else {
            Console.err("fixcast-bench: cannot write \(casePath)\n")
            return false
        }
        armHangAlarm(o.hangS)
        let t0 = clock.now
        let result = campaign.run(bytes)
        let elapsed = seconds(clock.now - t0)
        armHangAlarm(0)
        if elapsed > slowest.seconds { slowest = (elapsed, number) }
        switch result.outcome {
        case .decoded: decoded += 1
        case .refused: refused += 1
        }
        if !result.violations.isEmpty {
            violating += 1
            // The first three cases of each kind of violation (its text without numbers) are kept.
            let kind = String(result.violations[0].filter { !$0.isNumber }.prefix(80))
            let n = kept[kind, default: 0]
            kept[kind] = n + 1
            if n < 3 {
                let path = "\(o.out)/\(target.name)-violation-\(kept.count)-\(n).case"
                _ = writeFile(path, bytes)
                print("  case \(number): \(result.violations.joined(separator: "; ").prefix(400)) → \(path)")
            }
        }
        if !rssReported, peakRSSMB() > o.maxRSSMB {
            rssReported = true
            let path = "\(o.out)/\(target.name)-memory.case"
            _ = writeFile(path, bytes)
            print("  case \(number): peak RSS passed \(o.maxRSSMB) MB (\(peakRSSMB()) MB) → \(path)")
        }
        if (number - o.from + 1) % 5000 == 0 {
            print("  \(number - o.from + 1) cases: \(decoded) decoded, \(refused) refused, \(violating) violating")
        }
    }
    let total = seconds(clock.now - started)
    print(
        "\(target.name): \(o.cases) cases in \(Int(total)) s: \(decoded) decoded, \(refused) refused, \(violating) violating (\(kept.count) kinds); slowest case \(slowest.number) \(format(slowest.seconds)); peak RSS \(peakRSSMB()) MB"
    )
    return violating == 0 && !rssReported
}
