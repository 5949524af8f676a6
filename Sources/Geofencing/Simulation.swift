import ReadableText
import Time

/// Everything a run needs, resolved into engine values: regions, rules, devices, the clock, the monitor.
///
/// Built in code by tests and library users, or by `ScenarioFormat` from a scenario file.
public struct Simulation: Sendable {
    /// In declaration order; a region's index is its position here.
    public var regions: [Region] { didSet { geometry = WorldGeometryCache() } }
    public var rules: [DwellRule] { didSet { geometry = WorldGeometryCache() } }
    public var profile: Profile
    public var overrides: MonitorOverrides
    public var devices: [Device] { didSet { recordings = recordings.map { SampleRecordings(budget: $0.budget) } } }
    /// The clock's start; nil derives it from the tracks (SEMANTICS §1).
    public var start: Timestamp? { didSet { recordings = recordings.map { SampleRecordings(budget: $0.budget) } } }
    /// The clock's step; greater than zero.
    public var tick: TimeSpan { didSet { recordings = recordings.map { SampleRecordings(budget: $0.budget) } } }
    public var noise: Noise?
    /// The shapes, R-tree and rules by region of `regions` and `rules`, built by the first run and shared
    /// by every copy of this simulation (each run of a batch, each profile, each candidate profile), on
    /// any thread: a run rebuilds only what depends on the profile. Replaced when the regions or rules
    /// change.
    private var geometry = WorldGeometryCache()
    /// The devices' sample streams, recorded by the first run that draws each and replayed by every copy's
    /// runs with the same stream (`recordsSamples(budget:)`); nil: every run draws its own. Replaced (empty)
    /// when the devices, start or tick change.
    private(set) var recordings: SampleRecordings?

    public init(
        regions: [Region], rules: [DwellRule] = [], profile: Profile = .ideal,
        overrides: MonitorOverrides = MonitorOverrides(), devices: [Device], start: Timestamp? = nil,
        tick: TimeSpan = .seconds(1), noise: Noise? = nil
    ) {
        self.regions = regions
        self.rules = rules
        self.profile = profile
        self.overrides = overrides
        self.devices = devices
        self.start = start
        self.tick = tick
        self.noise = noise
    }

    /// Makes every copy of this simulation from here on record each device's sample stream once and replay
    /// it in later runs whose stream is the same (`SampleStreamKey`: the noise with its seed, the accuracy,
    /// the outliers, a stationary slow-down), holding at most `budget` bytes of samples; the streams that
    /// do not fit are drawn as usual. For a batch that runs the same seeds under many monitors
    /// (calibrate's candidates): the same events, without drawing each run's noise again. Memory: the
    /// recorded runs' samples, 40 bytes each.
    public mutating func recordsSamples(budget: Int) { recordings = SampleRecordings(budget: budget) }

    /// Whether its runs record and replay their sample streams (`recordsSamples(budget:)`).
    public var replaysSamples: Bool { recordings != nil }

    /// Whether a run of this simulation under `settings` and `noise` draws the samples its own runs draw
    /// (`SampleStreamKey`: the noise, the accuracy, the outliers, a slow-down), so that they can be
    /// recorded once and replayed. O(1).
    public func drawsSameSamples(settings: MonitorSettings, noise: Noise?) -> Bool {
        SampleStreamKey(settings, noise: noise) == SampleStreamKey(self.settings, noise: self.noise)
    }

    /// The world of a run under `settings`: the shared geometry, and the thresholds resolved. O(regions)
    /// once the geometry is built.
    func world(settings: MonitorSettings, skipsQuietRegions: Bool = true) -> World {
        World(geometry.geometry(regions: regions, rules: rules), settings: settings, skipsQuietRegions: skipsQuietRegions)
    }

    /// The profile's settings with the scenario's overrides applied.
    public var settings: MonitorSettings { overrides.applied(to: profile.settings) }

    /// Why the observation interval cannot be played at this tick (SEMANTICS §2: a multiple of it), as a
    /// sentence, or nil when it can.
    public var intervalProblem: String? {
        let interval = settings.interval
        guard interval.microseconds % tick.microseconds != 0 else { return phaseProblem }
        return
            "the profile \(profile.name) observes every \(interval.readable), which is not a multiple of the tick (\(tick.readable)); choose a tick that divides it"
    }

    /// Why the resolved phase cannot be played (SEMANTICS §2: a multiple of the tick, below the interval),
    /// as a sentence, or nil when it can.
    public var phaseProblem: String? {
        let settings = settings
        guard case let .fixed(phase) = settings.phase, phase.microseconds != 0 else { return nil }
        if phase.microseconds % tick.microseconds != 0 || phase.microseconds < 0 {
            return "the phase \(phase.readable) is not a multiple of the tick (\(tick.readable))"
        }
        if phase >= settings.interval {
            return "the phase \(phase.readable) is not below the observation interval (\(settings.interval.readable))"
        }
        return nil
    }

    /// Whether the run draws anything from its seed besides the noise (SEMANTICS §2 "Random draws"): a random
    /// phase, outliers, a delivery delay or a miss probability above 0. Such a scenario varies across Monte
    /// Carlo runs without noise.
    public var drawsRandomly: Bool { settings.drawsRandomly(regions: regions) }

    /// Whether Monte Carlo runs of this simulation differ from one another: it has noise, or it draws
    /// (`drawsRandomly`). The one test of "a batch must vary": `MonteCarlo` refuses a batch whose runs
    /// would all be alike, and `ProfileBatch` runs such a profile once. O(regions).
    public var runsVary: Bool { noise != nil || drawsRandomly }

    /// The clock's start: `start` if set, else the earliest first fix of the timed tracks, else 1970.
    public var clockStart: Timestamp {
        if let start { return start }
        return devices.compactMap(\.track.firstTime).min() ?? .epoch
    }
}
