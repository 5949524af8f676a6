import Geodesy

/// Seeded Gaussian displacement of samples (SEMANTICS §2), identical on every machine and thread count.
///
/// Each sample's offsets depend only on (seed, device id, tick index): a SplitMix64 stream keyed by
/// those three gives two uniforms, and the Box–Muller transform two independent N(0, σ²) offsets,
/// north and east, in metres.
struct SampleNoise: Sendable {
    let noise: GaussianNoise

    init(_ noise: Noise, deviceID: String) {
        self.noise = GaussianNoise(sigma: noise.sigma, key: SplitMix64.mix(noise.seed ^ fnv1a(deviceID)))
    }

    func displace(_ point: Coordinate, tickIndex: Int64) -> Coordinate {
        noise.displace(point, index: UInt64(bitPattern: tickIndex))
    }
}

/// 64-bit FNV-1a of the UTF-8 bytes: a stable hash of a device id (Swift's `Hasher` is seeded per process).
private func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
