import Geodesy
import Geofencing

/// Events as CSV per RFC 4180 (the `csv:` sink): a header, then one record per event, CRLF line ends; a
/// field is quoted when it holds a comma, a quote, CR or LF (quotes doubled), and empty where the event's
/// kind has no value. Numbers and times are written as in JSON Lines (`EventFormatting`).
///
/// ```
/// time,device,region,kind,lat,lon,distance,crossedAt,arrival,departure,duration,rule
/// 2016-01-10T12:03:10.000Z,phone,cafe,enter,37.7,-121.7,-12.5,2016-01-10T12:03:05.000Z,,,,
/// ```
public enum CSVRecords {
    /// The columns, in order.
    public static let columns = ["time", "device", "region", "kind", "lat", "lon", "distance",
                                 "crossedAt", "arrival", "departure", "duration", "rule"]
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

    /// Appends the wire event as one CSV record, without a line end, to UTF-8 bytes (no other allocation).
    public static func append(_ event: WireEvent, to out: inout [UInt8]) {
        typealias F = EventFormatting
        let comma = UInt8(ascii: ",")
        func time(_ t: Timestamp?) {
            out.append(comma)
            if let t { F.append(time: t, to: &out) }
        }
        func number(_ x: Double?) {
            out.append(comma)
            if let x { F.append(number: x, otherwise: "", to: &out) }
        }
        F.append(time: event.time, to: &out)
        out.append(comma)
        F.append(csvField: event.device, to: &out)
        out.append(comma)
        F.append(csvField: event.region, to: &out)
        out.append(comma)
        out.append(contentsOf: event.kind.description.utf8)
        number(event.lat)
        number(event.lon)
        number(event.distance)
        time(event.crossedAt)
        time(event.arrival)
        time(event.departure)
        number(event.duration?.seconds)
        out.append(comma)
        if let rule = event.rule { F.append(csvField: rule, to: &out) }
    }
}
