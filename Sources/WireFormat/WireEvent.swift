import Geofencing
import Time

/// An event as it is on the wire: the fields of SEMANTICS §7 and nothing else (no region or rule index),
/// times at millisecond resolution. What `JSONLines.decode(line:)` reads back, and what `check`
/// compares: `WireEvent(event) == JSONLines.decode(line: JSONLines.encode(event))`.
public struct WireEvent: Hashable, Sendable {
    public var time: Timestamp
    public var device: String
    public var region: String
    public var kind: GeofenceEvent.Kind
    public var lat: Double
    public var lon: Double
    public var distance: Double
    /// `enter`, `exit`.
    public var crossedAt: Timestamp?
    /// `visit`.
    public var arrival: Timestamp?
    /// `visit`.
    public var departure: Timestamp?
    /// `visit` (the stay), `dwell` (the time inside).
    public var duration: TimeSpan?
    /// `dwell`.
    public var rule: String?
    /// The decision time of an event delivered late (`enter`, `exit`, `visit`, `dwell`; SEMANTICS §7).
    public var detectedAt: Timestamp?

    /// Times are truncated to milliseconds, as they are written.
    public init(
        time: Timestamp, device: String, region: String, kind: GeofenceEvent.Kind,
        lat: Double, lon: Double, distance: Double, crossedAt: Timestamp? = nil,
        arrival: Timestamp? = nil, departure: Timestamp? = nil, duration: TimeSpan? = nil,
        rule: String? = nil, detectedAt: Timestamp? = nil
    ) {
        self.detectedAt = detectedAt?.truncatedToMilliseconds
        self.time = time.truncatedToMilliseconds
        self.device = device
        self.region = region
        self.kind = kind
        self.lat = lat
        self.lon = lon
        self.distance = distance
        self.crossedAt = crossedAt?.truncatedToMilliseconds
        self.arrival = arrival?.truncatedToMilliseconds
        self.departure = departure?.truncatedToMilliseconds
        self.duration = duration
        self.rule = rule
    }

    /// What `event` looks like on the wire.
    public init(_ event: GeofenceEvent) {
        // One switch over the detail, not the event's computed accessors: Swift 6.3's optimizer crashes
        // ("Found ownership error", CopyPropagation) on the accessor form in release builds.
        var crossedAt: Timestamp?, arrival: Timestamp?, departure: Timestamp?
        var duration: TimeSpan?, rule: String?
        switch event.detail {
        case let .enter(t), let .exit(t): crossedAt = t
        case let .visit(a, d): (arrival, departure, duration) = (a, d, d - a)
        case let .dwell(name, _, span): (rule, duration) = (name, span)
        case .monitorStart, .monitorStop, .monitorFailed: break
        }
        self.init(
            time: event.time, device: event.device, region: event.region, kind: event.kind,
            lat: event.coordinate.latitude, lon: event.coordinate.longitude, distance: event.distance,
            crossedAt: crossedAt, arrival: arrival, departure: departure, duration: duration, rule: rule,
            detectedAt: event.writtenDetectedAt)
    }
}

extension Timestamp {
    /// This instant with the microseconds below the millisecond dropped (toward the past).
    var truncatedToMilliseconds: Timestamp {
        let micros = microsecondsSince1970
        var millis = micros / 1000
        if micros % 1000 != 0 && micros < 0 { millis -= 1 }
        return Timestamp(microsecondsSince1970: millis * 1000)
    }
}
