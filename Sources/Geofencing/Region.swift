import Geodesy
import Time

/// A monitored area: a circle or a (multi)polygon, with its own optional overrides (SEMANTICS §5).
public struct Region: Hashable, Sendable {
    /// Unique within a scenario.
    public var id: String
    public var shape: Shape
    /// The region's own settings (SEMANTICS §5: the fields whose levels include `.region`), over the
    /// scenario's; empty keeps the scenario's.
    public var overrides: MonitorOverrides
    /// What people call it (a GeoJSON feature's `properties.name`, a scenario region's `name:`), shown
    /// beside its id by the console and the report; never in event files.
    public var name: String?

    public init(id: String, shape: Shape, overrides: MonitorOverrides = MonitorOverrides(), name: String? = nil) {
        self.id = id
        self.shape = shape
        self.overrides = overrides
        self.name = name
    }

    /// The settings that play for this region: `settings` with its own applied. O(its own settings).
    public func settings(under settings: MonitorSettings) -> MonitorSettings {
        overrides.isEmpty ? settings : overrides.applied(to: settings)
    }

    /// d(p, region) of SEMANTICS §3, in metres: negative inside.
    @inlinable
    public func signedDistance(to point: Coordinate) -> Meters { shape.signedDistance(to: point) }
}

/// A dwell rule (SEMANTICS §6): `dwell` is emitted once per stay when a device has been inside for D.
public struct DwellRule: Hashable, Sendable {
    public var name: String
    /// D: how long after the enter the dwell fires; zero fires on the enter's sample.
    public var duration: TimeSpan
    /// The ids of the regions it covers; nil covers all.
    public var regions: [String]?

    public init(name: String, duration: TimeSpan, regions: [String]? = nil) {
        self.name = name
        self.duration = duration
        self.regions = regions
    }
}

/// Seeded Gaussian displacement of every sample (SEMANTICS §2).
public struct Noise: Hashable, Sendable {
    /// Standard deviation of the north and the east offsets, in metres.
    public var sigma: Meters
    public var seed: UInt64
    /// How long GPS error takes to wander off (revision 2): offsets of samples this far apart are
    /// correlated by 1/e (a first-order Gauss–Markov process); zero gives independent offsets.
    public var correlation: TimeSpan

    public init(sigma: Meters, seed: UInt64, correlation: TimeSpan = .zero) {
        self.sigma = sigma
        self.seed = seed
        self.correlation = correlation
    }
}
