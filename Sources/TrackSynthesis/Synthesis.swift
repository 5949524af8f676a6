import Draws
import Geodesy
import Time

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Journey {
    /// How long the route takes, from `start` to the end of its last move or stop.
    public var duration: TimeSpan { timeline().total }

    /// The noise-free position on the route at `time` (the origin before `start`, the last point after
    /// the end), whether or not a fix is lost then.
    public func position(at time: Timestamp) -> Coordinate {
        let line = timeline()
        return line.position(at: (time - start).microseconds)
    }

    /// The fixes at `start + k × interval` for every k with that time at or before the route's end,
    /// except those in a fix loss; a new segment starts after each loss.
    public func synthesize() -> SyntheticTrack {
        precondition(interval.microseconds > 0, "the interval must be positive")
        let line = timeline()
        var noise = FixNoise(sigma: self.noise, seed: seed, correlation: noiseCorrelation, interval: interval)
        var segments: [[SyntheticFix]] = []
        var current: [SyntheticFix] = []
        var k: Int64 = 0
        while true {
            let offset = k * interval.microseconds
            guard offset <= line.total.microseconds else { break }
            // Every fix's offset is drawn, lost or not, so that a fix loss changes no other fix's noise.
            let displacement = noise.next(index: UInt64(k))
            if line.losses.contains(where: { $0.contains(offset) }) {
                if !current.isEmpty { segments.append(current); current = [] }
            } else {
                let exact = line.position(at: offset)
                let fix =
                    noise.sigma > 0
                    ? exact.offset(northMeters: displacement.north, eastMeters: displacement.east) : exact
                current.append(SyntheticFix(fix, at: start + TimeSpan(microseconds: offset)))
            }
            k += 1
        }
        if !current.isEmpty { segments.append(current) }
        return SyntheticTrack(segments: segments, end: start + line.total)
    }

    func timeline() -> Timeline {
        var legs: [Timeline.Leg] = []
        var losses: [Range<Int64>] = []
        var here = origin
        var t: Int64 = 0
        for step in steps {
            switch step {
            case let .move(to, speed):
                let seconds = here.distance(to: to) / speed
                precondition(speed > 0 && seconds < 1e12, "a move needs a speed greater than 0 and less than 30,000 years")
                let micros = Int64((seconds * 1_000_000).rounded())
                legs.append(Timeline.Leg(start: t, end: t + micros, from: here, to: to))
                t += micros
                here = to
            case let .stop(span):
                legs.append(Timeline.Leg(start: t, end: t + span.microseconds, from: here, to: here))
                t += span.microseconds
            case let .lost(span):
                losses.append(t..<(t + span.microseconds))
            }
        }
        return Timeline(origin: origin, legs: legs, losses: losses, total: TimeSpan(microseconds: t))
    }
}

/// The route as legs on a clock of microseconds since the journey's start.
struct Timeline {
    struct Leg {
        var start: Int64
        var end: Int64
        var from: Coordinate
        var to: Coordinate
    }
    var origin: Coordinate
    var legs: [Leg]
    var losses: [Range<Int64>]
    var total: TimeSpan

    func position(at offset: Int64) -> Coordinate {
        guard offset > 0 else { return origin }
        // The first leg that has not ended by `offset` (legs are few: a linear scan is enough).
        for leg in legs where offset <= leg.end {
            guard leg.end > leg.start, leg.from != leg.to else { return leg.to }
            let fraction = Double(offset - leg.start) / Double(leg.end - leg.start)
            return leg.from.interpolated(to: leg.to, fraction: fraction)
        }
        return legs.last?.to ?? origin
    }
}

/// The journey's GPS noise: draws of one `DrawStream` keyed by `mix(seed)`. Fix k's fresh pair w_k
/// (N(0, σ²) north and east, by Box–Muller from draw k, `Draw.normalPair`) depends only on (seed, k).
/// Without a correlation time the offset is w_k; with one, T, it is
/// `ρ × n_{k−1} + sqrt(1 − ρ²) × w_k` with `ρ = exp(−interval / T)` from the second fix on (SEMANTICS §2's
/// process over the fixes' clock). Offsets are drawn for every k in order, lost fixes too. O(1) a fix.
struct FixNoise {
    let stream: DrawStream
    /// σ of each offset, in metres.
    let sigma: Meters
    /// ρ between two fixes; 0 without a correlation time.
    let rho: Double
    private var last: (north: Meters, east: Meters)?

    init(sigma: Meters, seed: UInt64, correlation: TimeSpan = .zero, interval: TimeSpan = .seconds(1)) {
        stream = DrawStream(key: SplitMix64.mix(seed))
        self.sigma = sigma
        rho =
            correlation.microseconds > 0
            ? DrawStream.correlation(exponent: -interval.seconds / correlation.seconds) : 0
    }

    /// The (north, east) offset of fix `index`, in metres; fixes come in order, each once.
    mutating func next(index: UInt64) -> (north: Meters, east: Meters) {
        guard sigma > 0 else { return (0, 0) }
        var draw = stream.draw(Int64(bitPattern: index))
        var offset = draw.normalPair(sigma: sigma)
        if let last, rho > 0 {
            let scale = (1 - rho * rho).squareRoot()
            offset = (rho * last.north + scale * offset.north, rho * last.east + scale * offset.east)
        }
        last = offset
        return offset
    }
}
