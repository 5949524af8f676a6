import Geofencing

/// A sink whose output can be abandoned: after a failed or interrupted run, call `cancel()` instead of
/// `finish()` and a file target stays as it was before the run (its partial file is removed).
/// `finish()` after `cancel()` does nothing.
public protocol CancellableEventSink: EventSink {
    func cancel()
    /// Whether the sink itself keeps the events it could not deliver, and says where when it fails (an
    /// HTTP sink's spool file). A run journal (`RunJournal`) keeps the events of the sinks that do not.
    var spoolsItself: Bool { get }
}

extension CancellableEventSink {
    /// Files, standard output and databases do not: what a failed write did not deliver is gone.
    public var spoolsItself: Bool { false }
}

/// Whether `sink` keeps its undelivered events itself (false for a sink that is not cancellable).
func spoolsItself(_ sink: any EventSink) -> Bool {
    (sink as? any CancellableEventSink)?.spoolsItself ?? false
}
