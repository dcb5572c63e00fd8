import FixcastFuzz
import Foundation
import Testing

/// The test suite's bounded share of the decoders' fuzz campaign (`fixcast-bench fuzz`, bench/README.md):
/// a few hundred cases of a target from a fixed seed, each decoded or refused with a typed error, and
/// the house rules held by what decodes (FixcastFuzz's checks). A trap fails the run as a crash; a
/// broken rule fails the case, named so that `fixcast-bench fuzz TARGET --seed S --from N --cases 1`
/// makes it again.
enum DecoderFuzz {
    /// The repository, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the seeds are: the recorded answers, the demo's route and answers, the config, the tables.
    static let corpus = [
        "Tests/FixcastTests/Fixtures/api", "Tests/FixcastTests/Fixtures/acceptance", "demo", "config", "share/fixcast",
    ]

    static func seeds(_ target: FuzzTarget) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for name in target.seedNames {
            for folder in corpus {
                guard let data = try? Data(contentsOf: root.appendingPathComponent(folder + "/" + name)) else {
                    continue
                }
                let bytes = [UInt8](data)
                if !seeds.contains(bytes) { seeds.append(bytes) }
            }
        }
        return seeds
    }

    /// The largest text case here: past every seed (the largest recorded answer is 137 kB), short of the
    /// campaign's megabytes (the 2 MiB body, the 8 MiB route), which the decoders' own limit tests cover
    /// and which would cost this suite minutes in a debug build.
    static let maxCaseBytes = 256 << 10

    /// Runs cases 0..<`cases` of `target` from `seed` (the seeds themselves first); returns how many
    /// decoded, for a test to see that the cases reach past the decoder's first guard.
    @discardableResult
    static func run(_ target: String, seed: UInt64, cases: Int) throws -> (decoded: Int, refused: Int) {
        let t = try #require(FuzzTargets.named(target), "no fuzz target \(target)")
        let campaign = t.campaign(seeds: seeds(t), maxCaseBytes: maxCaseBytes)
        guard !campaign.seeds.isEmpty || t.seedNames.isEmpty else {
            Issue.record("\(target): no seed found in \(corpus)")
            return (0, 0)
        }
        var decoded = 0
        var refused = 0
        for n in 0..<cases {
            let result = campaign.run(campaign.input(seed: seed, case: n))
            switch result.outcome {
            case .decoded: decoded += 1
            case .refused: refused += 1
            }
            #expect(
                result.violations.isEmpty,
                "fixcast-bench fuzz \(target) --seed \(seed) --from \(n) --cases 1: \(result.violations)")
        }
        return (decoded, refused)
    }
}
