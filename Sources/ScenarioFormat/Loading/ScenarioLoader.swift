import Documents
import FileSystem
import Foundation
import GPX
import Geodesy
import Geofencing
import Time

/// A scenario file, decoded and checked: the engine's `Simulation` and what the tools need besides.
public struct Scenario: Sendable {
    /// `name:`, or else the file's name without its extension.
    public var name: String
    /// The scenario file, as given to the loader.
    public var file: String
    public var simulation: Simulation
    /// `sinks:` as written (sink specs such as `console` or `jsonl:out.jsonl`); empty when not set.
    public var sinks: [String]
    /// Where each of `sinks` is in the file (`sinks[1]`), for the problems a run or `validate` finds
    /// in them (`Runs.ScenarioSinkPolicy`).
    var sinkPlaces: [KeyedPlace] = []
    /// `expect:`, decoded (see `EventExpectation`); each keeps its place in the file.
    public var expectations: [EventExpectation]
    /// The `outcome:` entries of `expect:`, decoded (see `OutcomeExpectation`), in their order.
    public var outcomeExpectations: [OutcomeExpectation] = []
    /// `runs:`: the Monte Carlo runs over which `perimeter check` measures `probability:` expectations
    /// (run r with the noise seed `noise.seed + r`); nil when absent.
    public var runs: Int? = nil
    /// `timezone:`: the zone of the times the scenario, its tracks and tables write without one (and of
    /// the times `check` shows); nil reads them as UTC.
    public var timeZone: LocalTimeZone? = nil
    /// Things that loaded but deserve a look, each starting with its file and line: GPX points dropped,
    /// an offset given to an untimed track, a pace given to a timed one.
    public var warnings: [String]
    /// The files it reads besides itself (tracks, fix tables, region files), each once, in the order read.
    public var inputs: [ScenarioInput] = []
    /// The kind of each of `warnings` that may repeat (a GPX point dropped), nil for the others.
    public var warningKinds: [RepeatedWarning?] = []
}

extension Scenario {
    /// Where `sinks[index]` is in the file (line and column 0 for a scenario not read from one).
    public func sinkPlace(_ index: Int) -> KeyedPlace {
        index < sinkPlaces.count ? sinkPlaces[index] : KeyedPlace(place: SourcePlace(file: file), keyPath: "sinks[\(index)]")
    }
}

/// Reads scenario files (README "A first run" and docs/SCENARIO-REFERENCE.md) into `Scenario`s, reporting every problem at once.
///
/// Defaults where the file is silent: `profile: ideal` (ground truth, as `Simulation`'s own default),
/// `tick: 1`, no `start` (taken from the tracks, SEMANTICS §1), no monitor overrides, no noise;
/// a device's `offset: 0` and `pace: 1`; `noise.seed: 0`. `regions` and `devices` must be present
/// (either may be an empty list).
public struct ScenarioLoader: Sendable {
    /// Reads one GPX file, given its resolved path. Tests pass tracks built in code.
    public typealias TrackLoader = @Sendable (String) throws -> GPXTrack

    public var trackLoader: TrackLoader
    /// The most samples a scenario may make in all (devices × ticks within their tracks): a run over
    /// it would take hours (the engine makes about a million samples a second), so the loader refuses
    /// it and says what makes it so big. A billion by default.
    public var maxSamples: Int64

    public static let defaultMaxSamples: Int64 = 1_000_000_000

    /// False for `perimeter stream`, whose devices come from standard input: `devices:` is then not
    /// read (its files need not exist where the stream runs) and may be absent.
    public var readsDevices = true

    /// Where the scenario's inputs may come from (`anywhere` unless confined: every command confines them).
    public var inputs = InputConfinement.anywhere

    /// The threads that read the scenario's tracks and check them (default: one a core): `--threads`, so
    /// that a run on one thread is one thread from its first file to its last event.
    public var threads = ProcessInfo.processInfo.activeProcessorCount

    /// The pieces a fix table is read in: as many as `threads` when fewer than the cores (one: on one
    /// thread), else the reader's choice (four pieces a core for a large file).
    var fixTablePieces: Int? { threads < ProcessInfo.processInfo.activeProcessorCount ? max(1, threads) : nil }

    public init(
        trackLoader: @escaping TrackLoader = { path in try GPXTrack.load(path: path) },
        maxSamples: Int64 = ScenarioLoader.defaultMaxSamples
    ) {
        self.trackLoader = trackLoader
        self.maxSamples = maxSamples
    }

    /// Loads the scenario at `path` with the real GPX reader.
    public static func load(
        path: String, maxSamples: Int64 = defaultMaxSamples, inputs: InputConfinement = .anywhere
    ) throws(ScenarioErrors) -> Scenario {
        var loader = ScenarioLoader(maxSamples: maxSamples)
        loader.inputs = inputs
        return try loader.load(path: path)
    }

    /// Loads the scenario at `path`; paths inside it are relative to its folder. Reads each top-level key by
    /// its row of `ScenarioKey.all`, then makes the simulation and checks it, then reads the keys that
    /// need it (`expect:`, `runs:`). O(the scenario's regions, devices and fixes).
    public func load(path: String) throws(ScenarioErrors) -> Scenario {
        let d = ProblemLog()
        d.inputRoot = inputs.root(of: path)
        guard let root = YAMLDocument.compose(path, what: "a scenario (a YAML or JSON mapping)", diagnostics: d),
            let top = PlacedNode(node: root, path: "", file: path, diagnostics: d, isOwnText: true)
                .mapping("a scenario: a mapping of name, regions, devices and the like", allowed: ScenarioKey.names)
        else { throw ScenarioErrors(d.errors) }

        var draft = ScenarioDraft(top: top)
        // The GPX tracks of `devices:` are read ahead on the other threads while the keys before it are read.
        if readsDevices, let list = top["devices"], case .sequence = list.node {
            draft.tracks = PreloadedTracks(
                entries: list.list("") ?? [], loader: trackLoader, threads: threads, diagnostics: d)
        }
        for key in ScenarioKey.readingOrder {
            if case let .draft(read) = key.reader { read(self, &draft, key.name) }
        }
        let simulation = simulation(of: draft)
        for key in ScenarioKey.readingOrder {
            if case let .simulation(read) = key.reader { read(self, &draft, key.name, simulation) }
        }

        if d.hasErrors { throw ScenarioErrors(d.errors) }
        let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return Scenario(
            name: draft.name ?? fileName, file: path, simulation: simulation, sinks: draft.sinks,
            sinkPlaces: draft.sinkPlaces, expectations: draft.expectations,
            outcomeExpectations: draft.outcomeExpectations, runs: draft.runs, timeZone: draft.zone,
            warnings: d.warnings, inputs: d.inputs, warningKinds: d.warningKinds)
    }

    /// The simulation the draft makes, checked: a tick that does not divide the interval (or a phase not
    /// below it) at its key; then, when nothing else is wrong, its size and its likely mistakes.
    private func simulation(of draft: ScenarioDraft) -> Simulation {
        let top = draft.top, d = draft.diagnostics
        let simulation = Simulation(
            regions: draft.regions.map(\.region), rules: draft.rules, profile: draft.profile,
            overrides: draft.overrides, devices: draft.devices, start: draft.start,
            tick: draft.tick, noise: draft.noise)
        if let problem = simulation.intervalProblem {
            let phase = simulation.phaseProblem == problem ? top["monitor"]?.entry("phase") : nil
            if let place = phase ?? top["tick"] ?? top["profile"] ?? top["monitor"] { place.fail(problem) }
        }
        guard !d.hasErrors else { return simulation }
        // What the checks need of each device's fixes, read once, the devices on the loader's threads.
        let facts = simulation.trackFacts(threads: threads)
        checkRunSize(simulation, facts: facts, devices: draft.deviceCursors, list: top["devices"])
        if !d.hasErrors {
            warnAboutLikelyMistakes(
                simulation, facts: facts, regions: draft.regions, fixTables: draft.fixTables, diagnostics: d,
                list: top["regions"], rules: top["rules"]?.list("a list of dwell rules") ?? [],
                startCursor: top["start"], devicesCursor: top["devices"])
        }
        return simulation
    }
}
