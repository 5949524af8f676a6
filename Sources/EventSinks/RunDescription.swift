import Geodesy
import Geofencing
import TextEscaping
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

    /// The resolved monitor settings and the run's shape as one JSON object, keys in this order:
    /// `capacity` (a number or `"unlimited"`), `selection`, `refreshDistance`, `hysteresis`, `enterBuffer`
    /// (metres), `confirmation` (seconds), `initialTrigger`, `accuracy` (metres), `enterConfidence`,
    /// `exitConfidence` (shares), `interval` (seconds), revision 3's settings where set (`revision3Members`),
    /// `regions`, `rules`, `devices` (counts),
    /// `tick` (seconds), `noise` (`{"sigma":…,"seed":…,"correlation":…}` or `null`).
    ///
    /// ```json
    /// {"capacity":20,"selection":"nearest","refreshDistance":500.0,"hysteresis":200.0,"enterBuffer":0.0,"confirmation":20.0,"initialTrigger":"none","accuracy":0.0,"enterConfidence":0.5,"exitConfidence":0.5,"interval":0.0,"regions":1,"rules":1,"devices":1,"tick":1.0,"noise":null}
    /// ```
    public static func settingsJSON(of simulation: Simulation) -> String {
        let settings = simulation.settings
        func number(_ value: Double) -> String { EventFormatting.number(value) ?? "null" }
        var members: [(String, String)] =
            [
                ("capacity", settings.capacity.map(String.init) ?? JSONEscaping.string("unlimited")),
                ("selection", JSONEscaping.string(settings.selection.rawValue)),
                ("refreshDistance", number(settings.refreshDistance)),
                ("hysteresis", number(settings.hysteresis)),
                ("enterBuffer", number(settings.enterBuffer)),
                ("confirmation", EventFormatting.seconds(settings.confirmation) ?? "null"),
                ("initialTrigger", JSONEscaping.string(settings.initialTrigger.rawValue)),
                ("accuracy", number(settings.accuracy)),
                ("enterConfidence", number(settings.enterConfidence)),
                ("exitConfidence", number(settings.exitConfidence)),
                ("interval", EventFormatting.seconds(settings.interval) ?? "null"),
            ] + Self.revision3Members(of: settings) + [
                ("regions", String(simulation.regions.count)),
                ("rules", String(simulation.rules.count)),
                ("devices", String(simulation.devices.count)),
                ("tick", EventFormatting.seconds(simulation.tick) ?? "null"),
            ]
        if let noise = simulation.noise {
            members.append(
                (
                    "noise",
                    "{\"sigma\":\(number(noise.sigma)),\"seed\":\(noise.seed),\"correlation\":\(EventFormatting.seconds(noise.correlation) ?? "null")}"
                ))
        } else {
            members.append(("noise", "null"))
        }
        return "{" + members.map { JSONEscaping.string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// Revision 3's device settings that are not at their zero value (so that a revision-2 run's description
    /// is unchanged), in this order: `phase` (`"random"` or seconds), `stationary` (`{"after":s,"within":m,
    /// "interval":s}`), `outliers` (`{"every":s,"duration":s,"median":m,"p90":m,"accuracy":share}`),
    /// `delivery` (`{"median":s,"p90":s}`), `missEnter`, `missExit`.
    static func revision3Members(of settings: MonitorSettings) -> [(String, String)] {
        func number(_ value: Double) -> String { EventFormatting.number(value) ?? "null" }
        func seconds(_ span: TimeSpan) -> String { EventFormatting.seconds(span) ?? "null" }
        func object(_ fields: [(String, String)]) -> String {
            "{" + fields.map { JSONEscaping.string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        var members: [(String, String)] = []
        switch settings.phase {
        case .random: members.append(("phase", JSONEscaping.string("random")))
        case let .fixed(span) where span.microseconds != 0: members.append(("phase", seconds(span)))
        case .fixed: break
        }
        if let s = settings.stationary {
            members.append(
                (
                    "stationary",
                    object([
                        ("after", seconds(s.after)), ("within", number(s.within)),
                        ("interval", seconds(s.interval)),
                    ])
                ))
        }
        if let o = settings.outliers {
            members.append(
                (
                    "outliers",
                    object([
                        ("every", seconds(o.every)), ("duration", seconds(o.duration)),
                        ("median", number(o.median)), ("p90", number(o.p90)),
                        ("accuracy", number(o.accuracyScale)),
                    ])
                ))
        }
        if let d = settings.delivery {
            members.append(("delivery", object([("median", seconds(d.median)), ("p90", seconds(d.p90))])))
        }
        if settings.missEnter > 0 { members.append(("missEnter", number(settings.missEnter))) }
        if settings.missExit > 0 { members.append(("missExit", number(settings.missExit))) }
        return members
    }
}
