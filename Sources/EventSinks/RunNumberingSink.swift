import Geofencing

/// A sink that keeps the runs of a Monte Carlo batch apart (`perimeter run --runs N`): JSON Lines and CSV
/// add a `run` field to each event, SQLite gives each run its own row in `runs`.
///
/// The batch calls `beginRun(_:_:)` before each run's events, runs in order 0, 1, 2, …, then `finish()`
/// once. A sink that is never told of a run writes what a plain run writes.
public protocol RunNumberingSink: EventSink {
    /// The events sent from now on are those of run `number` (0-based), which `run` describes (its
    /// settings carry that run's noise seed).
    func beginRun(_ number: Int, _ run: RunDescription) throws
}
