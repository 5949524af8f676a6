/// The shortest decimal that reads back as a double, written into bytes in place: the event formats'
/// distances (`ByteCursor`), their 16 or 17 digits without `Double.description`.
public enum ShortestDecimal {
    /// Writes `value` as `Double.description` does when its magnitude is from 0.0001 to 2⁵³ (where
    /// `description` writes no exponent), and returns the bytes written (at most 24); else, or in a case
    /// it leaves to `description` (below), writes nothing and returns 0. For a distance's 16 or 17 digits,
    /// which `EventFormatting.writeShortDecimal` leaves, in two thirds of `description`'s instructions (391 against 587).
    ///
    /// `description` writes the shortest decimal that reads back as `value`, and of those the nearest to
    /// it. With `value` = m · 2ᵉ, the decimals that read back are those strictly inside (m ± ½) · 2ᵉ, or
    /// on an end when m is even (reading rounds half to even); below, where m is a power of two, the
    /// next smaller double is half as far. Scaled by 10ᵏ to 17 or 18 digits, these ends and the value are
    /// exact in 128 bits (at most 2⁵⁵ · 10²¹ < 2¹²⁸), and the integers between the ends are the candidates
    /// of that many digits (at least one: the interval is over one unit wide). The shortest is the
    /// multiple of the largest power of ten that has one between the ends; the nearest of its two
    /// multiples around the value is written, of two equally near the one whose last digit is even (as
    /// `description` does). A candidate on an end of the interval is left to `description`. O(digits),
    /// no division but by constants.
    @inlinable
    public static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        guard magnitude >= 0.0001, magnitude < 0x1p53 else { return 0 }
        let binaryExponent = Int(magnitude.exponentBitPattern) &- 1023  // -14 ... 52 (a normal number)
        let m = magnitude.significandBitPattern | 1 << 52
        // 10ᵏ puts the value at 10¹⁶ to 10¹⁸: ⌊binaryExponent · log10 2⌋ is the decimal exponent or one less.
        let k = 16 &- (binaryExponent &* 78_913) >> 18
        let scale = powerOfTen128(k)
        let shift = UInt128(truncatingIfNeeded: 54 &- binaryExponent)  // value = 4m / 2^shift, shift ≤ 68
        let lowerGap: UInt64 = m == 1 << 52 ? 1 : 2  // in quarters of m's unit
        let exactValue = UInt128(m &<< 2) &* scale
        let upperEnd = UInt128(m &<< 2 &+ 2) &* scale, lowerEnd = UInt128(m &<< 2 &- lowerGap) &* scale
        let below = (UInt128(1) &<< shift) &- 1
        // The integers between the ends, ends excluded unless m is even.
        let inclusive = m & 1 == 0
        var low = UInt64(truncatingIfNeeded: lowerEnd &>> shift)
        if lowerEnd & below != 0 || !inclusive { low &+= 1 }
        var high = UInt64(truncatingIfNeeded: upperEnd &>> shift)
        if upperEnd & below == 0 && !inclusive { high &-= 1 }
        var near = UInt64(truncatingIfNeeded: exactValue &>> shift)
        guard low <= high else { return 0 }
        // Drop the last digit while a multiple of ten is left between the ends (⌈low / 10ʲ⌉ ≤ ⌊high / 10ʲ⌋,
        // each from the one before); `near` is ⌊value / 10ʲ⌋ in the same units.
        var dropped = 0
        while true {
            let nextHigh = high / 10, nextLow = (low &+ 9) / 10
            guard nextHigh >= nextLow else { break }
            (high, low, near) = (nextHigh, nextLow, near / 10)
            dropped &+= 1
        }
        // The multiples just below and above the exact value; the nearest one between the ends.
        let unit = DecimalDigits.power(dropped)
        let digits: UInt64
        if near < low {
            digits = near &+ 1
        } else if near &+ 1 > high {
            digits = near
        } else {
            let fromFloor = exactValue &- UInt128(near &* unit) &<< shift
            let toCeiling = UInt128((near &+ 1) &* unit) &<< shift &- exactValue
            if fromFloor != toCeiling {
                digits = fromFloor < toCeiling ? near : near &+ 1
            } else {
                digits = near & 1 == 0 ? near : near &+ 1  // a tie: the even last digit
            }
        }
        // On an end, the reading's rounding decides: left to `description`.
        let candidate = digits &* unit
        if UInt128(candidate) &<< shift == lowerEnd || UInt128(candidate) &<< shift == upperEnd { return 0 }
        // The value is digits · 10^(dropped - k); the candidate has 17 or 18 digits (19 when the value
        // rounded up to 10¹⁸), the last `dropped` of them zeros.
        let digitCount =
            17 &+ (candidate >= 100_000_000_000_000_000 ? 1 : 0)
            &+ (candidate >= 1_000_000_000_000_000_000 ? 1 : 0) &- dropped
        let integerDigits = digitCount &+ dropped &- k  // before the decimal point; may be 0 or less
        var count = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            count = 1
        }
        if integerDigits <= 0 {
            // 0.000ddd
            out[count] = UInt8(ascii: "0")
            out[count + 1] = UInt8(ascii: ".")
            count += 2
            for _ in 0 ..< -integerDigits {
                out[count] = UInt8(ascii: "0")
                count += 1
            }
            DecimalDigits.write(digits, count: digitCount, to: out + count)
            return count + digitCount
        }
        if integerDigits >= digitCount {
            // ddd000.0
            DecimalDigits.write(digits, count: digitCount, to: out + count)
            count += digitCount
            for _ in 0..<integerDigits - digitCount {
                out[count] = UInt8(ascii: "0")
                count += 1
            }
            out[count] = UInt8(ascii: ".")
            out[count + 1] = UInt8(ascii: "0")
            return count + 2
        }
        // ddd.ddd
        return count + DecimalDigits.write(digits, count: digitCount, pointAfter: integerDigits, to: out + count)
    }

    /// 10ⁿ for n from 0 to 38. O(1).
    @inlinable
    static func powerOfTen128(_ n: Int) -> UInt128 {
        n <= 19 ? UInt128(DecimalDigits.power(n)) : UInt128(DecimalDigits.power(19)) * UInt128(DecimalDigits.power(n - 19))
    }
}
