import Geodesy
import Geofencing

/// The one place where event values become text, shared by every sink (DESIGN "Events on the wire").
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

    /// Appends `text` as a JSON string literal, quotes included. Escapes `"`, `\`, every control
    /// character (U+0000–U+001F, U+007F) and U+2028/U+2029 (which older JavaScript rejects in strings);
    /// other characters are written as UTF-8.
    public static func appendJSONString(_ text: String, to out: inout String) {
        out.append("\"")
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            out.append(text)
            out.append("\"")
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "\u{08}": out.append("\\b")
            case "\u{0C}": out.append("\\f")
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                out.append("\\u")
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out.append(String(repeating: "0", count: 4 - hex.count))
                out.append(hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    /// `text` as a JSON string literal.
    public static func jsonString(_ text: String) -> String {
        var out = ""
        appendJSONString(text, to: &out)
        return out
    }

    /// Appends the event's fields as JSON members (`"key":value,...`, no braces), in wire order,
    /// leaving out `lat`/`lon` when `includePosition` is false (GeoJSON puts them in the geometry).
    static func appendJSONMembers(of event: WireEvent, includePosition: Bool = true, to out: inout String) {
        var first = true
        for field in event.fields where includePosition || (field.key != "lat" && field.key != "lon") {
            if !first { out.append(",") }
            first = false
            out.append("\"")
            out.append(field.key)
            out.append("\":")
            switch field.value {
            case let .text(text): appendJSONString(text, to: &out)
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
