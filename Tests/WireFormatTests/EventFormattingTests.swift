import Draws
import Testing
import Time
import WireFormat

/// Numbers and times written into bytes in place are exactly the `String` forms SEMANTICS §7 names.
@Suite struct EventFormattingTests {
    struct Number: CustomTestStringConvertible, Sendable {
        let value: Double
        var testDescription: String { value.description }
    }

    @Test(
        arguments: [
            0.0, -0.0, 1.0, -3.0, 0.25, 1e-05, 1.5e+20, 0.1 + 0.2, 37.703026, -121.759735, -1234567.891, 259.9985,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            1e16, 1e15, 123456789012345680.0, 0x1p-1074, 2.2250738585072014e-308, .pi, -.ulpOfOne,
        ].map(Number.init))
    func numbersAreTheirDescription(number: Number) {
        var bytes: [UInt8] = [0x5B]
        EventFormatting.append(number: number.value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + number.value.description)
        #expect(EventFormatting.number(number.value) == number.value.description)
    }

    /// Random doubles of every magnitude (uniform bit patterns) and distances in metres (uniform below
    /// 20,000 km, at full precision): the bytes written in place are `description`'s. Prints the seed.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomNumbersAreTheirDescription(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        for i in 0..<20_000 {
            let value = i % 2 == 0 ? Double(bitPattern: random.next()) : Double.random(in: -2e7..<2e7, using: &random)
            guard value.isFinite else { continue }
            bytes.removeAll(keepingCapacity: true)
            EventFormatting.append(number: value, to: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            guard written == value.description else {
                Issue.record("seed \(seed), value \(i): \(written), not \(value.description)")
                return
            }
        }
    }

    @Test func numbersThatAreNotFiniteHaveNoForm() {
        for value in [Double.nan, .infinity, -.infinity, -.nan, .signalingNaN] {
            #expect(EventFormatting.number(value) == nil)
            var json: [UInt8] = [], csv: [UInt8] = []
            EventFormatting.append(number: value, to: &json)
            EventFormatting.append(number: value, otherwise: "", to: &csv)
            #expect(json == Array("null".utf8) && csv.isEmpty)
        }
    }

    @Test(arguments: [
        "1970-01-01T00:00:00.000Z", "2016-01-10T12:03:05.001Z", "0000-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z",
    ])
    func timesAreTheirISO8601(text: String) throws {
        let time = try #require(Timestamp(iso8601: text))
        var bytes: [UInt8] = [0x7B]
        EventFormatting.append(time: time, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "{" + time.iso8601 && time.iso8601 == text)
    }
}
