import Geofencing

/// A sink whose output can be abandoned: after a failed or interrupted run, call `cancel()` instead of
/// `finish()` and a file target stays as it was before the run (its partial file is removed).
/// `finish()` after `cancel()` does nothing.
public protocol CancellableEventSink: EventSink {
    func cancel()
}
