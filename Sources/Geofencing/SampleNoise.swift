import Geodesy

/// Seeded Gaussian displacement of samples (SEMANTICS §2), identical on every machine and thread count.
///
/// Each sample's offsets depend only on (seed, device id, tick index): a SplitMix64 stream keyed by
/// those three gives two uniforms, and the Box–Muller transform two independent N(0, σ²) offsets,
/// north and east, in metres.
struct SampleNoise: Sendable {
    let noise: GaussianNoise

    init(_ noise: Noise, deviceID: String) {
        self.noise = GaussianNoise(sigma: noise.sigma, key: SplitMix64.mix(noise.seed ^ FNV1a.hash(deviceID.utf8)))
    }

    func displace(_ point: Coordinate, tickIndex: Int64) -> Coordinate {
        noise.displace(point, index: UInt64(bitPattern: tickIndex))
    }
}
