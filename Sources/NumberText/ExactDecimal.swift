/// A decimal number read from text exactly: `±digits[.digits][e±digits]`, as an integer and a power of ten.
public struct ExactDecimal: Hashable, Sendable {
    public var significand: Int64
    /// The value is `significand × 10^exponent`.
    public var exponent: Int

    public init?(_ text: some StringProtocol) { self.init(utf8: Array(text.utf8)) }

    /// The same from UTF-8 bytes, without a copy.
    public init?<Bytes: Collection<UInt8>>(utf8 text: Bytes) {
        var chars = text[...]
        var negative = false
        if let first = chars.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            chars = chars.dropFirst()
        }
        var significand: Int64 = 0
        var exponent = 0
        var digits = 0
        var seenPoint = false
        while let c = chars.first, (c >= 48 && c <= 57) || (c == UInt8(ascii: ".") && !seenPoint) {
            chars = chars.dropFirst()
            if c == UInt8(ascii: ".") { seenPoint = true; continue }
            digits += 1
            let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(c - 48))
            if o1 || o2 {
                // Past 18 digits, only zeros can be dropped without losing exactness.
                guard c == 48 else { return nil }
                if !seenPoint { exponent += 1 }
                continue
            }
            significand = sum
            if seenPoint { exponent -= 1 }
        }
        guard digits > 0 else { return nil }
        if let c = chars.first, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            chars = chars.dropFirst()
            var expNegative = false
            if let s = chars.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
                expNegative = s == UInt8(ascii: "-")
                chars = chars.dropFirst()
            }
            var e = 0
            var expDigits = 0
            while let d = chars.first, d >= 48, d <= 57, e < 10_000 {
                e = e * 10 + Int(d - 48)
                expDigits += 1
                chars = chars.dropFirst()
            }
            guard expDigits > 0 else { return nil }
            exponent += expNegative ? -e : e
        }
        guard chars.isEmpty else { return nil }
        self.significand = negative ? -significand : significand
        self.exponent = exponent
    }

    /// `self × factor` as an integer, or nil when it is not one (finer than a unit) or overflows.
    public func scaled(by factor: Int64) -> Int64? {
        var value = significand
        var exp = exponent
        var factor = factor
        // Cancel powers of ten between the factor and a negative exponent first, to keep values small.
        while exp < 0, factor % 10 == 0 { factor /= 10; exp += 1 }
        while exp < 0 {
            guard value % 10 == 0 else { return nil }
            value /= 10
            exp += 1
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        value = product
        while exp > 0 {
            if value == 0 { return 0 }
            let (next, o) = value.multipliedReportingOverflow(by: 10)
            guard !o else { return nil }
            value = next
            exp -= 1
        }
        return value
    }

    /// The value as an integer, when it is one.
    public var integer: Int64? { scaled(by: 1) }
}
