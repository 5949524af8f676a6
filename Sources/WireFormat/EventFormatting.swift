import Geodesy
import Geofencing
import TextEscaping

/// The one place where event values become text, shared by every sink (SEMANTICS §7). Everything is
/// written into UTF-8 bytes in place (`append(…to:)`, no allocation beyond the buffer's growth); the
/// `String` forms are made from the same bytes.
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

    /// Appends `value` as `Double.description` writes it; a value that is not finite appends `otherwise`
    /// (`null` in JSON, nothing in CSV). O(1); text of up to 15 bytes needs no allocation (Swift's small
    /// strings), longer text one.
    @inlinable
    public static func append(number value: Double, otherwise: StaticString = "null", to out: inout [UInt8]) {
        guard value.isFinite else {
            append(otherwise, to: &out)
            return
        }
        out.append(contentsOf: value.description.utf8)
    }

    /// Appends `Timestamp.iso8601`: 24 bytes written in place for years 0000–9999.
    @inlinable
    public static func append(time: Timestamp, to out: inout [UInt8]) {
        guard Timestamp.writable.contains(time) else {
            out.append(contentsOf: time.iso8601.utf8)
            return
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: Timestamp.iso8601Length))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = time.write(iso8601Into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends ASCII text known at compile time (keys, punctuation).
    @inlinable
    public static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a CSV field per RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled.
    public static func append(csvField text: String, to out: inout [UInt8]) {
        var quote = false
        for byte in text.utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A {
            quote = true
            break
        }
        guard quote else {
            out.append(contentsOf: text.utf8)
            return
        }
        out.append(0x22)
        for byte in text.utf8 {
            if byte == 0x22 { out.append(0x22) }
            out.append(byte)
        }
        out.append(0x22)
    }
}

