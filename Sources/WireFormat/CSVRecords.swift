import Geofencing
import Time

/// Events as CSV per RFC 4180 (the `csv:` sink): a header, then one record per event, CRLF line ends; a
/// field is quoted when it holds a comma, a quote, CR, LF, or a byte a shell acts on (`EventFormatting.csvQuotes`;
/// quotes doubled), and empty where the event's
/// kind has no value (`detectedAt`, last, only for an event delivered late: SEMANTICS §7). Numbers and times are written as in JSON Lines (`EventFormatting`).
///
/// ```
/// time,device,region,kind,lat,lon,distance,crossedAt,arrival,departure,duration,rule,detectedAt
/// 2016-01-10T12:03:10.000Z,phone,cafe,enter,37.7,-121.7,-12.5,2016-01-10T12:03:05.000Z,,,,,
/// ```
public enum CSVRecords {
    /// The columns, in order: every wire field (`WireField.allCases`).
    public static let columns = WireField.allCases.map(\.name)
    /// The header record with its line end.
    public static let header = columns.joined(separator: ",") + "\r\n"

    /// The event as one CSV record, without a line end.
    public static func encode(_ event: GeofenceEvent) -> String { encode(WireEvent(event)) }

    /// The wire event as one CSV record, without a line end.
    public static func encode(_ event: WireEvent) -> String {
        var record: [UInt8] = []
        append(event, to: &record)
        return String(decoding: record, as: UTF8.self)
    }

    /// Appends the event as one CSV record, without a line end, to UTF-8 bytes: its fields read in place
    /// (`WireRecord`), no `WireEvent` made, the same bytes as `append(WireEvent(event), to:)`.
    public static func append(_ event: GeofenceEvent, to out: inout [UInt8]) { appendRecord(event, to: &out) }

    /// Appends the wire event as one CSV record, without a line end, to UTF-8 bytes (one copy of its bytes,
    /// made first in memory of their own: `EventFormatting.append(atMost:to:_:)`).
    public static func append(_ event: WireEvent, to out: inout [UInt8]) { appendRecord(event, to: &out) }

    /// Writes the event as one CSV record, without a line end, with `cursor`, which has room for
    /// `EventFormatting.bound(of: event)` bytes (for a sink that writes in its output's own memory,
    /// `OutputFile.write(atMost:_:)`).
    public static func put(_ event: GeofenceEvent, to cursor: inout ByteCursor) { put(record: event, to: &cursor) }

    /// `append(_:to:)` for either kind of event (specialized for each in this module).
    private static func appendRecord(_ event: some WireRecord, to out: inout [UInt8]) {
        EventFormatting.append(atMost: EventFormatting.bound(of: event), to: &out) { put(record: event, to: &$0) }
    }

    /// The record's fields, written by `out`.
    private static func put(record event: some WireRecord, to out: inout ByteCursor) {
        let comma = UInt8(ascii: ",")
        func time(_ t: Timestamp?) {
            out.put(comma)
            if let t { out.put(time: t) }
        }
        func number(_ x: Double?) {
            out.put(comma)
            if let x { out.put(number: x, otherwise: "") }
        }
        out.put(time: event.time)
        out.put(comma)
        out.put(csvField: event.device)
        out.put(comma)
        out.put(csvField: event.region)
        out.put(comma)
        out.put(event.kind.name)
        number(event.coordinate.latitude)
        number(event.coordinate.longitude)
        number(event.distance)
        time(event.crossedAt)
        time(event.arrival)
        time(event.departure)
        number(event.duration?.seconds)
        out.put(comma)
        if let rule = event.rule { out.put(csvField: rule) }
        time(event.writtenDetectedAt)
    }
}
