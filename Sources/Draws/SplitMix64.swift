/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator whose output is the same
/// on every platform. Perimeter's one source of reproducible randomness: GPS noise, synthetic tracks,
/// seeded property tests and benchmarks.
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

/// Seeded Gaussian offsets north and east, in metres: the same on every machine, in any order of calls.
///
/// Offset i depends only on (key, i): SplitMix64 seeded with `mix(key ^ i·φ)` gives two uniforms, and the
/// Box–Muller transform two independent N(0, σ²) values. GPS noise of samples and of synthetic fixes.
public struct GaussianNoise: Sendable {
    /// The standard deviation of each offset, in metres.
    public let sigma: Double
    public let key: UInt64

    public init(sigma: Double, key: UInt64) {
        self.sigma = sigma
        self.key = key
    }

    /// The (north, east) offset number `index`, in metres. O(1).
    public func offset(index: UInt64) -> (north: Double, east: Double) {
        var random = SplitMix64(seed: SplitMix64.mix(key ^ (index &* 0x9E37_79B9_7F4A_7C15)))
        let u1 = random.nextUnitOpen()
        let u2 = random.nextUnitOpen()
        let radius = sigma * (-2 * _log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        return (radius * _cos(angle), radius * _sin(angle))
    }

    /// ρ = exp(`exponent`): how much of an offset survives `Δt` later in a first-order Gauss–Markov
    /// process with time constant T, given `exponent = −Δt / T`. O(1).
    public static func correlation(exponent: Double) -> Double { _exp(exponent) }
}
