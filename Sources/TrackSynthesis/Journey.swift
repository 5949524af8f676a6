import Geodesy
import Time

/// A journey described instead of recorded: where it starts, then moves, stops and fix losses, in order.
///
/// `synthesize()` turns it into fixes at `start + k × interval`: the device's position on the route at
/// that time (moves along the great circle at constant speed), displaced by seeded Gaussian noise (which
/// wanders from fix to fix when it has a correlation time), and
/// left out while a fix loss lasts. The same journey always gives the same fixes.
public struct Journey: Sendable, Hashable {
    /// One step of the route after its starting point.
    public enum Step: Sendable, Hashable {
        /// Travel to `to` along the great circle at `speed` metres per second (> 0).
        case move(to: Coordinate, speed: Double)
        /// Stand still for this long (noise still applies).
        case stop(TimeSpan)
        /// No fixes for this long, from this moment of the route; the device goes on along the route
        /// meanwhile (the steps after it take their time as usual). Fixes at times in
        /// `[t, t + span)` are left out, and the fixes after the loss start a new segment.
        case lost(TimeSpan)
    }

    /// The name written into the GPX `<trk>`; optional.
    public var name: String?
    /// The time of the first fix.
    public var start: Timestamp
    /// Seed of the noise: the same seed gives the same offsets on every machine.
    public var seed: UInt64
    /// Time between fixes (> 0).
    public var interval: TimeSpan
    /// Standard deviation of the Gaussian noise, north and east independently, in metres (0: none).
    public var noise: Meters
    /// How long the noise takes to forget itself (a first-order Gauss–Markov process, as a scenario's
    /// `noise.correlation`, SEMANTICS §2); zero draws each fix's offset afresh.
    public var noiseCorrelation: TimeSpan
    /// Where the device is at `start`.
    public var origin: Coordinate
    public var steps: [Step]

    public init(
        name: String? = nil, start: Timestamp, seed: UInt64 = 0, interval: TimeSpan = .seconds(1),
        noise: Meters = 0, noiseCorrelation: TimeSpan = .zero, origin: Coordinate, steps: [Step]
    ) {
        self.name = name
        self.start = start
        self.seed = seed
        self.interval = interval
        self.noise = noise
        self.noiseCorrelation = noiseCorrelation
        self.origin = origin
        self.steps = steps
    }
}

/// One synthesized fix: a position and its time.
public struct SyntheticFix: Sendable, Hashable {
    public var coordinate: Coordinate
    public var time: Timestamp

    public init(_ coordinate: Coordinate, at time: Timestamp) {
        self.coordinate = coordinate
        self.time = time
    }
}

/// A synthesized track: segments of fixes, a new one after each fix loss.
public struct SyntheticTrack: Sendable, Hashable {
    public var segments: [[SyntheticFix]]
    /// When the route ends (the last fix is at the last tick at or before it).
    public var end: Timestamp

    public var fixCount: Int { segments.reduce(0) { $0 + $1.count } }
    public var fixes: [SyntheticFix] { segments.flatMap { $0 } }
}
