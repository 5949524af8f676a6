import Geofencing

/// A sink that passes on only some kinds of event (`;kinds=enter,exit` after any sink's spec), and
/// everything else a sink is asked (finish, cancel, interruption, Monte Carlo runs) as it is.
public final class KindFilterSink: CancellableEventSink, InterruptibleEventSink, StoppedEarlySink, RunNumberingSink {
    /// The sink that receives the events kept.
    public let base: any CancellableEventSink
    public let kinds: Set<GeofenceEvent.Kind>

    public init(_ base: any CancellableEventSink, kinds: Set<GeofenceEvent.Kind>) {
        self.base = base
        self.kinds = kinds
    }

    public func send(_ event: GeofenceEvent) throws {
        if kinds.contains(event.kind) { try base.send(event) }
    }

    public func finish() throws { try base.finish() }
    public func cancel() { base.cancel() }
    public var spoolsItself: Bool { base.spoolsItself }

    public func markInterrupted() throws { try (base as? any InterruptibleEventSink)?.markInterrupted() }
    public func markStoppedEarly() { (base as? any StoppedEarlySink)?.markStoppedEarly() }
    public var keptBesideNotes: [String] { (base as? any StoppedEarlySink)?.keptBesideNotes ?? [] }

    public func beginRun(_ number: Int, _ run: RunDescription) throws {
        try (base as? any RunNumberingSink)?.beginRun(number, run)
    }
}
