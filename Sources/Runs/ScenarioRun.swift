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
        let simulation = simulation
        profileWarnings =
            simulation.unenterableRegions().map {
                "\(scenario.file): " + ScenarioLoader.neverEntered(simulation.regions[$0.index], $0, profile: profile)
            }
            + simulation.unexitableRegions().map {
                "\(scenario.file): " + ScenarioLoader.neverExited(simulation.regions[$0.index], $0, profile: profile)
            }
    }

    /// Loads the scenario at `path` (every problem at once, each with its file and place), refusing a run
    /// of more than `maxSamples` samples before it starts.
    /// Without `readsDevices` (`perimeter stream`), the scenario's `devices:` are not read and may be absent.
    public init(
        loading path: String, profile: Profile? = nil,
        maxSamples: Int64 = ScenarioLoader.defaultMaxSamples, readsDevices: Bool = true
    ) throws(ScenarioErrors) {
        var loader = ScenarioLoader(maxSamples: maxSamples)
        loader.readsDevices = readsDevices
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
    /// crossings themselves, which `compare`, `report` and `run --runs` pair events with. O(1): the
    /// regions the profile cannot fire are not looked for.
    public func exact(under profile: Profile = .ideal) -> ScenarioRun {
        var run = self
        run.simulation.profile = profile
        run.simulation.noise = nil
        return run
    }

    /// This run, refused (at `tick`) when its profile's interval is not a multiple of the tick.
    private func checkedInterval() throws(ScenarioErrors) -> ScenarioRun {
        guard let problem = simulation.intervalProblem else { return self }
        throw ScenarioErrors([ScenarioError(file: scenario.file, keyPath: "tick", line: 0, column: 0, message: problem)])
    }

    /// The scenario's name (`name:`, or its file name).
    public var name: String { scenario.name }
    /// What deserves a look: GPX points dropped and the like, each with its file and line, then
    /// `profileWarnings`.
    public var warnings: [String] { scenario.warnings + profileWarnings }

    /// `warnings`, then for each of `profiles` that is not this run's, the regions that can never get an
    /// enter or an exit under it (`compare` and `report`, which run several).
    public func warnings(under profiles: [Profile]) -> [String] {
        warnings + profiles.filter { $0 != simulation.profile }.flatMap { (try? under($0))?.profileWarnings ?? [] }
    }

    /// Runs to the end and returns every event in the order of SEMANTICS §7, with the run's summary.
    /// `isCancelled` is polled between windows: when it stops the run, `summary.interrupted` says so and
    /// the events are only the windows' before it (a batch drops such a run).
    public func events(
        threads: Int = RunOptions.defaultThreads, isCancelled: @escaping @Sendable () -> Bool = { false }
    ) -> (events: [GeofenceEvent], summary: RunSummary) {
        let log = EventLog()
        do {
            let summary = try simulation.run(into: log, options: RunOptions(threads: threads, isCancelled: isCancelled))
            return (log.events, summary)
        } catch {
            preconditionFailure("an EventLog does not throw, yet the run did: \(error)")
        }
    }
}
