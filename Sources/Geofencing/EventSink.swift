/// Where a run's events go: a file, a database, a server. Tiny on purpose: send, and finish.
///
/// A run calls `send(_:)` for every event as it is produced, in the total order of SEMANTICS §7, from
/// one thread at a time; then `finish()` once at the end. Throwing from `send` stops the run, which
/// then does not call `finish()`: its caller decides. Errors should say where the events went.
///
/// A complete custom sink, counting enters per region:
///
/// ```swift
/// final class EnterCounter: EventSink {
///     private(set) var enters: [String: Int] = [:]
///     func send(_ event: GeofenceEvent) throws {
///         if event.kind == .enter { enters[event.region, default: 0] += 1 }
///     }
///     func finish() throws {
///         for (region, count) in enters.sorted(by: { $0.key < $1.key }) { print(region, count) }
///     }
/// }
/// try simulation.run(into: EnterCounter())
/// ```
public protocol EventSink: AnyObject {
    /// Receives one event. Called in output order.
    func send(_ event: GeofenceEvent) throws
    /// Flushes and closes. Called once, last.
    func finish() throws
}

/// A sink that keeps every event in memory, in order: for tests and small runs.
public final class EventLog: EventSink {
    public private(set) var events: [GeofenceEvent] = []
    public private(set) var isFinished = false

    public init() {}

    public func send(_ event: GeofenceEvent) throws { events.append(event) }
    public func finish() throws { isFinished = true }
}
