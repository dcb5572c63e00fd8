/// A small deterministic generator (SplitMix64): a fuzz case is its target, its seed and its number, so
/// every run of a campaign or a test tries the same inputs and a failure is reproduced from those three.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The generator of case `number` of a campaign with `seed`: cases are independent, so case 31,337
    /// is replayed without running the 31,336 before it.
    public static func forCase(seed: UInt64, number: Int) -> FuzzRandom {
        var mixer = FuzzRandom(seed: seed ^ (UInt64(truncatingIfNeeded: number) &* 0xD1B5_4A32_D192_ED03))
        return FuzzRandom(seed: mixer.next())
    }

    /// A uniform integer in 0..<bound (0 when bound ≤ 0).
    public mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
    }

    /// True with probability 1 / n.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// An element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
