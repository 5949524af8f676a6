/// Decimal digits written into bytes in place, two at a time from a table of the hundred pairs `00`–`99`:
/// the one digit writer of the times (`Timestamp.write(iso8601Into:)`), of the event formats' numbers
/// (`EventFormatting.writeShortDecimal`, `ShortestDecimal.write`) and of run numbers (`ByteCursor.put(integer:)`).
/// No allocation, no division but by constants.
public enum DecimalDigits {
    /// The two ASCII digits of `value` (0–99) at `out`. O(1).
    @inlinable @inline(__always)
    public static func writePair(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) {
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let pair = pairs.utf8Start + 2 * Int(value)
        out[0] = pair[0]
        out[1] = pair[1]
    }

    /// Writes the last `count` decimal digits of `value` (zeros in front when it has fewer) at `out`,
    /// eight at a time from the last (in 32-bit arithmetic), then two at a time. O(count).
    @inlinable @inline(__always)
    public static func write(_ value: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        var value = value
        var end = count
        while end >= 8 {
            // Eight digits in 32 bits: four pairs.
            let chunk = UInt32(truncatingIfNeeded: value % 100_000_000)
            value /= 100_000_000
            let high = chunk / 10_000, low = chunk - high * 10_000
            let a = high / 100, c = low / 100
            writePair(a, to: out + end - 8)
            writePair(high - a * 100, to: out + end - 6)
            writePair(c, to: out + end - 4)
            writePair(low - c * 100, to: out + end - 2)
            end -= 8
        }
        var rest = UInt32(truncatingIfNeeded: value < 100_000_000 ? value : value % 100_000_000)
        while end >= 2 {
            let next = rest / 100
            writePair(rest - next * 100, to: out + end - 2)
            rest = next
            end -= 2
        }
        if end == 1 { out[0] = 48 &+ UInt8(truncatingIfNeeded: rest % 10) }
    }

    /// Writes the last `count` digits of `value` (as `write(_:count:to:)`) with a decimal point after the
    /// first `integerDigits` of them (0 < integerDigits < count), and returns the bytes written, count + 1:
    /// the digits are written one place on, then the few before the point moved back over it. O(count).
    @inlinable
    public static func write(
        _ value: UInt64, count: Int, pointAfter integerDigits: Int,
        to out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        write(value, count: count, to: out + 1)
        for place in 0..<integerDigits { out[place] = out[place + 1] }
        out[integerDigits] = UInt8(ascii: ".")
        return count + 1
    }

    /// How many decimal digits `value` has (1 for 0, at most 20). O(digits).
    @inlinable @inline(__always)
    public static func count(of value: UInt64) -> Int {
        var digits = 1
        var next: UInt64 = 10
        while digits < 20 && value >= next {
            digits &+= 1
            next &*= 10
        }
        return digits
    }

    /// 10ⁿ for n from 0 to 19 (a table). O(1).
    @inlinable @inline(__always)
    public static func power(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }
}
