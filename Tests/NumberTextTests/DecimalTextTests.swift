import NumberText
import Testing

@Suite("Decimal text")
struct DecimalTextTests {
    private func double(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalText.double($0) }
    }

    @Test(
        "what is and is not a number",
        arguments: [
            ("59.9343", 59.9343 as Double?), ("-121.7767850", -121.776785), ("0", 0), ("-0.0", -0.0), ("1e-7", 1e-7),
            ("5.", 5), (".25", 0.25), ("+3", 3), ("12345678901234567890", 1.2345678901234567e19), ("1e400", .infinity),
            ("NaN", nil), ("inf", nil), ("0x10", nil), ("", nil), ("-", nil), ("1e", nil), ("1.2.3", nil), (" 1", nil),
            ("1,5", nil),
            // Around the one-pass path (a sign, at most 15 digits, one point) and past it.
            ("-.5", -0.5), (".", nil), ("-.", nil), ("123456789012345", 123_456_789_012_345),
            ("1234567890123456", 1_234_567_890_123_456),
            ("0.000000000000001", 1e-15), ("00000000000000.5", 0.5), ("+.5", 0.5), ("1.2-", nil), ("--1", nil),
            // The last eight bytes read at once (1 to 8 decimals, eight bytes or more): a stray byte in
            // any place, below '0', above '9' or not ASCII, is no digit.
            ("59.926980", 59.92698), ("-30.3197620", -30.319762), ("1234567.12345678", 1_234_567.123_456_78),
            ("-0.00000001", -1e-8), ("0.1234567", 0.1234567), ("1234567.", 1_234_567), ("12345678.9", 12_345_678.9),
            ("59.92698x", nil), ("59.9/6980", nil), ("59.92:980", nil), ("59.\u{E9}980", nil), ("5.\u{0}926980", nil),
            ("59.92698 ", nil), ("5a.926980", nil), ("59.92698.", nil), ("59..26980", nil),
            // The general path (more than 15 significant digits), read by the C library from a copy.
            ("59.900999999999996", 59.900999999999996), ("-0.10000000000000000555", -0.1),
            ("2.2250738585072014e-308", 2.2250738585072014e-308),
        ])
    func table(text: String, value: Double?) {
        #expect(double(text) == value)
    }

    /// Texts longer than the C library's copy fits on the stack (1 KiB) read the same as shorter ones.
    @Test(arguments: [20, 1_000, 5_000])
    func longTexts(digits: Int) {
        let text = "0." + String(repeating: "1", count: digits) + "9"
        #expect(double(text) == Double(text))
        #expect(double(text + "x") == nil)
    }

    /// Seeded: the fast path gives the correctly rounded double, as the C library does.
    @Test(arguments: [1, 2, 3])
    func agreesWithTheCLibrary(seed: UInt64) {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for _ in 0..<20_000 {
            let digits = Int(next() % 17) + 1
            var text = next() % 2 == 0 ? "-" : ""
            for i in 0..<digits {
                text += String(next() % 10)
                if i == Int(next() % UInt64(digits)) && !text.contains(".") { text += "." }
            }
            if next() % 4 == 0 { text += "e\(Int(next() % 40) - 20)" }
            #expect(double(text) == Double(text), "seed \(seed): \(text)")
        }
    }
}
