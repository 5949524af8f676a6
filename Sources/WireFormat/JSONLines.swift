import Geodesy
import Geofencing
import TextEscaping

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
        var line: [UInt8] = []
        line.reserveCapacity(256)
        append(event, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends the event as one JSON object, without a line end, to UTF-8 bytes (no other allocation).
    @inlinable
    public static func append(_ event: GeofenceEvent, to out: inout [UInt8]) { append(WireEvent(event), to: &out) }

    /// Appends the wire event as one JSON object, without a line end, to UTF-8 bytes.
    public static func append(_ event: WireEvent, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        appendMembers(of: event, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the event's fields as JSON members (`"key":value,...`, no braces), in wire order, leaving
    /// out `lat`/`lon` when `includePosition` is false (GeoJSON puts them in the geometry).
    public static func appendMembers(of event: WireEvent, includePosition: Bool = true, to out: inout [UInt8]) {
        typealias F = EventFormatting
        func time(_ key: StaticString, _ value: Timestamp) {
            F.append(key, to: &out)
            out.append(0x22)
            F.append(time: value, to: &out)
            out.append(0x22)
        }
        time("\"time\":", event.time)
        F.append(",\"device\":", to: &out)
        JSONEscaping.append(event.device, to: &out)
        F.append(",\"region\":", to: &out)
        JSONEscaping.append(event.region, to: &out)
        F.append(",\"kind\":\"", to: &out)
        out.append(contentsOf: event.kind.description.utf8)
        if includePosition {
            F.append("\",\"lat\":", to: &out)
            F.append(number: event.lat, to: &out)
            F.append(",\"lon\":", to: &out)
            F.append(number: event.lon, to: &out)
            F.append(",\"distance\":", to: &out)
        } else {
            F.append("\",\"distance\":", to: &out)
        }
        F.append(number: event.distance, to: &out)
        switch event.kind {
        case .enter, .exit:
            if let crossedAt = event.crossedAt { time(",\"crossedAt\":", crossedAt) }
        case .visit:
            if let arrival = event.arrival { time(",\"arrival\":", arrival) }
            if let departure = event.departure { time(",\"departure\":", departure) }
            if let duration = event.duration {
                F.append(",\"duration\":", to: &out)
                F.append(number: duration.seconds, to: &out)
            }
        case .dwell:
            if let rule = event.rule {
                F.append(",\"rule\":", to: &out)
                JSONEscaping.append(rule, to: &out)
            }
            if let duration = event.duration {
                F.append(",\"duration\":", to: &out)
                F.append(number: duration.seconds, to: &out)
            }
        case .monitorStart, .monitorStop, .monitorFailed:
            break
        }
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
