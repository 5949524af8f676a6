import Geofencing

/// Sends each event to several sinks, in order. `finish()` finishes every sink even when one throws,
/// then rethrows the first error; `cancel()` cancels the ones that can be.
public final class FanOutSink: CancellableEventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) { self.sinks = sinks }

    /// Stops at the first sink that throws (the run stops too).
    public func send(_ event: GeofenceEvent) throws {
        for sink in sinks { try sink.send(event) }
    }

    public func finish() throws {
        var first: (any Error)?
        for sink in sinks {
            do { try sink.finish() } catch { if first == nil { first = error } }
        }
        if let first { throw first }
    }

    public func cancel() {
        for case let sink as any CancellableEventSink in sinks { sink.cancel() }
    }
}
