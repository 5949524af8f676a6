import Geodesy

/// A monitored area: a circle or a (multi)polygon, with its own optional overrides (SEMANTICS §5).
public struct Region: Hashable, Sendable {
    /// Unique within a scenario.
    public var id: String
    public var shape: Shape
    /// Overrides of the scenario's monitor settings for this region only; nil keeps the scenario's.
    public var hysteresis: Meters?
    public var enterBuffer: Meters?
    public var confirmation: TimeSpan?
    public var enterConfidence: Double?
    public var exitConfidence: Double?
    /// The probabilities, in [0, 1], that a confirmed enter or exit is never reported (revision 3 §5).
    public var missEnter: Double?
    public var missExit: Double?
    /// What people call it (a GeoJSON feature's `properties.name`, a scenario region's `name:`), shown
    /// beside its id by the console and the report; never in event files.
    public var name: String?

    public init(
        id: String, shape: Shape, hysteresis: Meters? = nil, enterBuffer: Meters? = nil,
        confirmation: TimeSpan? = nil, enterConfidence: Double? = nil, exitConfidence: Double? = nil,
        name: String? = nil, missEnter: Double? = nil, missExit: Double? = nil
    ) {
        self.id = id
        self.missEnter = missEnter
        self.missExit = missExit
        self.name = name
        self.shape = shape
        self.hysteresis = hysteresis
        self.enterBuffer = enterBuffer
        self.confirmation = confirmation
        self.enterConfidence = enterConfidence
        self.exitConfidence = exitConfidence
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
