import Geodesy
import Geofencing
import TextEscaping

/// The one place where event values become text, shared by every sink (SEMANTICS §7).
///
/// - Times: `Timestamp.iso8601`, UTC with milliseconds truncated toward the past.
/// - Numbers (lat, lon, distance, duration in seconds): Swift's `Double.description`, the shortest text
///   that reads back to the same `Double` (`-3.0`, `0.25`, `1e-05`, `1.5e+20`), the same on every platform.
///   Every form it produces for a finite value is a valid JSON number. A value that is not finite has no
///   number form: JSON writes `null`, CSV an empty field.
public enum EventFormatting {
    /// `value` as a JSON number, or nil when it is not finite.
    @inlinable
    public static func number(_ value: Double) -> String? {
        value.isFinite ? value.description : nil
    }

    /// A time on the wire.
    @inlinable
    public static func time(_ time: Timestamp) -> String { time.iso8601 }

    /// A duration on the wire: seconds.
    @inlinable
    public static func seconds(_ span: TimeSpan) -> String? { number(span.seconds) }

    /// Appends the event's fields as JSON members (`"key":value,...`, no braces), in wire order,
    /// leaving out `lat`/`lon` when `includePosition` is false (GeoJSON puts them in the geometry).
    public static func appendJSONMembers(of event: WireEvent, includePosition: Bool = true, to out: inout String) {
        var first = true
        for field in event.fields where includePosition || (field.key != "lat" && field.key != "lon") {
            if !first { out.append(",") }
            first = false
            out.append("\"")
            out.append(field.key)
            out.append("\":")
            switch field.value {
            case let .text(text): JSONEscaping.append(text, to: &out)
            case let .time(time): out.append("\""); out.append(time.iso8601); out.append("\"")
            case let .number(value): out.append(number(value) ?? "null")
            }
        }
    }

    /// A CSV field per RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled.
    public static func csvField(_ text: String) -> String {
        var quote = false
        for byte in text.utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A {
            quote = true
            break
        }
        guard quote else { return text }
        var out = "\""
        for character in text.unicodeScalars {
            if character == "\"" { out.append("\"\"") } else { out.unicodeScalars.append(character) }
        }
        out.append("\"")
        return out
    }
}
