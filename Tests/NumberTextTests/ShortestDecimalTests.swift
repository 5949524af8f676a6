import Draws
import NumberText
import Testing

/// A number of more digits (a distance's 16 or 17) is written by `ShortestDecimal.write` without `description`,
/// and must come out exactly as `description` writes it; what it leaves to `description` must be rare.
@Suite struct ShortestTests {
    /// What `ShortestDecimal.write` writes for `value`: "" when it leaves the value to `description`.
    static func shortest(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { memory in
            let count = ShortestDecimal.write(value, to: memory.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: memory[..<count]), as: UTF8.self)
        }
    }

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
