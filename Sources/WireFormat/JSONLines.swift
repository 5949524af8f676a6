import Geodesy
import Geofencing

/// JSON Lines, the event log's format (SEMANTICS §7): one JSON object per event and per line (`\n`), keys
/// in wire order: `time, device, region, kind, lat, lon, distance`, then `crossedAt` (enter, exit);
/// `arrival, departure, duration` (visit); `rule, duration` (dwell). Written by the `jsonl:` sink, the run
/// journal and the HTTP sink; read back by `check` (golden logs) and `deliver` (spool files).
///
/// ```
/// {"time":"2016-01-10T12:03:10.000Z","device":"phone","region":"cafe","kind":"enter","lat":37.7,"lon":-121.7,"distance":-12.5,"crossedAt":"2016-01-10T12:03:05.000Z"}
/// ```
public enum JSONLines {
    /// The event as one JSON object, without a line end.
    public static func encode(_ event: GeofenceEvent) -> String { encode(WireEvent(event)) }

    /// The wire event as one JSON object, without a line end.
    public static func encode(_ event: WireEvent) -> String {
        var line = "{"
        line.reserveCapacity(256)
        EventFormatting.appendJSONMembers(of: event, to: &line)
        line.append("}")
        return line
    }

    /// Reads one line written by `encode` (or by hand: whitespace and any key order are accepted).
    /// Every key of the event's kind must be present, and no other; `lat`, `lon`, `distance` may be
    /// `null` (read as NaN).
    public static func decode(line: some StringProtocol) throws(WireFormatError) -> WireEvent {
        var parser = FlatJSONParser(Array(line.utf8))
        let members = try parser.object()
        return try WireEvent(members: members)
    }

    /// Reads a whole log: one event per non-blank line (LF or CRLF). Errors name the line (1-based).
    public static func decode(log text: String) throws(WireFormatError) -> [WireEvent] {
        var events: [WireEvent] = []
        var number = 0
        // Split on bytes: in Swift "\r\n" is one Character, so splitting Characters on "\n" would not.
        for var line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                events.append(try decode(line: String(decoding: line, as: UTF8.self)))
            } catch {
                throw WireFormatError(line: number, reason: error.reason)
            }
        }
        return events
    }
}
