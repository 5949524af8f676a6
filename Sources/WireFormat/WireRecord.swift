import Geodesy
import Geofencing
import Time

/// An event's fields on the wire (SEMANTICS §7), as the record writers (`JSONLines`, `CSVRecords`, the
/// GeoJSON sink's features) read them: a `WireEvent` stores them; a `GeofenceEvent` has them too, read in
/// place, so that a sink writes an engine's event without first copying it and its strings into a
/// `WireEvent`. Times are written at millisecond resolution, truncated toward the past, whichever holds
/// them (`Timestamp.iso8601`), so both give the same bytes for the same event.
///
/// The writers are generic over it inside this module and specialized there for both types; their public
/// entry points take one or the other.
public protocol WireRecord {
    var time: Timestamp { get }
    var device: String { get }
    var region: String { get }
    var kind: GeofenceEvent.Kind { get }
    var coordinate: Coordinate { get }
    var distance: Meters { get }
    /// `enter`, `exit`.
    var crossedAt: Timestamp? { get }
    /// `visit`.
    var arrival: Timestamp? { get }
    /// `visit`.
    var departure: Timestamp? { get }
    /// `visit` (the stay), `dwell` (the time inside).
    var duration: TimeSpan? { get }
    /// `dwell`.
    var rule: String? { get }
    /// The phone's decision time of an event delivered late (SEMANTICS §7 "Delivery"), nil without a delay.
    var detectedAt: Timestamp? { get }
}

extension WireRecord {
    /// `detectedAt` when it is written: set and different from `time` (SEMANTICS §7).
    @inlinable
    public var writtenDetectedAt: Timestamp? {
        guard let detectedAt, detectedAt != time else { return nil }
        return detectedAt
    }
}

extension GeofenceEvent: WireRecord {}

extension WireEvent: WireRecord {
    /// `lat` and `lon` together.
    @inlinable
    public var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }
}

extension EventFormatting {
    /// The most bytes `event`'s record takes in any of the formats (a JSON object or its members, a CSV
    /// record, a GeoJSON feature), keys and punctuation included: its strings (ids, rule) escaped at worst
    /// (`\u00XX`, 6 bytes a byte), four numbers and five times at `fieldBound`, 256 for the rest. O(1).
    @inlinable
    public static func bound(of event: some WireRecord) -> Int {
        let strings = event.device.utf8.count + event.region.utf8.count + (event.rule?.utf8.count ?? 0)
        return 256 + 6 * strings + fieldBound * 9
    }
}
