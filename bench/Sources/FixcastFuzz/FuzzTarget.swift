import FixcastTables

/// One decoder of outside data under fuzz: the seeds it starts from (files found by name in the corpus
/// folders), how a case is made from them, and how a case is run and judged.
public struct FuzzTarget: Sendable {
    public let name: String
    /// One line for `fixcast-bench fuzz --list`.
    public let about: String
    /// Seed files by name, looked for in each corpus folder (the recorded API answers, the demo route,
    /// the config, the bundled tables).
    public let seedNames: [String]
    let prepare: @Sendable (_ seeds: [[UInt8]], _ setup: FuzzSetup) -> FuzzCampaign

    /// The campaign over `seeds` (the files `seedNames` found); `storage` holds a table case's bytes
    /// (memory by default; the bench's puts a guard page after them, so a read past the end faults);
    /// `maxCaseBytes` bounds how large the mutations make a text case (the test suite keeps it small).
    public func campaign(
        seeds: [[UInt8]],
        storage: @escaping @Sendable ([UInt8]) -> any TableStorage = { InMemoryTableStorage(copying: $0) },
        maxCaseBytes: Int = .max
    ) -> FuzzCampaign {
        prepare(seeds, FuzzSetup(storage: storage, maxCaseBytes: maxCaseBytes))
    }
}

/// What a target's campaign is made with besides its seeds.
public struct FuzzSetup: Sendable {
    /// Holds a table case's bytes.
    public let storage: @Sendable ([UInt8]) -> any TableStorage
    /// The largest text case the mutators make (each has its own cap besides, the real input's limit).
    public let maxCaseBytes: Int
}

/// A target with its seeds: makes case `n` of a seed, and runs a case.
public struct FuzzCampaign: Sendable {
    /// What the cases are made from, after preparation (a table cut small, inline seeds added).
    public let seeds: [[UInt8]]
    let mutator: @Sendable (inout FuzzRandom) -> [UInt8]
    let runner: @Sendable ([UInt8]) -> FuzzCaseResult

    init(
        seeds: [[UInt8]], mutator: @escaping @Sendable (inout FuzzRandom) -> [UInt8],
        runner: @escaping @Sendable ([UInt8]) -> FuzzCaseResult
    ) {
        self.seeds = seeds
        self.mutator = mutator
        self.runner = runner
    }

    /// The bytes of case `number` of the campaign with `seed`; the seeds themselves, unmutated, are the
    /// first cases.
    public func input(seed: UInt64, case number: Int) -> [UInt8] {
        if number < seeds.count { return seeds[number] }
        var g = FuzzRandom.forCase(seed: seed, number: number)
        return mutator(&g)
    }

    /// Runs one case: the decoder, then the house rules on what it gave.
    public func run(_ bytes: [UInt8]) -> FuzzCaseResult { runner(bytes) }
}
