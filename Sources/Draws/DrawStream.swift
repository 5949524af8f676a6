/// One stream of SEMANTICS §2's draws, Perimeter's one random scheme: a device's GPS noise (the stream
/// keyed by key_D itself, `init(key:)`), or its draws for one purpose (`phase`, `outlier`, `miss-enter`,
/// …) and one region or none (revision 3), each independent of every other stream, of the thread count
/// and of the order in which devices run. A synthetic track's noise is a stream too. O(1) a draw, nothing
/// allocated.
///
/// `streamKey(D, W, r) = mix(mix(key_D ⊕ fnv1a(W)) ⊕ r)` with `key_D = mix(S ⊕ fnv1a(D))`, the noise's key.
public struct DrawStream: Hashable, Sendable {
    /// streamKey(D, W, r), or the noise's key_D.
    public let key: UInt64

    /// The stream whose draws start from `key` itself: the noise's of a device, `key` = key_D (SEMANTICS §2
    /// "Noise"), or a synthetic track's.
    public init(key: UInt64) { self.key = key }

    /// The stream of device `device` under run seed `seed`, name `name`, number `r` (a region index, or 0).
    public init(seed: UInt64, device: String, name: String, r: UInt64 = 0) {
        self.init(deviceKey: Self.deviceKey(seed: seed, device: device), name: name, r: r)
    }

    /// The same from the device's key (`deviceKey(seed:device:)`), hashing only the name.
    public init(deviceKey: UInt64, name: String, r: UInt64 = 0) {
        self.init(nameKey: Self.nameKey(deviceKey: deviceKey, name: name), r: r)
    }

    /// The same from `mix(key_D ⊕ fnv1a(W))` (`nameKey(deviceKey:name:)`): one mix, for a stream per region.
    @inline(__always)
    public init(nameKey: UInt64, r: UInt64) { key = SplitMix64.mix(nameKey ^ r) }

    /// key_D = mix(S ⊕ fnv1a(D)): the noise's key of the device (SEMANTICS §2).
    public static func deviceKey(seed: UInt64, device: String) -> UInt64 {
        SplitMix64.mix(seed ^ FNV1a.hash(device.utf8))
    }

    /// mix(key_D ⊕ fnv1a(W)): a stream name's key for the device, before the region number.
    public static func nameKey(deviceKey: UInt64, name: String) -> UInt64 {
        SplitMix64.mix(deviceKey ^ FNV1a.hash(name.utf8))
    }

    /// Draw `i` (usually a tick index): the generator whose outputs are x_1, x_2, …
    @inline(__always)
    public func draw(_ i: Int64) -> Draw {
        Draw(generator: SplitMix64(seed: SplitMix64.mix(key ^ (UInt64(bitPattern: i) &* 0x9E37_79B9_7F4A_7C15))))
    }

    /// u_1 of draw `i`, in (0, 1].
    @inline(__always)
    public func u(_ i: Int64) -> Double {
        var d = draw(i)
        return d.u()
    }

    /// A standard normal value from two uniforms in (0, 1]: `sqrt(−2 ln u1) × cos(2π u2)`.
    public static func standardNormal(_ u1: Double, _ u2: Double) -> Double {
        (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
    }

    /// ρ = exp(`exponent`): how much of an offset survives `Δt` later in a first-order Gauss–Markov
    /// process with time constant T, given `exponent = −Δt / T` (the noise's correlation). O(1).
    public static func correlation(exponent: Double) -> Double { _exp(exponent) }

    /// The standard normal distribution's 90th percentile.
    public static let normal90 = 1.2815515655446004

    /// A lognormal value of median `median` and 90th percentile `p90` (p90 ≥ median > 0) from a standard
    /// normal `z`: `median × exp(z × ln(p90 / median) / 1.2815515655446004)`; p90 = median gives median.
    public static func lognormal(median: Double, p90: Double, z: Double) -> Double {
        median * _exp(z * _log(p90 / median) / normal90)
    }
}

/// The outputs of one draw of a `DrawStream`, in order: x_j as bits, or u_j in (0, 1].
public struct Draw: Sendable {
    var generator: SplitMix64

    /// The next output x_j.
    @inline(__always)
    public mutating func x() -> UInt64 { generator.next() }

    /// The next output as u_j = ((x_j >> 11) + 1) / 2^53, in (0, 1].
    @inline(__always)
    public mutating func u() -> Double { generator.nextUnitOpen() }

    /// A standard normal value from the next two outputs.
    public mutating func standardNormal() -> Double {
        let u1 = u()
        return DrawStream.standardNormal(u1, u())
    }

    /// Two independent normal values of standard deviation `sigma` (north, east) from the next two
    /// outputs, by Box–Muller: `r = sigma × sqrt(−2 ln u_1)`, `θ = 2π u_2`, `(r cos θ, r sin θ)`; with
    /// sigma 1, the noise's standard pair w_k (SEMANTICS §2), whose first value is `standardNormal()`'s.
    public mutating func normalPair(sigma: Double = 1) -> (north: Double, east: Double) {
        let u1 = u(), u2 = u()
        let radius = sigma * (-2 * _log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        return (radius * _cos(angle), radius * _sin(angle))
    }
}
