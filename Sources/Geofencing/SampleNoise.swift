import Draws
import Geodesy
import Time

/// Seeded Gaussian displacement of a device's samples (SEMANTICS §2), identical on every machine and
/// thread count.
///
/// Each sample's standard pair w_k depends only on (seed, device id, tick index): draw k of the device's
/// noise stream (`DrawStream(key: key_D)`) gives two uniforms, and the Box–Muller transform two
/// independent N(0, 1) values, north and east (`Draw.normalPair`). The offset is `sigma × w_k` at the first sample; after it, with a correlation time,
/// `ρ × n_k′ + sigma × sqrt(1 − ρ²) × w_k` with `ρ = exp(−(k − k′) × tick / correlation)`, over every
/// sample of the device in order, across segment gaps. O(1) a sample; the state is the last offset.
struct SampleNoise: Sendable {
    let stream: DrawStream
    let sigma: Meters
    let tickSeconds: Double
    let correlationSeconds: Double
    /// The last sample's tick and offset, once there was one.
    private var last: (tick: Int64, north: Meters, east: Meters)?

    init(_ noise: Noise, deviceID: String, tick: TimeSpan) {
        stream = DrawStream(key: DrawStream.deviceKey(seed: noise.seed, device: deviceID))
        sigma = noise.sigma
        tickSeconds = tick.seconds
        correlationSeconds = noise.correlation.seconds
    }

    /// The offset n (north, east, metres) of the sample at tick `k`, or nil when sigma is 0 (positions
    /// unchanged: a noise of sigma 0 only sets the run's seed). Samples come in tick order.
    mutating func offset(tickIndex k: Int64) -> (north: Meters, east: Meters)? {
        guard sigma > 0 else { return nil }
        var draw = stream.draw(k)
        let w = draw.normalPair()
        var north = sigma * w.north, east = sigma * w.east
        if let last, correlationSeconds > 0 {
            let rho = DrawStream.correlation(exponent: -(Double(k - last.tick) * tickSeconds) / correlationSeconds)
            let scale = sigma * (1 - rho * rho).squareRoot()
            north = rho * last.north + scale * w.north
            east = rho * last.east + scale * w.east
        }
        last = (k, north, east)
        return (north, east)
    }
}
