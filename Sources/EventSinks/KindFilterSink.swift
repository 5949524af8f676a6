import Geofencing

/// A sink that passes on only some kinds of event (`;kinds=enter,exit` after any sink's spec), and
/// everything else a sink is asked (finish, cancel, interruption, Monte Carlo runs) as it is.
public final class KindFilterSink: LifecycleSink {
    /// The sink that receives the events kept.
    public let base: any LifecycleSink
    public let kinds: Set<GeofenceEvent.Kind>

    public init(_ base: any LifecycleSink, kinds: Set<GeofenceEvent.Kind>) {
        self.base = base
        self.kinds = kinds
    }

    public func send(_ event: GeofenceEvent) throws {
        if kinds.contains(event.kind) { try base.send(event) }
    }

    public func finish() throws { try base.finish() }
    public func cancel() { base.cancel() }
    public var spoolsItself: Bool { base.spoolsItself }

    public func markInterrupted() throws { try base.markInterrupted() }
    public func markStoppedEarly() { base.markStoppedEarly() }
    public var keptBesideNotes: [String] { base.keptBesideNotes }
    public func beginRun(_ number: Int, _ run: RunDescription) throws { try base.beginRun(number, run) }
}
