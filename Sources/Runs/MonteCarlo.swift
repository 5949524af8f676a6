import Documents
import Geofencing
import ScenarioFormat

/// A Monte Carlo batch: one scenario run `runs` times, run r (0-based) with its noise seed replaced by
/// `seed + r` (wrapping at 2⁶⁴), so that run r is byte for byte the plain run of the scenario with
/// `noise.seed: seed + r`. Runs go in parallel, one thread each; whatever the threads, results are handed
/// on in run order, so that everything built from them is identical for any thread count.
///
/// ```swift
/// let batch = try MonteCarlo(ScenarioRun(loading: "Scenarios/lorrenzillos-noisy.yaml"), runs: 100)
/// try batch.forEachRun(threads: 2) { r, events in print(r, events.count) }
/// ```
public struct MonteCarlo: Sendable {
    /// The scenario as loaded (its own seed is the default `seed`).
    public let base: ScenarioRun
    public let runs: Int
    /// The seed of run 0.
    public let seed: UInt64

    /// Refuses (at `noise`) a scenario without noise that draws nothing else either (SEMANTICS §2 "Random
    /// draws"), whose runs would all be the same, and fewer than one run. A scenario without noise that
    /// draws (a random phase, misses, delivery, outliers) varies its seed through a noise of sigma 0.
    public init(_ base: ScenarioRun, runs: Int, seed: UInt64? = nil) throws(ScenarioErrors) {
        let noise = base.simulation.noise
        guard base.simulation.runsVary else {
            let message =
                base.simulation.hasRecordedDevices
                ? "a Monte Carlo batch varies the profile's draws or the noise, and this scenario's profile draws "
                    + "nothing; its tracks are recorded (SEMANTICS §9), so choose a profile that draws (ios, android) "
                    + "rather than noise, or add noise: {sigma: 5m, seed: 1, onRecorded: true} to add GPS error to theirs"
                : "a Monte Carlo batch varies the noise seed, and this scenario has no noise; add "
                    + "noise: {sigma: 5m, seed: 1} (GPS error in metres; correlation: 30s makes it wander)"
            throw ScenarioErrors([
                ScenarioError(file: base.scenario.file, keyPath: "noise", line: 0, column: 0, message: message)
            ])
        }
        try Self.check(runs: runs, of: base)
        self.base = base
        self.runs = runs
        self.seed = seed ?? noise?.seed ?? 0
    }

    /// Refuses (at `runs`) fewer than one run.
    static func check(runs: Int, of base: ScenarioRun) throws(ScenarioErrors) {
        guard runs < 1 else { return }
        throw ScenarioErrors([
            ScenarioError(
                file: base.scenario.file, keyPath: "runs", line: 0, column: 0,
                message: "expected a number of runs of 1 or more, got \(runs)")
        ])
    }

    /// Run `r`: the scenario with its noise seed `seed + r` (a noise of sigma 0 when it has none: the seed of
    /// its draws, positions unchanged).
    public func run(_ r: Int) -> ScenarioRun {
        var run = base
        if run.simulation.noise == nil { run.simulation.noise = Noise(sigma: 0, seed: 0) }
        run.simulation.noise?.seed = seed &+ UInt64(r)
        return run
    }

    /// Runs every run and hands each one's events (SEMANTICS §7 order) to `body` on the calling thread,
    /// in run order: the `ProfileBatch` of this one profile. Runs go `threads` at a time, each on one
    /// thread. `isCancelled` is polled between groups of runs and by each run between its windows (a run
    /// it stops is dropped, with the runs after it); returns how many runs were handed on (fewer than
    /// `runs` when it stopped them).
    @discardableResult
    public func forEachRun<Failure: Error>(
        threads: Int = RunOptions.defaultThreads, isCancelled: @escaping @Sendable () -> Bool = { false },
        _ body: (Int, [GeofenceEvent]) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        try ProfileBatch(self).forEachRun(threads: threads, isCancelled: isCancelled) { (run, events) throws(Failure) in
            try body(run.number, events)
        }
    }
}
