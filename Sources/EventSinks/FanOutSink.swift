import Geofencing

/// Sends each event to several sinks, in order. `finish()` finishes every sink even when one throws,
/// then rethrows what failed; `cancel()` cancels the ones that can be.
public final class FanOutSink: CancellableEventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) { self.sinks = sinks }

    /// Stops at the first sink that throws (the run stops too).
    public func send(_ event: GeofenceEvent) throws {
        for sink in sinks { try sink.send(event) }
    }

    /// Finishes every sink; throws the one error, or `SinkFailures` when several sinks failed, so that no
    /// sink's message (an HTTP sink's spool file, say) is hidden behind another's.
    public func finish() throws {
        var failures: [any Error] = []
        for sink in sinks {
            do { try sink.finish() } catch { failures.append(error) }
        }
        if failures.count == 1 { throw failures[0] }
        if !failures.isEmpty { throw SinkFailures(failures) }
    }

    public func cancel() {
        for case let sink as any CancellableEventSink in sinks { sink.cancel() }
    }
}

/// Several sinks failed at once; each error on its own line.
public struct SinkFailures: Error, CustomStringConvertible {
    public let errors: [any Error]
    public init(_ errors: [any Error]) { self.errors = errors }
    public var description: String { errors.map { "\($0)" }.joined(separator: "\n") }
}
