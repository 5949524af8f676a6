import Documents
import Geofencing
import Parallel
import ScenarioFormat
import Synchronization

/// "These profiles × these runs": a scenario already loaded, run under each of several profiles, once
/// each or as a Monte Carlo batch of each (run r with the noise seed S + r, as `MonteCarlo`). Every
/// (profile, run) is simulated once and its events handed on once, on the calling thread, in order:
/// profile by profile, each profile's runs in run order, whatever the threads. The world's regions, the
/// tracks and their fixes are the loaded run's: nothing is read or parsed again per profile or per run,
/// and a profile costs no look for the regions it cannot fire (`ScenarioRun.profileWarnings`). The one
/// batch of `compare`, `report`, `run --runs` (`MonteCarlo`) and `calibrate`.
///
/// A profile whose runs would all be alike (the scenario has no noise and the profile draws nothing,
/// SEMANTICS §2 "Random draws") is simulated once, and its events handed on for each of its runs.
/// Memory: one group of runs' events at a time (four runs a thread), as `MonteCarlo.forEachRun`.
///
/// ```swift
/// let base = try ScenarioRun(loading: "Scenarios/restaurant-welcome.yaml")
/// let batch = try ProfileBatch(base, profiles: [.ios, .android], runs: 100)
/// batch.forEachRun(threads: 4) { run, events in
///     print(run.profile.name, run.number, events.count)  // ios 0 …, ios 99 …, android 0 …, android 99 …
/// }
/// // Candidate profiles over the same loaded world (calibration): Profile values, no file read again.
/// for candidate in candidates {
///     let batch = try ProfileBatch(base, profiles: [candidate], runs: 20, seed: 1, refusingAlikeRuns: false)
///     batch.forEachRun { run, events in score.add(run.number, events) }
/// }
/// ```
public struct ProfileBatch: Sendable {
    /// Whose events are handed on: the profile (and its index in `profiles`) and the run's number
    /// (0-based; 0 for a plain run).
    public struct Run: Hashable, Sendable {
        public var profileIndex: Int
        public var profile: Profile
        public var number: Int
    }

    /// The run as loaded: its scenario, tracks and settings; each profile replaces its profile.
    public let base: ScenarioRun
    public let profiles: [Profile]
    /// Runs of each profile; nil: one plain run of each, with the scenario's own seed.
    public let runs: Int?
    /// The noise seed of run 0 (the scenario's by default, else 0).
    public let seed: UInt64
    /// Each profile's run: its Monte Carlo batch, or its one run when its runs would be alike.
    private let plans: [Plan]

    fileprivate enum Plan: Sendable {
        case once(ScenarioRun)
        case varied(MonteCarlo)
    }

    /// `base` under each of `profiles`: `runs` runs of each, or one plain run each when nil. Refuses (at
    /// `tick`) a profile whose interval the scenario's tick does not divide, (at `runs`) fewer than one
    /// run, and, when `refusingAlikeRuns` (a command's batch: its runs would tell the user nothing), (at
    /// `noise`, as `MonteCarlo`) a batch in which no profile's runs would differ. O(profiles) to make.
    public init(
        _ base: ScenarioRun, profiles: [Profile], runs: Int? = nil, seed: UInt64? = nil,
        refusingAlikeRuns: Bool = true
    ) throws(ScenarioErrors) {
        self.base = base
        self.profiles = profiles
        self.runs = runs
        self.seed = seed ?? base.simulation.noise?.seed ?? 0
        var plans: [Plan] = []
        for profile in profiles {
            let run = try base.replacingProfile(profile)
            guard let runs, run.simulation.runsVary else {
                plans.append(.once(run))
                continue
            }
            plans.append(.varied(try MonteCarlo(run, runs: runs, seed: seed)))
        }
        if let runs {
            try MonteCarlo.check(runs: runs, of: base)
            if refusingAlikeRuns, let first = plans.first, !plans.contains(where: \.varies), case let .once(run) = first {
                _ = try MonteCarlo(run, runs: runs, seed: seed)  // refused, at `noise`
            }
        }
        self.plans = plans
    }

    /// The batch of `monteCarlo`'s runs, under its own profile.
    init(_ monteCarlo: MonteCarlo) {
        base = monteCarlo.base
        profiles = [monteCarlo.base.simulation.profile]
        runs = monteCarlo.runs
        seed = monteCarlo.seed
        plans = [.varied(monteCarlo)]
    }

    /// Runs every (profile, run) and hands each one's events (SEMANTICS §7 order) to `body` on the
    /// calling thread, in order: profile by profile, run by run. Plain runs go one after another, each
    /// on `threads` threads; a batch's runs go `threads` at a time, each on one thread. `isCancelled` is
    /// polled between groups of runs and by every run between its windows (an interruption stops the
    /// runs under way within a window, not a group of runs later): a run it stopped is dropped, with
    /// every run after it, and those before it are handed on. Returns how many runs were handed on (fewer
    /// than `profiles × runs` when it stopped them).
    @discardableResult
    public func forEachRun<Failure: Error>(
        threads: Int = RunOptions.defaultThreads, isCancelled: @escaping @Sendable () -> Bool = { false },
        _ body: (Run, [GeofenceEvent]) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        var handed = 0
        guard let runs else {
            for (index, plan) in plans.enumerated() {
                if isCancelled() { return handed }
                Self.counter?.add(1)
                guard let events = plan.events(run: 0, threads: threads, isCancelled: isCancelled) else {
                    return handed  // stopped part way: dropped
                }
                try body(Run(profileIndex: index, profile: profiles[index], number: 0), events)
                handed += 1
            }
            return handed
        }
        // One job per simulation: (profile, run), or (profile, nil) for a profile simulated once.
        var jobs: [(profile: Int, run: Int?)] = []
        for (index, plan) in plans.enumerated() {
            if plan.varies { jobs += (0..<runs).map { (index, $0) } } else { jobs.append((index, nil)) }
        }
        let workers = max(1, threads)
        // A few runs per worker per group, so that slow runs even out; memory holds one group's events.
        let group = workers == 1 ? 1 : workers * 4
        var next = 0
        while next < jobs.count {
            if isCancelled() { return handed }
            let count = min(group, jobs.count - next), first = next
            Self.counter?.add(count)
            let results =
                workers == 1
                ? [simulate(jobs[next], isCancelled: isCancelled)]
                : concurrentMap(count) { [jobs] i in simulate(jobs[first + i], isCancelled: isCancelled) }
            for (job, events) in zip(jobs[first..<first + count], results) {
                // A run the interruption stopped, and every run after it, are dropped: what was handed on
                // is whole runs, in order.
                guard let events else { return handed }
                for number in job.run.map({ $0...$0 }) ?? 0...(runs - 1) {
                    try body(Run(profileIndex: job.profile, profile: profiles[job.profile], number: number), events)
                    handed += 1
                }
            }
            next += count
        }
        return handed
    }

    /// The events of one job, on one thread, or nil when `isCancelled` stopped it part way.
    private func simulate(
        _ job: (profile: Int, run: Int?), isCancelled: @escaping @Sendable () -> Bool
    ) -> [GeofenceEvent]? {
        plans[job.profile].events(run: job.run ?? 0, threads: 1, isCancelled: isCancelled)
    }

    /// Counts the simulations this task's batches start (`ProfileBatch.$counter.withValue(…)`), so that
    /// a test can hold a command to running each (profile, run) once.
    @TaskLocal public static var counter: SimulationCounter?
}

extension ProfileBatch.Plan {
    /// Whether its runs differ from one another.
    var varies: Bool {
        if case .varied = self { return true }
        return false
    }

    /// Run `run`'s events (the one run's, when its runs are alike), or nil when `isCancelled` stopped it
    /// part way.
    func events(run: Int, threads: Int, isCancelled: @escaping @Sendable () -> Bool) -> [GeofenceEvent]? {
        let scenarioRun: ScenarioRun
        switch self {
        case let .once(once): scenarioRun = once
        case let .varied(batch): scenarioRun = batch.run(run)
        }
        let (events, summary) = scenarioRun.events(threads: threads, isCancelled: isCancelled)
        return summary.interrupted ? nil : events
    }
}

/// How many simulations the batches of a task started (`ProfileBatch.counter`).
public final class SimulationCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// The simulations started so far.
    public var value: Int { count.load(ordering: .relaxed) }

    func add(_ n: Int) { count.add(n, ordering: .relaxed) }
}
