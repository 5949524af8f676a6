import Draws
import Geodesy
import Time

/// How a device picks the regions it monitors (SEMANTICS §4).
public enum Selection: String, Hashable, Sendable, CaseIterable {
    /// The `capacity` nearest regions, refreshed every `refreshDistance` metres.
    case nearest
    /// The first `capacity` regions by index, for the whole run.
    case `static`
}

/// What a region that starts with the device inside it does (SEMANTICS §4).
public enum InitialTrigger: String, Hashable, Sendable, CaseIterable {
    /// The inside state is unannounced: no enter, dwell or visit; leaving still emits exit.
    case none
    /// An `enter` at once, and a stay begins.
    case enter
}

/// When a device's observation grid starts (SEMANTICS §2 "Phase", revision 3).
public enum Phase: Hashable, Sendable {
    /// p = the span / tick: a multiple of the tick below the interval (zero: the grid of revision 2).
    case fixed(TimeSpan)
    /// p = x_1 mod n from draw 0 of the device's stream `phase`: a new phase per device and per run.
    case random

    public static let zero = Phase.fixed(.zero)
}

/// The stationary slow-down (SEMANTICS §2, revision 3): a device whose exact position has stayed within
/// `within` metres of its anchor for `after` observes at most every `interval`.
public struct Stationary: Hashable, Sendable {
    /// How long the device must have stayed near its anchor, ≥ 0.
    public var after: TimeSpan
    /// How far (haversine, metres, ≥ 0) the exact position may move before the anchor moves with it.
    public var within: Meters
    /// The slowest observation: a positive multiple of the tick.
    public var interval: TimeSpan

    public init(after: TimeSpan, within: Meters, interval: TimeSpan) {
        self.after = after
        self.within = within
        self.interval = interval
    }
}

/// Outlier episodes of network-location error (SEMANTICS §2, revision 3).
public struct Outliers: Hashable, Sendable {
    /// The mean time between episodes: an episode begins at a sample with probability tick / every.
    public var every: TimeSpan
    /// How long an episode lasts from its first sample.
    public var duration: TimeSpan
    /// The displacement's lognormal median and 90th percentile, in metres (p90 ≥ median > 0).
    public var median: Meters
    public var p90: Meters
    /// The share of the displacement the fix reports as its accuracy (≥ 0): accuracy max(a, scale × ℓ).
    public var accuracyScale: Double

    public init(every: TimeSpan, duration: TimeSpan, median: Meters, p90: Meters, accuracyScale: Double) {
        self.every = every
        self.duration = duration
        self.median = median
        self.p90 = p90
        self.accuracyScale = accuracyScale
    }
}

/// The delay between the phone's decision and the app hearing it (SEMANTICS §7 "Delivery", revision 3):
/// lognormal, of median `median` and 90th percentile `p90` (p90 ≥ median > 0).
public struct Delivery: Hashable, Sendable {
    public var median: TimeSpan
    public var p90: TimeSpan

    public init(median: TimeSpan, p90: TimeSpan) {
        self.median = median
        self.p90 = p90
    }

    /// δ from a standard normal `z`, truncated to microseconds: `lognormal(median, p90)` in seconds.
    public func delay(z: Double) -> TimeSpan {
        // In microseconds, then truncated (SEMANTICS §7): floor(median_µs × exp(z × ln(p90 / median) / 1.28…)).
        let micros = DrawStream.lognormal(median: Double(median.microseconds), p90: Double(p90.microseconds), z: z)
        return TimeSpan(microseconds: Int64(micros.rounded(.towardZero)))
    }
}
