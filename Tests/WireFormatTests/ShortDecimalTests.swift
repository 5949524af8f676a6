import Draws
import Testing
import WireFormat

/// What a number writer (`writeShortDecimal`) writes for `value`: "" when it leaves the
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
            let value =
                decimal
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
