import Geodesy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seeded Gaussian displacement of samples (SEMANTICS §2), identical on every machine and thread count.
///
/// Each sample's offsets depend only on (seed, device id, tick index): a SplitMix64 stream keyed by
/// those three gives two uniforms, and the Box–Muller transform two independent N(0, σ²) offsets,
/// north and east, in metres.
struct SampleNoise: Sendable {
    let sigma: Meters
    let key: UInt64

    init(_ noise: Noise, deviceID: String) {
        sigma = noise.sigma
        key = SplitMix64.mix(noise.seed ^ fnv1a(deviceID))
    }

    func displace(_ point: Coordinate, tickIndex: Int64) -> Coordinate {
        guard sigma > 0 else { return point }
        var random = SplitMix64(seed: SplitMix64.mix(key ^ UInt64(bitPattern: tickIndex) &* 0x9E37_79B9_7F4A_7C15))
        let u1 = random.nextUnitOpen()
        let u2 = random.nextUnitOpen()
        let radius = sigma * (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        return point.offset(northMeters: radius * cos(angle), eastMeters: radius * sin(angle))
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
