import Geofencing
import TextEscaping
import Time

/// JSON Lines, the event log's format (SEMANTICS §7): one JSON object per event and per line (`\n`), keys
/// in wire order: `time, device, region, kind, lat, lon, distance`, then `crossedAt` (enter, exit);
/// `arrival, departure, duration` (visit); `rule, duration` (dwell); last `detectedAt` for an event delivered
/// late (SEMANTICS §7, revision 3): `WireField`'s order, held to it by `WireSchemaTests`. Written by the `jsonl:` sink, the run
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

    /// Appends the event as one JSON object, without a line end, to UTF-8 bytes: its fields read in place
    /// (`WireRecord`), no `WireEvent` made, the same bytes as `append(WireEvent(event), to:)`.
    public static func append(_ event: GeofenceEvent, to out: inout [UInt8]) { appendObject(event, to: &out) }

    /// Appends the wire event as one JSON object, without a line end, to UTF-8 bytes (one copy of its
    /// bytes, made first in memory of their own: `EventFormatting.append(atMost:to:_:)`).
    public static func append(_ event: WireEvent, to out: inout [UInt8]) { appendObject(event, to: &out) }

    /// `append(_:to:)` for either kind of event (specialized for each in this module).
    private static func appendObject(_ event: some WireRecord, to out: inout [UInt8]) {
        EventFormatting.append(atMost: EventFormatting.bound(of: event), to: &out) { put(object: event, to: &$0) }
    }

    /// Writes the event as one JSON object, without a line end, with `cursor`, which has room for
    /// `EventFormatting.bound(of: event)` bytes (for a writer that writes in its output's own memory,
    /// `OutputFile.write(atMost:_:)`).
    public static func put(_ event: GeofenceEvent, to cursor: inout ByteCursor) { put(object: event, to: &cursor) }

    /// The object, written by `out`.
    private static func put(object event: some WireRecord, to out: inout ByteCursor) {
        out.put(UInt8(ascii: "{"))
        put(fieldsOf: event, includePosition: true, to: &out)
        out.put(UInt8(ascii: "}"))
    }

    /// Writes the event's members (`"key":value,...`, no braces, in wire order; without `lat`/`lon` when
    /// `includePosition` is false) with `cursor`, which has room for `EventFormatting.bound(of: event)`
    /// bytes: for a sink that writes in its output's own memory (`OutputFile.write(atMost:_:)`) and adds
    /// members of its own.
    public static func put(membersOf event: GeofenceEvent, includePosition: Bool = true, to cursor: inout ByteCursor) {
        put(fieldsOf: event, includePosition: includePosition, to: &cursor)
    }

    /// The members, written by `out`.
    private static func put(fieldsOf event: some WireRecord, includePosition: Bool, to out: inout ByteCursor) {
        func time(_ key: StaticString, _ value: Timestamp) {
            out.put(key)
            out.put(0x22)
            out.put(time: value)
            out.put(0x22)
        }
        time("\"time\":", event.time)
        out.put(",\"device\":")
        out.put(jsonString: event.device)
        out.put(",\"region\":")
        out.put(jsonString: event.region)
        out.put(",\"kind\":\"")
        out.put(event.kind.name)
        if includePosition {
            out.put("\",\"lat\":")
            out.put(number: event.coordinate.latitude)
            out.put(",\"lon\":")
            out.put(number: event.coordinate.longitude)
            out.put(",\"distance\":")
        } else {
            out.put("\",\"distance\":")
        }
        out.put(number: event.distance)
        switch event.kind {
        case .enter, .exit:
            if let crossedAt = event.crossedAt { time(",\"crossedAt\":", crossedAt) }
        case .visit:
            if let arrival = event.arrival { time(",\"arrival\":", arrival) }
            if let departure = event.departure { time(",\"departure\":", departure) }
            if let duration = event.duration {
                out.put(",\"duration\":")
                out.put(number: duration.seconds)
            }
        case .dwell:
            if let rule = event.rule {
                out.put(",\"rule\":")
                out.put(jsonString: rule)
            }
            if let duration = event.duration {
                out.put(",\"duration\":")
                out.put(number: duration.seconds)
            }
        case .monitorStart, .monitorStop, .monitorFailed:
            break
        }
        if let detectedAt = event.writtenDetectedAt { time(",\"detectedAt\":", detectedAt) }
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
        try forEachLine(of: text) { line throws(WireFormatError) in events.append(try decode(line: line)) }
        return events
    }

    /// Calls `body` with each non-blank line of `text` (LF or CRLF); an error it throws is given the
    /// line's number (1-based).
    static func forEachLine(of text: String, _ body: (String) throws(WireFormatError) -> Void) throws(WireFormatError) {
        var number = 0
        // Split on bytes: in Swift "\r\n" is one Character, so splitting Characters on "\n" would not.
        for var line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                try body(String(decoding: line, as: UTF8.self))
            } catch {
                throw WireFormatError(line: number, reason: error.reason, column: error.column)
            }
        }
    }
}
