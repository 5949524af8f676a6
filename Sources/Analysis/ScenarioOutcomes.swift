import Documents
import Geofencing
import Runs
import ScenarioFormat
import Time

/// `perimeter outcomes`: how many devices get each outcome (each dwell rule, each region's enter and
/// visit) in the truth and under each profile over a Monte Carlo batch (SEMANTICS "Outcomes"). Run r of
/// every profile uses the noise seed S + r; the batch is one `ProfileBatch`, each (profile, run)
/// simulated once; the result is the same for any number of threads.
///
/// The truth is `ScenarioOutcomes.truth(of:)`: the reference run that `compare`, `report` and Monte
/// Carlo spreads pair events with (`ScenarioRun.exact()`, `ideal` without noise).
///
/// ```swift
/// let base = try ScenarioRun(loading: "Scenarios/coffee-coupon.yaml")
/// let report = try ScenarioOutcomes(base, profiles: [.ios, .android], runs: 100).count(threads: 2)
/// print(report.readable)
/// ```
public struct ScenarioOutcomes: Sendable {
    public let base: ScenarioRun
    public let profiles: [Profile]
    public let runs: Int
    private let batch: ProfileBatch

    /// Refuses (at `tick`) a profile the scenario cannot run under and (at `runs`) fewer than one run. A
    /// scenario whose runs would all be alike is not refused: its spreads are then a single value.
    public init(_ base: ScenarioRun, profiles: [Profile], runs: Int, seed: UInt64? = nil) throws(ScenarioErrors) {
        batch = try ProfileBatch(base, profiles: profiles, runs: runs, seed: seed, refusingAlikeRuns: false)
        self.base = base
        self.profiles = profiles
        self.runs = runs
    }

    /// The noise seed of run 0.
    public var seed: UInt64 { batch.seed }

    /// The truth's events: the reference run of `compare`, `report` and Monte Carlo spreads
    /// (`ScenarioRun.exact()`: `ideal` on the tracks without noise). One run on `threads` threads.
    public static func truth(of base: ScenarioRun, threads: Int = RunOptions.defaultThreads) -> [GeofenceEvent] {
        base.exact().events(threads: threads).events
    }

    /// A tally ready for `base`'s outcomes under `profiles`, against `truth` (the truth's events).
    public static func tally(_ base: ScenarioRun, profiles: [Profile], truth: [GeofenceEvent]) -> OutcomeTally {
        let simulation = base.simulation
        return OutcomeTally(
            keys: OutcomeKey.all(rules: simulation.rules, regions: simulation.regions),
            devices: simulation.devices.map(\.id), profiles: profiles.map(\.name), truth: truth)
    }

    /// Runs the truth and the batch and counts. `progress` hears how many of the `runs × profiles` runs
    /// are done, on the calling thread; `isCancelled` is polled by each run between its windows (a cancelled
    /// count covers the runs handed on whole). O(runs × profiles × simulation).
    public func count(
        threads: Int = RunOptions.defaultThreads, isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (Int) -> Void = { _ in }
    ) -> OutcomeReport {
        var tally = Self.tally(base, profiles: profiles, truth: Self.truth(of: base, threads: threads))
        var done = 0
        batch.forEachRun(threads: threads, isCancelled: isCancelled) { run, events in
            tally.add(profile: run.profileIndex, events: events)
            done += 1
            progress(done)
        }
        return OutcomeReport(
            scenario: base.name, runs: runs, seed: batch.seed, day: base.simulation.clockStart,
            outcomes: tally.outcomes)
    }
}

/// What `perimeter outcomes` found (`json`, `readable`).
public struct OutcomeReport: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Runs of each profile, and the noise seed of run 0.
    public var runs: Int
    public var seed: UInt64
    /// The clock's start, whose date the heading shows.
    public var day: Timestamp
    public var outcomes: [OutcomeRow]
    /// Whose clocks the heading's date is shown on (`--timezone`); nil for UTC. The JSON has no times.
    public var zone: LocalTimeZone? = nil

    public init(scenario: String, runs: Int, seed: UInt64, day: Timestamp, outcomes: [OutcomeRow]) {
        self.scenario = scenario
        self.runs = runs
        self.seed = seed
        self.day = day
        self.outcomes = outcomes
    }
}
