/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator whose output is the same
/// on every platform. Perimeter's one source of reproducible randomness: every draw of a run and of a synthetic
/// track goes through `DrawStream`; seeded property tests and benchmarks use it directly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finaliser: a bijective scramble of 64 bits, also a good hash of a key.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1), from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) / 9_007_199_254_740_992
    }

    /// A uniform double in (0, 1]: never zero, so that its logarithm is finite.
    public mutating func nextUnitOpen() -> Double {
        (Double(next() >> 11) + 1) / 9_007_199_254_740_992
    }
}
