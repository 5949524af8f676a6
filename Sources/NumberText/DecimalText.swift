/// Numbers read from their decimal text, without going through a `String`: coordinates as the
/// correctly rounded `Double` (Clinger's fast path for up to 15 digits, else the C library), and times
/// in seconds exactly, to the microsecond (never through a binary double). O(length of the text); no
/// allocation on the fast path. Fix tables' numbers, and the JSON reader's for region files.
public enum DecimalText {
    /// The decimal number `text` (`-12.5`, `1e-3`, `.5`, `+3`), or nil when it is not one; never `NaN`,
    /// `inf` or hexadecimal.
    /// Inlined where it is called (a fix table's every coordinate), the general path out of line.
    @inlinable @inline(__always)
    public static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = plainDouble(text) { return value }
        return generalDouble(text)
    }

    /// `double` past its common case: Clinger's fast path, else the C library.
    @usableFromInline
    static func generalDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let shape = Shape(text) else { return nil }
        if shape.significantDigits <= 15, abs(shape.exponent10) <= 22 {
            var value = Double(shape.significand)
            if shape.exponent10 < 0 {
                value /= exactPowerOfTen(-shape.exponent10)
            } else {
                value *= exactPowerOfTen(shape.exponent10)
            }
            return shape.negative ? -value : value
        }
        // Many digits or a large exponent: the C library rounds it correctly.
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// The common case of `double` in one pass: `-`, then at most 15 digits with at most one point among
    /// or around them (`59.926980`, `-0.5`, `12.`). The same value as Clinger's fast path below: the digits
    /// as an integer (exact below 10¹⁵) divided by a power of ten (exact up to 10²²), correctly rounded.
    /// Nil for anything else, which the general path reads. The digits before the point and after it are
    /// read in two tight loops, their counts taken from where each loop stops.
    @inlinable @inline(__always)
    static func plainDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = text.count
        guard count > 0, count <= 17 else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        let integerStart = i
        var digits: UInt64 = 0
        while i < count {
            let digit = text[i] &- 48
            guard digit < 10 else { break }
            digits = digits &* 10 &+ UInt64(digit)
            i += 1
        }
        let integerDigits = i - integerStart
        var fractionDigits = 0
        if i < count {
            guard text[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            let fractionStart = i
            fractionDigits = count - fractionStart
            if fractionDigits <= 8, count >= 8 {
                // A coordinate's usual 1 to 8 decimals: the text's last eight bytes, read at once.
                guard let fraction = eightDigits(lastEightOf: text, keeping: fractionDigits) else { return nil }
                digits = digits &* DecimalDigits.power(fractionDigits) &+ fraction
            } else {
                while i < count {
                    let digit = text[i] &- 48
                    guard digit < 10 else { return nil }
                    digits = digits &* 10 &+ UInt64(digit)
                    i += 1
                }
            }
        }
        let digitCount = integerDigits + fractionDigits
        guard digitCount > 0, digitCount <= 15 else { return nil }
        var value = Double(Int64(truncatingIfNeeded: digits))  // below 10¹⁵: one signed conversion
        if fractionDigits > 0 { value /= exactPowerOfTen(fractionDigits) }
        return negative ? -value : value
    }

    /// `text` as a number of seconds (or of a unit with `unitDigits` decimal digits to a microsecond: 3
    /// for milliseconds, 0 for microseconds), in microseconds, rounded toward the past (`-1.0000005` s is
    /// -1,000,001 µs), or nil when it is not a number or its microseconds do not fit in 64 bits.
    public static func microseconds(_ text: UnsafeBufferPointer<UInt8>, unitDigits: Int = 6) -> Int64? {
        guard let shape = Shape(text) else { return nil }
        // value = D × 10^exponent10 units, where D is every digit in order; in µs: D × 10^(exponent10 + unitDigits).
        let shift = shape.exponent10 + unitDigits
        let kept = shape.allDigits + min(shift, 0)  // the digits that stand left of the microsecond point
        var whole: Int64 = 0
        var droppedNonZero = false
        var overflow = false
        var index = 0
        shape.forEachDigit(in: text, significantOnly: false) { digit in
            defer { index += 1 }
            guard index < kept else {
                if digit != 0 { droppedNonZero = true }
                return
            }
            let (times, o1) = whole.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(digit))
            overflow = overflow || o1 || o2
            whole = plus
        }
        if shift > 0 {
            guard shift <= 18 else { return whole == 0 ? 0 : nil }
            for _ in 0..<shift {
                let (times, o) = whole.multipliedReportingOverflow(by: 10)
                overflow = overflow || o
                whole = times
            }
        }
        if overflow { return nil }
        if shape.negative {
            whole = -whole
            if droppedNonZero { whole -= 1 }  // toward the past
        }
        return whole
    }

    /// The last `keeping` (1 to 8) bytes of `text` (at least 8 bytes long) as a decimal integer, or nil
    /// when one of them is not a digit: the eight bytes as one word, those before the last `keeping` made
    /// `0`, every byte checked with no branch a byte, then the digits combined in pairs, fours and eights
    /// (three multiplications). O(1).
    @inlinable @inline(__always)
    static func eightDigits(lastEightOf text: UnsafeBufferPointer<UInt8>, keeping: Int) -> UInt64? {
        // C interop: the text is at least eight bytes long, so it has an address.
        // swift-format-ignore: NeverForceUnwrap
        let raw = UnsafeRawPointer(text.baseAddress! + (text.count - 8))
        let word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))  // byte 0: the first of the eight
        let zeros: UInt64 = 0x3030_3030_3030_3030
        let kept: UInt64 = ~0 << UInt64(64 - 8 * keeping)  // the last `keeping` bytes, high in the word
        let value = (word & kept) | (zeros & ~kept)
        // A byte is a digit when byte − '0' is 0…9: neither it nor it + 118 has its top bit set (a byte
        // below '0' borrows and sets its own top bit; one above '9' reaches 128 with 118 added).
        let lanes = value &- zeros
        guard (lanes | (lanes &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 == 0 else { return nil }
        var v = (lanes &* 10) &+ (lanes >> 8)  // each even byte: two digits
        v =
            ((v & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 << 32)))
            &+ (((v >> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 << 32)))
        return v >> 32
    }

    /// 10ⁿ for n in 0...22, the powers of ten a double holds exactly (a table in the binary, where an array
    /// would be a global read through its lazy initialiser at every number).
    @inlinable @inline(__always)
    static func exactPowerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: preconditionFailure("10^\(n) is not exact in a double")
        }
    }

    /// Where a decimal number's parts are in its text: the sign, the digits (with or without the
    /// point), and the power of ten of the last digit.
    private struct Shape {
        var negative = false
        /// The range of the digits and the point, in the text.
        var mantissa: Range<Int> = 0..<0
        /// Digits in `mantissa`, and those after the leading zeros.
        var allDigits = 0
        var significantDigits = 0
        /// The significant digits as an integer (exact while there are at most 19 of them).
        var significand: UInt64 = 0
        /// The power of ten of the last digit of `mantissa`.
        var exponent10 = 0

        init?(_ text: UnsafeBufferPointer<UInt8>) {
            var i = 0
            let n = text.count
            if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                negative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            let start = i
            var fractionDigits = 0
            var inFraction = false
            var seenNonZero = false
            while i < n {
                let b = text[i]
                if b >= 48 && b <= 57 {
                    allDigits += 1
                    if b != 48 { seenNonZero = true }
                    if seenNonZero {
                        significantDigits += 1
                        significand = significand &* 10 &+ UInt64(b &- 48)
                    }
                    if inFraction { fractionDigits += 1 }
                } else if b == UInt8(ascii: ".") && !inFraction {
                    inFraction = true
                } else {
                    break
                }
                i += 1
            }
            guard allDigits > 0 else { return nil }
            mantissa = start..<i
            var exponent = 0
            if i < n, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
                i += 1
                var negativeExponent = false
                if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                    negativeExponent = text[i] == UInt8(ascii: "-")
                    i += 1
                }
                var sawExponentDigit = false
                while i < n, text[i] >= 48, text[i] <= 57 {
                    sawExponentDigit = true
                    if exponent < 100_000 { exponent = exponent * 10 + Int(text[i] - 48) }
                    i += 1
                }
                guard sawExponentDigit else { return nil }
                if negativeExponent { exponent = -exponent }
            }
            guard i == n else { return nil }
            exponent10 = exponent - fractionDigits
        }

        /// Calls `body` with each digit's value, in order: all of them, or only those from the first
        /// non-zero one.
        func forEachDigit(in text: UnsafeBufferPointer<UInt8>, significantOnly: Bool = true, _ body: (UInt8) -> Void) {
            var seenNonZero = !significantOnly
            for i in mantissa where text[i] != UInt8(ascii: ".") {
                let digit = text[i] &- 48
                if digit != 0 { seenNonZero = true }
                if seenNonZero { body(digit) }
            }
        }
    }
}
