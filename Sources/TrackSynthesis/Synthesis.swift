import Geodesy
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

    /// True when a fix at `time` falls in a fix loss.
    public func isLost(at time: Timestamp) -> Bool {
        let offset = (time - start).microseconds
        return timeline().losses.contains { $0.contains(offset) }
    }

    /// The fixes at `start + k × interval` for every k with that time at or before the route's end,
    /// except those in a fix loss; a new segment starts after each loss.
    public func synthesize() -> SyntheticTrack {
        precondition(interval.microseconds > 0, "the interval must be positive")
        let line = timeline()
        let noise = FixNoise(sigma: self.noise, seed: seed)
        var segments: [[SyntheticFix]] = []
        var current: [SyntheticFix] = []
        var k: Int64 = 0
        while true {
            let offset = k * interval.microseconds
            guard offset <= line.total.microseconds else { break }
            if line.losses.contains(where: { $0.contains(offset) }) {
                if !current.isEmpty { segments.append(current); current = [] }
            } else {
                let exact = line.position(at: offset)
                current.append(SyntheticFix(noise.displace(exact, index: UInt64(k)),
                                            at: start + TimeSpan(microseconds: offset)))
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

/// Seeded Gaussian offsets, north and east, for fix number `index`: a SplitMix64 stream keyed by the
/// seed and the index gives two uniforms, Box–Muller two independent N(0, σ²) values. A fix's offset
/// depends only on (seed, index), so a fix loss does not change the noise of the other fixes.
/// The journey's GPS noise: Geodesy's seeded Gaussian offsets, keyed by the journey's seed.
struct FixNoise {
    let noise: GaussianNoise

    init(sigma: Meters, seed: UInt64) {
        noise = GaussianNoise(sigma: sigma, key: SplitMix64.mix(seed))
    }

    /// The (north, east) offset of fix `index`, in metres.
    func offset(index: UInt64) -> (north: Meters, east: Meters) { noise.offset(index: index) }

    func displace(_ point: Coordinate, index: UInt64) -> Coordinate { noise.displace(point, index: index) }
}
