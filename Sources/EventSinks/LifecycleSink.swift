import Geofencing

/// A sink a run opens from a spec and takes through its whole life: the one protocol every sink of the
/// registry conforms to. Each step beyond `send` and `finish` has a default that does nothing, as
/// swift-nio's `ChannelHandler` has, so a sink writes only the steps it cares about; a run asks every
/// sink every step, and a sink that does not care ignores it.
///
/// The order a run follows (`SinkSession`, `FanOutSink`):
/// 1. `beginRun(_:_:)` before each run of a Monte Carlo batch (runs 0, 1, 2, …; never in a plain run);
/// 2. `send(_:)` (or `send(_:jsonLine:)`) for every event, in the order of SEMANTICS §7;
/// 3. for a run that stopped before its end (interrupted, a stream's bad row, a failed sink):
///    `markInterrupted()` and `markStoppedEarly()`;
/// 4. `finish()` once, or `cancel()` instead after a failure (then `finish()` does nothing);
/// 5. after `finish()`, `keptBesideNotes`.
///
/// ```swift
/// final class EnterCounter: LifecycleSink {
///     private(set) var enters = 0
///     func send(_ event: GeofenceEvent) throws { if event.kind == .enter { enters += 1 } }
///     func finish() throws { print(enters) }
/// }
/// ```
public protocol LifecycleSink: EventSink {
    /// The events sent from now on are those of Monte Carlo run `number` (0-based), which `run`
    /// describes (its settings carry that run's noise seed). A sink that keeps runs apart (its kind's
    /// `SinkKind.tellsRunsApart`: JSON Lines and CSV add a `run` field, SQLite a `runs` row per run)
    /// records it; a sink never told of a run writes what a plain run writes. Default: nothing.
    func beginRun(_ number: Int, _ run: RunDescription) throws

    /// Whether the sink writes each event as its JSON Lines text (`JSONLines.encode`) and takes that
    /// text from `send(_:jsonLine:)`: `FanOutSink` then encodes each event once for every part of a run
    /// that writes it. Default: false.
    var takesJSONLines: Bool { get }

    /// Receives one event with its JSON Lines text as UTF-8 bytes (no line end), when `takesJSONLines`.
    /// Default: `send(event)`.
    func send(_ event: GeofenceEvent, jsonLine: [UInt8]) throws

    /// Records that the run stopped before the end of its tracks (SIGINT, SIGTERM, a stream's bad row):
    /// a SQLite sink's run status. `Simulation.run(into:)` finishes the sink itself, also after a clean
    /// interruption, so this may come before or after `finish()`, and must correct what `finish()`
    /// recorded. Default: nothing.
    func markInterrupted() throws

    /// Says, before `finish()`, that the run stopped before its end: a sink that writes files then keeps
    /// each beside its target under a name that says so, and leaves the target as it was
    /// (`OutputFile.markStoppedEarly()`). Default: nothing.
    func markStoppedEarly()

    /// After `finish()`: a sentence for each file kept beside its target, saying where. Default: none.
    var keptBesideNotes: [String] { get }

    /// Abandons the output after a failed or interrupted run, instead of `finish()`: a file target stays
    /// as it was before the run (its partial file is removed). `finish()` after `cancel()` does nothing.
    /// Default: nothing.
    func cancel()

    /// Whether the sink itself keeps the events it could not deliver, and says where when it fails (an
    /// HTTP sink's spool file). A run journal (`RunJournal`) keeps the events of the sinks that do not.
    /// Default: false (files, standard output and databases: what a failed write did not deliver is gone).
    var spoolsItself: Bool { get }
}

extension LifecycleSink {
    public func beginRun(_ number: Int, _ run: RunDescription) throws {}
    public var takesJSONLines: Bool { false }
    public func send(_ event: GeofenceEvent, jsonLine: [UInt8]) throws { try send(event) }
    public func markInterrupted() throws {}
    public func markStoppedEarly() {}
    public var keptBesideNotes: [String] { [] }
    public func cancel() {}
    public var spoolsItself: Bool { false }
}

/// The engine's in-memory log is a sink like any other: it sends and finishes, and needs no other step.
extension EventLog: LifecycleSink {}
