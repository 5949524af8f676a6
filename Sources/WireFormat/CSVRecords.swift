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
        func time(_ t: Timestamp?) -> String { t.map(EventFormatting.time) ?? "" }
        func number(_ x: Double) -> String { EventFormatting.number(x) ?? "" }
        let fields = [
            time(event.time), EventFormatting.csvField(event.device), EventFormatting.csvField(event.region),
            event.kind.description, number(event.lat), number(event.lon), number(event.distance),
            time(event.crossedAt), time(event.arrival), time(event.departure),
            event.duration.flatMap(EventFormatting.seconds) ?? "",
            event.rule.map(EventFormatting.csvField) ?? "",
        ]
        return fields.joined(separator: ",")
    }
}
