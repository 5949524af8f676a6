import Geofencing

/// A sink that records whether its run was interrupted (SIGINT, SIGTERM), not only that it ended.
///
/// `Simulation.run(into:)` finishes the sink itself, also after a clean interruption, and only then
/// does its caller learn from the summary that the run was interrupted: so `markInterrupted()` may be
/// called before or after `finish()`, and must correct what `finish()` recorded.
public protocol InterruptibleEventSink: EventSink {
    /// Records that the run stopped before the end of its tracks.
    func markInterrupted() throws
}

/// A fan-out passes the news to each of its sinks that records it, and rethrows the first error.
extension FanOutSink: InterruptibleEventSink {
    public func markInterrupted() throws {
        var first: (any Error)?
        for case let sink as any InterruptibleEventSink in sinks {
            do { try sink.markInterrupted() } catch { if first == nil { first = error } }
        }
        if let first { throw first }
    }
}

/// A sink that writes files, told before `finish()` that its run stopped before its end (interrupted, or
/// a stream stopped by a bad row): `finish()` then keeps each file beside its target, under a name that
/// says so, and leaves the target as it was (`OutputFile.markStoppedEarly()`).
public protocol StoppedEarlySink: EventSink {
    func markStoppedEarly()
    /// After `finish()`: a sentence for each file kept beside its target, saying where.
    var keptBesideNotes: [String] { get }
}

extension FanOutSink: StoppedEarlySink {
    public func markStoppedEarly() {
        for case let sink as any StoppedEarlySink in sinks { sink.markStoppedEarly() }
    }

    public var keptBesideNotes: [String] { sinks.flatMap { ($0 as? any StoppedEarlySink)?.keptBesideNotes ?? [] } }
}
