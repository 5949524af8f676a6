import Testing
import Time

@testable import GPX

/// The reader's fast paths must agree exactly with the slow, obviously right ones.
@Suite("Fast paths")
struct FastPathTests {
    @Test("ISO8601Cache gives what Timestamp(iso8601:) gives, text after text")
    func timeCacheAgrees() {
        var texts: [String] = []
        var generator = SystemRandomNumberGenerator()
        let zones = ["Z", "z", "", "+01:00", "-05:30", "+0200", "+01", ",5Z", " ", "Zx"]
        let fractions = ["", ".5", ".123", ".1234567", ".", ".9999999", "5"]
        for _ in 0..<5000 {
            let minute = Int.random(in: 0...2, using: &generator)
            let second = [0, 1, 9, 30, 59, 60, 61][Int.random(in: 0...6, using: &generator)]
            let zone = zones[Int.random(in: 0..<(Bool.random(using: &generator) ? 2 : zones.count), using: &generator)]
            let fraction = fractions.randomElement(using: &generator)!
            let s = second < 10 ? "0\(second)" : "\(second)"
            texts.append("2024-02-29T23:0\(minute):\(s)\(fraction)\(zone)")
        }
        texts += ["1901-12-13T20:45:52.2073437Z", "2024-01-01T00:00:00Z", "2024-01-01T00:00:0aZ", "2024-01-01T00:00:00Z "]
        var cache = ISO8601Cache()
        for text in texts {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { cache.time($0) }
            #expect(fast == Timestamp(iso8601: text), "\(text)")
        }
    }

    @Test("decimals are parsed exactly as strtod parses them")
    func decimalsAgree() {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "+1.5", "00.000091697", "180", "-180.0000000000", "5.", ".5", "1e3", "1E-2", "nan", "inf", "NaN",
            "Infinity", "-inf", "1e999",
            "12345678901234567890", "0.1234567890123456789", "1.", "-.5", "", " ", "+", "-", "1.2.3", "1e", "0x10", "1,5",
        ]
        for _ in 0..<5000 {
            let digits = Int.random(in: 1...20, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &generator)
            for i in 0..<digits {
                if i == point { text += "." }
                text += String(Int.random(in: 0...9, using: &generator))
            }
            texts.append(text)
        }
        for text in texts {
            var bytes = Array(text.utf8)
            bytes.append(0)
            let parsed = bytes.withUnsafeBufferPointer { parseDecimal(UnsafeBufferPointer(rebasing: $0.dropLast())) }
            // Not a decimal number (xsd:decimal): hex, NaN, inf; the rest as strtod (Double(_:)) reads it.
            let isDecimal = !text.contains { !"0123456789+-.eE ".contains($0) }
            let expected: Double? = text.isEmpty || !isDecimal || text.trimmingSpaces.isEmpty ? nil : Double(text)
            #expect(parsed?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.isEmpty ? "" : Substring(self)
    }
}
