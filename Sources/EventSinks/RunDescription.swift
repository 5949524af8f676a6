import Geofencing
import TextEscaping
import Time
import WireFormat

/// What a run was, as a sink may record it (the SQLite sink, in its `runs` row): the scenario, the profile, the clock's
/// start, the resolved settings. Every field is optional except `startedAt`: a library user who only
/// wants the events can pass `RunDescription()`.
public struct RunDescription: Hashable, Sendable {
    /// The scenario's `name:`.
    public var scenario: String?
    /// The scenario file, as given on the command line.
    public var scenarioFile: String?
    /// The profile the run used (`ios`, `android`, `ideal`), after any `--profile` override.
    public var profile: String?
    /// The wall-clock time the run began.
    public var startedAt: Timestamp
    /// The simulation's clock start (SEMANTICS §1).
    public var clockStart: Timestamp?
    /// The `perimeter` version that ran it.
    public var perimeterVersion: String?
    /// The resolved settings as JSON text (see `settingsJSON(of:)`).
    public var settings: String?

    public init(
        scenario: String? = nil, scenarioFile: String? = nil, profile: String? = nil,
        startedAt: Timestamp = .wallClockNow, clockStart: Timestamp? = nil,
        perimeterVersion: String? = nil, settings: String? = nil
    ) {
        self.scenario = scenario
        self.scenarioFile = scenarioFile
        self.profile = profile
        self.startedAt = startedAt
        self.clockStart = clockStart
        self.perimeterVersion = perimeterVersion
        self.settings = settings
    }

    /// The description of running `simulation`: its profile, clock start and settings.
    public init(
        scenario: String?, scenarioFile: String?, simulation: Simulation, perimeterVersion: String?,
        startedAt: Timestamp = .wallClockNow
    ) {
        self.init(
            scenario: scenario, scenarioFile: scenarioFile, profile: simulation.profile.name,
            startedAt: startedAt, clockStart: simulation.clockStart, perimeterVersion: perimeterVersion,
            settings: Self.settingsJSON(of: simulation))
    }

    /// The resolved monitor settings and the run's shape as one JSON object: each setting in the settings
    /// table's order (`MonitorField.all`; revision 3's only where not at their default, so that a
    /// revision-2 run's description is unchanged), as `json(_:)` writes its kind, then `regions`, `rules`,
    /// `devices` (counts), `tick` (seconds), `noise` (`{"sigma":…,"seed":…,"correlation":…}` or `null`).
    ///
    /// ```json
    /// {"capacity":20,"selection":"nearest","refreshDistance":500.0,"hysteresis":200.0,"enterBuffer":0.0,"confirmation":20.0,"initialTrigger":"none","accuracy":0.0,"enterConfidence":0.5,"exitConfidence":0.5,"interval":0.0,"regions":1,"rules":1,"devices":1,"tick":1.0,"noise":null}
    /// ```
    public static func settingsJSON(of simulation: Simulation) -> String {
        let settings = simulation.settings
        var members: [(String, String)] = MonitorField.all.compactMap { field in
            let value = field.value(in: settings)
            if field.describedOnlyWhenSet && value == field.defaultValue { return nil }
            return (field.key, json(value))
        }
        members += [
            ("regions", JSONText.integer(simulation.regions.count)),
            ("rules", JSONText.integer(simulation.rules.count)),
            ("devices", JSONText.integer(simulation.devices.count)),
            ("tick", JSONText.seconds(simulation.tick)),
        ]
        if let noise = simulation.noise {
            members.append(
                (
                    "noise",
                    JSONText.object([
                        ("sigma", JSONText.number(noise.sigma)), ("seed", JSONText.integer(noise.seed)),
                        ("correlation", JSONText.seconds(noise.correlation)),
                    ])
                ))
        } else {
            members.append(("noise", JSONText.null))
        }
        return JSONText.object(members)
    }

    /// A setting's value as JSON, by its kind: a count (or `"unlimited"`), a word, metres and shares as
    /// numbers, durations in seconds, `phase` as `"random"` or seconds, `stationary` as
    /// `{"after":s,"within":m,"interval":s}`, `outliers` as `{"every":s,"duration":s,"median":m,"p90":m,
    /// "accuracy":share}`, `delivery` as `{"median":s,"p90":s}`; none as `null`.
    static func json(_ value: MonitorValue) -> String {
        let number = JSONText.number, seconds = JSONText.seconds
        switch value {
        case let .count(count): return count.map(JSONText.integer) ?? JSONText.string("unlimited")
        case let .choice(word): return JSONText.string(word)
        case let .meters(v), let .share(v): return number(v)
        case let .span(span): return seconds(span)
        case .phase(.random): return JSONText.string("random")
        case let .phase(.fixed(span)): return seconds(span)
        case let .stationary(s?):
            return JSONText.object([
                ("after", seconds(s.after)), ("within", number(s.within)), ("interval", seconds(s.interval)),
            ])
        case let .outliers(o?):
            return JSONText.object(
                [
                    ("every", seconds(o.every)), ("duration", seconds(o.duration)), ("median", number(o.median)),
                    ("p90", number(o.p90)), ("accuracy", number(o.accuracyScale)),
                ])
        case let .delivery(d?): return JSONText.object([("median", seconds(d.median)), ("p90", seconds(d.p90))])
        case .stationary(nil), .outliers(nil), .delivery(nil): return JSONText.null
        }
    }
}
