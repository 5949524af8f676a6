import Geofencing
import NumberText
import TextEscaping
import Time

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
    /// (`null` in JSON, nothing in CSV). O(1) (`ByteCursor.put(number:otherwise:)`).
    @inlinable
    public static func append(number value: Double, otherwise: StaticString = "null", to out: inout [UInt8]) {
        append(atMost: fieldBound, to: &out) { $0.put(number: value, otherwise: otherwise) }
    }

    /// Writes `value` as `Double.description` does when it is a decimal of at most six fraction digits
    /// (as a fix's coordinates are) with a magnitude from 0.0001 to 10⁹, and returns the bytes written (at
    /// most 17); else writes nothing and returns 0. Such a decimal D is found as round(|value| · 10⁶) / 10⁶
    /// and taken only when it reads back as `value` (an integer over 10⁶ divides with one correct rounding,
    /// as reading D does). It is then the shortest text that does: any shorter one would also have at most
    /// six fraction digits, and two of those are 10⁻⁶ apart, more than the width of the values that read
    /// back as `value` (under 10⁻⁶ below 10⁹). Between 0.0001 and 2⁵³ `description` writes no exponent.
    /// O(digits), no division of floating-point numbers but the check.
    @inlinable
    public static func writeShortDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        guard magnitude >= 0.0001, magnitude < 1e9 else { return 0 }
        // Any integer that passes the check below is D's (two candidates cannot both read back), so how
        // it is rounded is free: adding and taking away 2⁵² rounds a value under 2⁵² to an integer in two
        // additions (`rounded()` is a call to the C library's `rint` or `round` on this target).
        let scaled = (magnitude * 1e6 + 0x1p52) - 0x1p52
        guard scaled / 1e6 == magnitude else { return 0 }
        // D's integer part, then its six fraction digits, then the fraction's trailing zeros taken back
        // (one fraction digit is always written): no division but by constants, no loop over digits.
        let digits = UInt64(scaled)
        let integer = digits / 1_000_000
        let fraction = UInt32(truncatingIfNeeded: digits &- integer &* 1_000_000)
        let integerDigits = DecimalDigits.count(of: integer)
        var count = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            count = 1
        }
        DecimalDigits.write(integer, count: integerDigits, to: out + count)
        count &+= integerDigits
        out[count] = UInt8(ascii: ".")
        DecimalDigits.write(UInt64(fraction), count: 6, to: out + count + 1)
        count &+= 7
        while out[count - 1] == UInt8(ascii: "0") && out[count - 2] != UInt8(ascii: ".") { count &-= 1 }
        return count
    }

    /// Appends `Timestamp.iso8601`: 24 bytes written in place for years 0000–9999
    /// (`ByteCursor.put(time:)`).
    @inlinable
    public static func append(time: Timestamp, to out: inout [UInt8]) {
        append(atMost: fieldBound, to: &out) { $0.put(time: time) }
    }

    /// Whether `text` is quoted as a CSV field: it holds a byte `csvQuotes`. O(bytes).
    @inlinable
    public static func csvNeedsQuotes(_ text: String) -> Bool {
        // Through the bytes where they lie (a native string's always are; any other is made native).
        var text = text
        return text.withUTF8(csvNeedsQuotes)
    }

    /// Whether a field of UTF-8 `bytes` is quoted (as `csvNeedsQuotes(_:)` of a string): it holds a byte
    /// `csvQuotes`. O(n), a shift and a test a byte.
    @inlinable
    public static func csvNeedsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where csvQuotes(byte) { return true }
        return false
    }

    /// Whether a byte makes a CSV field quoted: RFC 4180's comma, quote, CR and LF, and what a POSIX
    /// shell reading the file would act on (issue 49 H4): tab, space and ``!"#$&'()*;<>?[\]^`{|}~``.
    /// Quoting is always allowed by RFC 4180, and every CSV reader (Perimeter's `CSVRecords.forEachRecord`,
    /// Python's, a spreadsheet's) reads the field back the same; in a shell the quoted field is one word
    /// (though `$` and a backquote still expand inside double quotes: a scenario's sinks never write a
    /// script's name, `Runs.ScenarioSinkPolicy`). A bit a byte below 128, in two words.
    @inlinable @inline(__always)
    public static func csvQuotes(_ byte: UInt8) -> Bool {
        let bits: UInt64 = byte < 64 ? 0xD800_17DF_0000_2600 : 0x7800_0001_7800_0000
        return byte < 128 && (bits >> UInt64(byte & 63)) & 1 != 0
    }

    /// Appends a CSV field per RFC 4180: quoted when it holds a byte `csvQuotes`; quotes doubled.
    public static func append(csvField text: String, to out: inout [UInt8]) {
        guard csvNeedsQuotes(text) else {
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
