import Documents
import Geofencing
import ScenarioFormat

/// A scenario made ready to run: loaded, with its profile resolved. The one place every verb (`run`,
/// `check`, and those to come: compare, Monte Carlo, report, stream) gets a simulation from a file.
///
/// ```swift
/// let run = try ScenarioRun(loading: "Scenarios/lorrenzillos.yaml", profile: .android)
/// let events = try run.events()
/// ```
public struct ScenarioRun: Sendable {
    /// The scenario as loaded.
    public let scenario: Scenario
    /// Its simulation, under the profile that was asked for.
    public var simulation: Simulation

    /// The warnings that depend on the profile, for a run under another profile than the scenario's (the
    /// loader gave them for its own): the regions that can never get an enter under it, or an exit.
    public let profileWarnings: [String]

    /// Whether `events` gives the truth of SEMANTICS §9 (revision 4): set by `exact()` on a scenario with
    /// recorded devices, whose true paths then run under `ideal` with settled crossings.
    public private(set) var isTruth = false

    /// `scenario`, under `profile` when given (else its own). Under another profile, the regions that can
    /// never get an enter or an exit under it are found first: O(fixes + regions × devices).
    public init(_ scenario: Scenario, profile: Profile? = nil) {
        self.scenario = scenario
        simulation = scenario.simulation
        guard let profile, profile != scenario.simulation.profile else {
            profileWarnings = []
            return
        }
        simulation.profile = profile
        profileWarnings = scenario.warnings(under: profile)
    }

    /// Loads the scenario at `path` (every problem at once, each with its file and place), refusing a run
    /// of more than `maxSamples` samples before it starts.
    /// Without `readsDevices` (`perimeter stream`), the scenario's `devices:` are not read and may be absent.
    /// `inputs`: where its tracks, tables, region and profile files may come from (its repository).
    /// `threads`: how many threads read and check its tracks (`--threads`; default one a core).
    public init(
        loading path: String, profile: Profile? = nil,
        maxSamples: Int64 = ScenarioLoader.defaultMaxSamples, readsDevices: Bool = true,
        inputs: InputConfinement = .anywhere, threads: Int = RunOptions.defaultThreads
    ) throws(ScenarioErrors) {
        var loader = ScenarioLoader(maxSamples: maxSamples)
        loader.readsDevices = readsDevices
        loader.inputs = inputs
        loader.threads = threads
        self.init(try loader.load(path: path), profile: profile)
        if let problem = simulation.intervalProblem {
            throw ScenarioErrors([ScenarioError(file: path, keyPath: "tick", line: 0, column: 0, message: problem)])
        }
    }

    /// This scenario under `profile`, refused (at `tick`) when the profile's interval is not a multiple
    /// of the tick.
    public func under(_ profile: Profile) throws(ScenarioErrors) -> ScenarioRun {
        try ScenarioRun(scenario, profile: profile).checkedInterval()
    }

    /// This run with `profile` in place of its own, refused as `under(_:)` refuses it, without looking
    /// for the regions it cannot fire (its `profileWarnings` stay this run's): for batches of many
    /// profiles (`ProfileBatch`). O(1).
    func replacingProfile(_ profile: Profile) throws(ScenarioErrors) -> ScenarioRun {
        var run = self
        run.simulation.profile = profile
        return try run.checkedInterval()
    }

    /// This scenario under `profile` on its exact tracks, without noise: with `ideal` (the default), the
    /// crossings themselves, which `compare`, `report`, `run --runs` and `outcomes` pair events with: the
    /// truth. A recorded device's exact track is its true path (SEMANTICS §9), and under `ideal` its
    /// crossings are settled (`isTruth`). O(1) without recorded devices (the regions the profile cannot
    /// fire are not looked for), else O(their fixes).
    public func exact(under profile: Profile = .ideal) -> ScenarioRun {
        var run = self
        run.simulation.profile = profile
        run.simulation.noise = nil
        guard simulation.hasRecordedDevices else { return run }
        if profile == .ideal {
            run.isTruth = true
        } else {
            run.simulation = run.simulation.onTruePaths()
        }
        return run
    }

    /// This run, refused (at `tick`) when its profile's interval is not a multiple of the tick.
    private func checkedInterval() throws(ScenarioErrors) -> ScenarioRun {
        guard let problem = simulation.intervalProblem else { return self }
        throw ScenarioErrors([ScenarioError(file: scenario.file, keyPath: "tick", line: 0, column: 0, message: problem)])
    }

    /// What Monte Carlo runs of this scenario vary when its recorded tracks have no noise (SEMANTICS §9),
    /// for a note before a batch; nil otherwise.
    public var recordedRunsNote: String? {
        guard simulation.hasRecordedDevices, simulation.noise == nil else { return nil }
        return "the tracks are recorded (SEMANTICS §9): the runs vary the profiles' own draws (phase, misses, "
            + "delivery, outliers), not the fixes, which are the phones' as recorded"
    }

    /// The scenario's name (`name:`, or its file name).
    public var name: String { scenario.name }
    /// What deserves a look: GPX points dropped and the like, each with its file and line, a kind said
    /// many times summed up in one line (`Scenario.warnings(all:)`), then `profileWarnings`.
    public var warnings: [String] { warnings(all: false) }

    /// `warnings`, with `all` every one of a kind said many times (`--all-warnings`).
    public func warnings(all: Bool) -> [String] { scenario.warnings(all: all) + profileWarnings }

    /// `warnings` (every one with `all`), then for each of `profiles` that is not this run's, the regions
    /// that can never get an enter or an exit under it (`compare` and `report`, which run several).
    public func warnings(under profiles: [Profile], all: Bool = false) -> [String] {
        warnings(all: all)
            + profiles.filter { $0 != simulation.profile }.flatMap { (try? under($0))?.profileWarnings ?? [] }
    }

    /// Runs to the end and returns every event in the order of SEMANTICS §7, with the run's summary.
    /// `isCancelled` is polled between windows: when it stops the run, `summary.interrupted` says so and
    /// the events are only the windows' before it (a batch drops such a run). The truth (`isTruth`) runs to
    /// its end.
    public func events(
        threads: Int = RunOptions.defaultThreads, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> (events: [GeofenceEvent], summary: RunSummary) {
        if isTruth { return simulation.truth(threads: threads) }
        let log = EventLog()
        do {
            let summary = try simulation.run(into: log, options: RunOptions(threads: threads, isCancelled: isCancelled))
            return (log.events, summary)
        } catch {
            preconditionFailure("an EventLog does not throw, yet the run did: \(error)")
        }
    }
}
