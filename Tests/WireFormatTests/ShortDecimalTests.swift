import Geodesy
import Testing
import WireFormat

/// What a number writer (`writeShortDecimal`, `writeShortest`) writes for `value`: "" when it leaves the
/// value to `description`.
func written(by writer: (Double, UnsafeMutablePointer<UInt8>) -> Int, _ value: Double) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { memory in
        let count = writer(value, memory.baseAddress!)
        return String(decoding: UnsafeBufferPointer(rebasing: memory[..<count]), as: UTF8.self)
    }
}

/// A decimal of at most six fraction digits is written from its digits, without `Double.description`, and
/// must come out exactly as `description` writes it; anything else is left to `description`.
@Suite struct ShortDecimalTests {
    /// What `writeShortDecimal` writes for `value`.
    static func shortDecimal(_ value: Double) -> String { written(by: EventFormatting.writeShortDecimal, value) }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let value: Double
        /// Whether the digits are written here, not by `description`.
        let short: Bool
        var testDescription: String { id }
    }

    @Test(arguments: [
        Case(id: "a fix's latitude", value: 59.92698, short: true),
        Case(id: "a fix's longitude, negative", value: -121.759735, short: true),
        Case(id: "a whole number keeps its .0", value: 60, short: true),
        Case(id: "a half", value: 0.5, short: true),
        Case(id: "the smallest magnitude taken", value: 0.0001, short: true),
        Case(id: "leading zeros in the fraction", value: -0.000123, short: true),
        Case(id: "just under 10^9", value: 999_999_999.999999, short: true),
        Case(id: "10^9 itself is left", value: 1e9, short: false),
        Case(id: "under 0.0001 is left (an exponent)", value: 0.00005, short: false),
        Case(id: "seven fraction digits are left", value: 59.9269801, short: false),
        Case(id: "0.1 + 0.2 is left (17 digits)", value: 0.1 + 0.2, short: false),
        Case(id: "zero is left", value: 0, short: false),
        Case(id: "negative zero is left", value: -0.0, short: false),
        Case(id: "a distance of 17 digits is left", value: -12.345678901234567, short: false),
    ])
    func table(_ c: Case) {
        let written = Self.shortDecimal(c.value)
        #expect(!written.isEmpty == c.short)
        if c.short { #expect(written == c.value.description) }
    }

    /// Seeded: decimals of 0 to 8 fraction digits at every scale, and raw doubles; whatever is written
    /// here equals `description`, and every decimal of at most six fraction digits in range is written here.
    @Test func agreesWithDescription() {
        let seed: UInt64 = 0x5EED_D1C1
        var random = SplitMix64(seed: seed)
        var written = 0
        for _ in 0..<200_000 {
            let fractionDigits = Int.random(in: 0...8, using: &random)
            let limit = Int64(pow10(Int.random(in: 1...15, using: &random))) - 1  // exact as a Double
            let mantissa = Double(Int64.random(in: -limit...limit, using: &random))
            let decimal = Bool.random(using: &random)
            let value = decimal
                ? mantissa / Double(pow10(fractionDigits))  // the Double nearest the decimal
                : Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
            guard value.isFinite else { continue }
            let short = Self.shortDecimal(value)
            if !short.isEmpty {
                written += 1
                #expect(short == value.description, "seed \(seed): \(value)")
            }
            if decimal, fractionDigits <= 6, value.magnitude >= 0.0001, value.magnitude < 1e9 {
                #expect(!short.isEmpty, "seed \(seed): \(value) (\(fractionDigits) fraction digits) was left to description")
            }
        }
        #expect(written > 50_000, "the generator makes short decimals (seed \(seed))")
    }

    private func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { acc, _ in acc * 10 } }
}

/// A number of more digits (a distance's 16 or 17) is written by `writeShortest` without `description`,
/// and must come out exactly as `description` writes it; what it leaves to `description` must be rare.
@Suite struct ShortestTests {
    /// What `writeShortest` writes for `value`.
    static func shortest(_ value: Double) -> String { written(by: EventFormatting.writeShortest, value) }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let value: Double
        let text: String?
        var testDescription: String { id }
    }

    /// Texts by hand (and as `description` writes them); nil: left to `description`.
    @Test(arguments: [
        Case(id: "17 digits", value: -12.345678901234567, text: "-12.345678901234567"),
        Case(id: "0.1 + 0.2", value: 0.1 + 0.2, text: "0.30000000000000004"),
        Case(id: "a short decimal too", value: 59.92698, text: "59.92698"),
        Case(id: "an integer keeps its .0", value: 1e15, text: "1000000000000000.0"),
        Case(id: "the smallest magnitude written", value: 0.0001, text: "0.0001"),
        Case(id: "zeros after the point", value: 0.00012345678901234, text: "0.00012345678901234"),
        Case(id: "just under 2^53", value: 0x1p53 - 1, text: "9007199254740991.0"),
        Case(id: "a power of two (the gap below is half)", value: 0x1p-10, text: "0.0009765625"),
        Case(id: "2^53 has an exponent: left", value: 0x1p53, text: nil),
        Case(id: "under 0.0001 has an exponent: left", value: 0.00009999, text: nil),
        Case(id: "zero: left", value: 0, text: nil),
        Case(id: "infinity: left", value: .infinity, text: nil),
    ])
    func table(_ c: Case) {
        let written = Self.shortest(c.value)
        #expect(written == (c.text ?? ""))
        if c.text != nil { #expect(written == c.value.description) }
    }

    /// Seeded: raw doubles in range, distances, decimals of 7 to 17 digits, integers and powers of two
    /// with their neighbours; whatever is written equals `description`, and under 0.1 % is left to it.
    @Test func agreesWithDescription() {
        let seed: UInt64 = 0x5407_7E57
        var random = SplitMix64(seed: seed)
        var left = 0, total = 0, failures = 0
        for round in 0..<400_000 {
            var value: Double
            switch round % 5 {
            case 0: value = Double(bitPattern: .random(in: 0x3F1A_36E2_EB1C_432D...0x433F_FFFF_FFFF_FFFF, using: &random))
            case 1: value = .random(in: -100_000...100_000, using: &random)
            case 2:
                let digits = Int.random(in: 7...17, using: &random)
                let mantissa = Double(Int64.random(in: 1...Int64(tenTo(min(digits, 15))) - 1, using: &random))
                value = mantissa / tenTo(.random(in: 0...digits + 3, using: &random))
            case 3: value = Double(Int64.random(in: 1...(1 << 53) - 1, using: &random))
            default:
                let power = Double(sign: .plus, exponent: .random(in: -13...52, using: &random), significand: 1)
                value = [power, power.nextUp, power.nextDown].randomElement(using: &random)!
            }
            if Bool.random(using: &random) { value.negate() }
            guard value.magnitude >= 0.0001, value.magnitude < 0x1p53 else { continue }
            total += 1
            let written = Self.shortest(value)
            if written.isEmpty {
                left += 1
            } else if written != value.description {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed): \(value.description) was written \(written)") }
            }
        }
        #expect(failures == 0, "seed \(seed)")
        #expect(left * 1_000 < total, "seed \(seed): \(left) of \(total) left to description")
    }

    /// 10ⁿ, exact for n up to 22.
    private func tenTo(_ n: Int) -> Double { (0..<n).reduce(1.0) { power, _ in power * 10 } }
}
