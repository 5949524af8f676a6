import Geofencing
import TextEscaping
import Time

/// A line of an event log that is not an event: `line 3: "crossedAt" is missing (an enter event has it)`.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line in the log, when known.
    public var line: Int?
    public var reason: String
    /// The 1-based column (byte) in the line, when known.
    public var column: Int?

    public init(line: Int? = nil, reason: String, column: Int? = nil) {
        self.line = line
        self.reason = reason
        self.column = column
    }

    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}

/// A JSON value of a flat object.
public enum FlatJSONValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case null
    case bool(Bool)
}

extension WireEvent {
    /// The event whose fields are `members` (key and value, as a JSON Lines line holds them): every key of
    /// the event's kind present, and no other; `lat`, `lon`, `distance` may be `null` (read as NaN). The
    /// one check of an event read back, whatever its format (JSON Lines, CSV, SQLite's rows). O(members).
    public init(members: [(String, FlatJSONValue)]) throws(WireFormatError) {
        var values: [String: FlatJSONValue] = [:]
        for (key, value) in members {
            guard values.updateValue(value, forKey: key) == nil else {
                throw WireFormatError(reason: "the key \"\(key)\" appears twice")
            }
        }
        func string(_ key: String) throws(WireFormatError) -> String {
            guard let value = values[key] else { throw WireFormatError(reason: "\"\(key)\" is missing") }
            guard case let .string(text) = value else {
                throw WireFormatError(reason: "\"\(key)\" must be a string")
            }
            return text
        }
        func time(_ key: String) throws(WireFormatError) -> Timestamp {
            let text = try string(key)
            guard let time = Timestamp(iso8601: text) else {
                throw WireFormatError(reason: "\"\(key)\" is not an ISO 8601 time: \(TerminalText.excerpt(text))")
            }
            return time
        }
        func number(_ key: String) throws(WireFormatError) -> Double {
            switch values[key] {
            case let .number(value)?: return value
            case .null?: return .nan
            case nil: throw WireFormatError(reason: "\"\(key)\" is missing")
            default: throw WireFormatError(reason: "\"\(key)\" must be a number")
            }
        }
        let kindName = try string("kind")
        guard let kind = GeofenceEvent.Kind(name: kindName) else {
            let names = GeofenceEvent.Kind.allCases.map(\.description).joined(separator: ", ")
            throw WireFormatError(reason: "\"kind\" is \(TerminalText.excerpt(kindName)), not one of \(names)")
        }
        let allowed = Set(WireField.keys(of: kind).map(\.name))
        if let unknown = members.map(\.0).first(where: { !allowed.contains($0) }) {
            throw WireFormatError(reason: "\"\(unknown)\" does not belong in a \(kind) event")
        }
        func extra<T>(_ key: String, _ read: (String) throws(WireFormatError) -> T) throws(WireFormatError) -> T {
            guard values[key] != nil else {
                throw WireFormatError(reason: "\"\(key)\" is missing (a \(kind) event has it)")
            }
            return try read(key)
        }
        func duration(_ key: String) throws(WireFormatError) -> TimeSpan {
            let seconds = try number(key)
            guard let span = TimeSpan(seconds: seconds) else {
                throw WireFormatError(reason: "\"\(key)\" is not a duration in seconds")
            }
            return span
        }
        var crossedAt: Timestamp?, arrival: Timestamp?, departure: Timestamp?
        var span: TimeSpan?, rule: String?
        switch kind {
        case .enter, .exit:
            crossedAt = try extra("crossedAt", time)
        case .visit:
            arrival = try extra("arrival", time)
            departure = try extra("departure", time)
            span = try extra("duration", duration)
        case .dwell:
            rule = try extra("rule", string)
            span = try extra("duration", duration)
        case .monitorStart, .monitorStop, .monitorFailed:
            break
        }
        let detectedAt = values["detectedAt"] == nil ? nil : try time("detectedAt")
        self.init(
            time: try time("time"), device: try string("device"), region: try string("region"), kind: kind,
            lat: try number("lat"), lon: try number("lon"), distance: try number("distance"),
            crossedAt: crossedAt, arrival: arrival, departure: departure, duration: span, rule: rule,
            detectedAt: detectedAt)
    }
}
