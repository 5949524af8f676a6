import Geodesy

/// Everything a run needs, resolved into engine values: regions, rules, devices, the clock, the monitor.
///
/// Built in code by tests and library users, or by `ScenarioFormat` from a scenario file.
public struct Simulation: Sendable {
    /// In declaration order; a region's index is its position here.
    public var regions: [Region]
    public var rules: [DwellRule]
    public var profile: Profile
    public var overrides: MonitorOverrides
    public var devices: [Device]
    /// The clock's start; nil derives it from the tracks (SEMANTICS §1).
    public var start: Timestamp?
    /// The clock's step; greater than zero.
    public var tick: TimeSpan
    public var noise: Noise?

    public init(regions: [Region], rules: [DwellRule] = [], profile: Profile = .ideal,
                overrides: MonitorOverrides = MonitorOverrides(), devices: [Device], start: Timestamp? = nil,
                tick: TimeSpan = .seconds(1), noise: Noise? = nil) {
        self.regions = regions
        self.rules = rules
        self.profile = profile
        self.overrides = overrides
        self.devices = devices
        self.start = start
        self.tick = tick
        self.noise = noise
    }

    /// The profile's settings with the scenario's overrides applied.
    public var settings: MonitorSettings { overrides.applied(to: profile.settings) }

    /// Why the observation interval cannot be played at this tick (SEMANTICS §2: a multiple of it), as a
    /// sentence, or nil when it can.
    public var intervalProblem: String? {
        let interval = settings.interval
        guard interval.microseconds % tick.microseconds != 0 else { return nil }
        return "the profile \(profile.name) observes every \(interval.readable), which is not a multiple of the tick (\(tick.readable)); choose a tick that divides it"
    }

    /// The clock's start: `start` if set, else the earliest first fix of the timed tracks, else 1970.
    public var clockStart: Timestamp {
        if let start { return start }
        return devices.compactMap(\.track.firstTime).min() ?? .epoch
    }
}
