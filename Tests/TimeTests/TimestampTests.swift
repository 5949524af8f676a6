import Draws
import Testing

@testable import Time

@Suite("Timestamp ISO 8601")
struct TimestampTests {
    struct ParseCase: Sendable, CustomTestStringConvertible {
        var text: String
        /// Microseconds since 1970, or nil when the text must be rejected.
        var micros: Int64?
        var why: String
        var testDescription: String { "\"\(text)\" (\(why))" }
    }

    /// 2016-01-10T12:00:05Z, computed with Python's datetime.
    static let base: Int64 = 1_452_427_205_000_000

    static let parseCases: [ParseCase] = [
        ParseCase(text: "2016-01-10T12:00:05Z", micros: base, why: "Z"),
        ParseCase(text: "2016-01-10T12:00:05z", micros: base, why: "lower-case z"),
        ParseCase(text: "2016-01-10 12:00:05Z", micros: base, why: "space separator"),
        ParseCase(text: "2016-01-10T12:00:05", micros: base, why: "no zone = UTC"),
        ParseCase(text: "2016-01-10T12:00:05.2Z", micros: base + 200_000, why: "1 fraction digit"),
        ParseCase(text: "2016-01-10T12:00:05.25Z", micros: base + 250_000, why: "2 digits"),
        ParseCase(text: "2016-01-10T12:00:05.123Z", micros: base + 123_000, why: "3 digits"),
        ParseCase(text: "2016-01-10T12:00:05.1234Z", micros: base + 123_400, why: "4 digits"),
        ParseCase(text: "2016-01-10T12:00:05.12345Z", micros: base + 123_450, why: "5 digits"),
        ParseCase(text: "2016-01-10T12:00:05.123456Z", micros: base + 123_456, why: "6 digits"),
        ParseCase(text: "2016-01-10T12:00:05.1234567Z", micros: base + 123_456, why: "7 digits, truncated to µs"),
        ParseCase(text: "2016-01-10T12:00:05.12345678Z", micros: base + 123_456, why: "8 digits, truncated"),
        ParseCase(text: "2016-01-10T12:00:05.123456789Z", micros: base + 123_456, why: "9 digits, truncated"),
        ParseCase(text: "2016-01-10T12:00:05.999999999Z", micros: base + 999_999, why: "truncated, not rounded up"),
        ParseCase(text: "2016-01-10T12:00:05,5Z", micros: base + 500_000, why: "comma decimal sign"),
        ParseCase(text: "2016-01-10T12:00:05+02:00", micros: 1_452_420_005_000_000, why: "+02:00"),
        ParseCase(text: "2016-01-10T12:00:05+0200", micros: 1_452_420_005_000_000, why: "+0200"),
        ParseCase(text: "2016-01-10T12:00:05+02", micros: 1_452_420_005_000_000, why: "+02"),
        ParseCase(text: "2016-01-10T12:00:05-0530", micros: 1_452_447_005_000_000, why: "-0530"),
        ParseCase(text: "2016-01-10T12:00:05-05:30", micros: 1_452_447_005_000_000, why: "-05:30"),
        ParseCase(text: "2016-01-10T12:00:05.5-05:30", micros: 1_452_447_005_500_000, why: "fraction and offset"),
        ParseCase(text: "1970-01-01T00:00:00Z", micros: 0, why: "epoch"),
        ParseCase(text: "1970-01-01T01:00:00+01:00", micros: 0, why: "epoch with offset"),
        ParseCase(text: "1969-12-31T23:59:59.999Z", micros: -1_000, why: "before the epoch"),
        ParseCase(text: "0000-01-01T00:00:00Z", micros: -62_167_219_200_000_000, why: "year 0000"),
        ParseCase(text: "0000-02-29T00:00:00Z", micros: -62_162_121_600_000_000, why: "year 0000 is a leap year"),
        ParseCase(text: "0001-01-01T00:00:00Z", micros: -62_135_596_800_000_000, why: "year 0001"),
        ParseCase(text: "9999-12-31T23:59:59.999999Z", micros: 253_402_300_799_999_999, why: "year 9999, last µs"),
        ParseCase(text: "2016-02-29T00:00:00Z", micros: 1_456_704_000_000_000, why: "leap day 2016"),
        ParseCase(text: "2000-02-29T12:00:00Z", micros: 951_825_600_000_000, why: "leap day 2000 (÷400)"),
        ParseCase(text: "1900-02-29T00:00:00Z", micros: nil, why: "1900 is not a leap year (÷100)"),
        ParseCase(text: "2015-02-29T00:00:00Z", micros: nil, why: "2015 is not a leap year"),
        ParseCase(text: "2016-02-30T00:00:00Z", micros: nil, why: "February 30"),
        ParseCase(text: "2016-04-31T00:00:00Z", micros: nil, why: "April 31"),
        ParseCase(text: "2016-13-01T00:00:00Z", micros: nil, why: "month 13"),
        ParseCase(text: "2016-00-01T00:00:00Z", micros: nil, why: "month 0"),
        ParseCase(text: "2016-01-00T00:00:00Z", micros: nil, why: "day 0"),
        ParseCase(text: "2016-01-10T24:00:00Z", micros: nil, why: "hour 24"),
        ParseCase(text: "2016-01-10T12:60:00Z", micros: nil, why: "minute 60"),
        ParseCase(text: "2016-01-10T12:00:05+24:00", micros: nil, why: "offset hour 24"),
        ParseCase(text: "2016-01-10T12:00:05+02:60", micros: nil, why: "offset minute 60"),
        ParseCase(text: "2016-01-10T12:00:05+053", micros: nil, why: "offset with 3 digits"),
        ParseCase(text: "2016-01-10T12:00:05.Z", micros: nil, why: "decimal sign without digits"),
        ParseCase(text: "2016-01-10", micros: nil, why: "date only"),
        ParseCase(text: "2016-1-10T12:00:05Z", micros: nil, why: "one-digit month"),
        ParseCase(text: "2016-01-10T12:00:05Zjunk", micros: nil, why: "trailing text"),
        ParseCase(text: "", micros: nil, why: "empty"),
    ]

    @Test("Timestamp(iso8601:)", arguments: parseCases)
    func parse(_ c: ParseCase) {
        #expect(Timestamp(iso8601: c.text)?.microsecondsSince1970 == c.micros, "\(c.testDescription)")
    }

    struct FormatCase: Sendable, CustomTestStringConvertible {
        var micros: Int64
        var text: String
        var testDescription: String { "\(micros) µs → \(text)" }
    }

    static let formatCases: [FormatCase] = [
        FormatCase(micros: 0, text: "1970-01-01T00:00:00.000Z"),
        FormatCase(micros: base + 250_999, text: "2016-01-10T12:00:05.250Z"),  // ms truncated
        FormatCase(micros: 1_999, text: "1970-01-01T00:00:00.001Z"),
        FormatCase(micros: -1, text: "1969-12-31T23:59:59.999Z"),  // toward the past, not toward 0
        FormatCase(micros: -1_500, text: "1969-12-31T23:59:59.998Z"),
        FormatCase(micros: -999_999, text: "1969-12-31T23:59:59.000Z"),
        FormatCase(micros: -1_000_000, text: "1969-12-31T23:59:59.000Z"),
        FormatCase(micros: -1_000_001, text: "1969-12-31T23:59:58.999Z"),
        FormatCase(micros: -86_400_000_000 + 123_000, text: "1969-12-31T00:00:00.123Z"),
        FormatCase(micros: 1_456_704_000_000_000, text: "2016-02-29T00:00:00.000Z"),
        FormatCase(micros: -62_167_219_200_000_000, text: "0000-01-01T00:00:00.000Z"),
        FormatCase(micros: 253_402_300_799_999_999, text: "9999-12-31T23:59:59.999Z"),
    ]

    @Test(".iso8601 (milliseconds, truncated toward the past)", arguments: formatCases)
    func format(_ c: FormatCase) {
        let t = Timestamp(microsecondsSince1970: c.micros)
        #expect(t.iso8601 == c.text)
        #expect(t.description == c.text)
        // Reading the text back gives the instant truncated to the millisecond, toward the past.
        let millis = c.micros >= 0 ? c.micros / 1_000 : (c.micros - 999) / 1_000
        #expect(Timestamp(iso8601: c.text)?.microsecondsSince1970 == millis * 1_000)
    }

    /// Formatting is read back by the parser, which computes days its own way (`daysFromCivil`): every day
    /// of a whole 400-year cycle of the calendar (1900 to 2300, across 1970 where the unsigned path starts)
    /// at a random time of day, then random instants from year 0000 to 9999.
    @Test(".iso8601 reads back as the instant truncated to the millisecond (every day of 400 years, then seeded instants)")
    func formatReadsBack() {
        let seed: UInt64 = 0x150_8601
        var random = SplitMix64(seed: seed)
        let day: Int64 = 86_400_000_000
        let first = Timestamp(iso8601: "1900-01-01T00:00:00Z")!.microsecondsSince1970
        var instants = (0..<146_097).map { first + $0 * day + .random(in: 0..<day, using: &random) }
        instants += (0..<50_000).map { _ in
            .random(
                in: Timestamp.writable.lowerBound
                    .microsecondsSince1970...Timestamp.writable.upperBound.microsecondsSince1970, using: &random)
        }
        var failures = 0
        for micros in instants {
            let text = Timestamp(microsecondsSince1970: micros).iso8601
            let millis = micros >= 0 ? micros / 1_000 : (micros - 999) / 1_000
            if Timestamp(iso8601: text)?.microsecondsSince1970 != millis * 1_000 {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed): \(micros) µs was written \(text)") }
            }
        }
        #expect(failures == 0, "seed \(seed)")
    }

    /// Beyond four-digit years the text is longer and not read back (an event log holds no such time):
    /// computed with Python's integers.
    @Test(
        ".iso8601 beyond year 9999",
        arguments: [
            FormatCase(micros: 253_402_300_800_000_000, text: "10000-01-01T00:00:00.000Z"),
            FormatCase(micros: .max, text: "294247-01-10T04:00:54.775Z"),
        ])
    func formatBeyondFourDigitYears(_ c: FormatCase) {
        #expect(Timestamp(microsecondsSince1970: c.micros).iso8601 == c.text)
    }

    /// A writer that keeps the last date (`ISO8601DateMemo`) writes what `iso8601` writes, whether the
    /// next time is on the same day, the next, an earlier one, or before 1970: a seeded walk of 100,000
    /// steps from a few milliseconds to two days either way.
    @Test("times written with the last date kept are .iso8601 (a seeded walk across days, both ways)")
    func memoKeepsTheText() {
        let seed: UInt64 = 0xDA7E_5
        var random = SplitMix64(seed: seed)
        var memo = ISO8601DateMemo()
        var micros: Int64 = -86_400_000_000 * 3
        var failures = 0
        var buffer = [UInt8](repeating: 0, count: Timestamp.iso8601Length)
        for _ in 0..<100_000 {
            let step: Int64 =
                Bool.random(using: &random)
                ? .random(in: 0...5_000_000, using: &random)
                : .random(in: -172_800_000_000...172_800_000_000, using: &random)
            micros += step
            let time = Timestamp(microsecondsSince1970: micros)
            buffer.withUnsafeMutableBufferPointer { _ = time.write(iso8601Into: $0, memo: &memo) }
            if String(decoding: buffer, as: UTF8.self) != time.iso8601 {
                failures += 1
                if failures <= 5 {
                    Issue.record("seed \(seed): \(micros) µs written \(String(decoding: buffer, as: UTF8.self))")
                }
            }
        }
        #expect(failures == 0, "seed \(seed)")
    }

    /// `civilFromDays` (Neri and Schneider's) is checked against `daysFromCivil` (Hinnant's, the
    /// parser's), which computes the other way its own way: the ends of what a `Timestamp` holds, every
    /// day around 1970 and the shifted calendar's ends, then seeded days from the whole range.
    @Test("civilFromDays is a valid date that daysFromCivil reads back, over every day a Timestamp holds")
    func civilDatesReadBack() {
        let seed: UInt64 = 0xC1_7111
        var random = SplitMix64(seed: seed)
        let first = floorDiv(Int64.min / 1_000_000, 86_400) - 1, last = Int64.max / 86_400_000_000
        var days = [first, first + 1, last - 1, last] + Array(-1_000...1_000)
        days += (0..<100_000).map { _ in .random(in: first...last, using: &random) }
        var failures = 0
        for n in days {
            let (year, month, day) = civilFromDays(n)
            let valid = (1...12).contains(month) && day >= 1 && day <= Int64(daysIn(month: Int(month), year: Int(year)))
            if !valid || daysFromCivil(year: year, month: month, day: day) != n {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed): day \(n) became \(year)-\(month)-\(day)") }
            }
        }
        #expect(failures == 0, "seed \(seed)")
        #expect(civilFromDays(0) == (1970, 1, 1) && civilFromDays(-1) == (1969, 12, 31))
        #expect(civilFromDays(-719_528) == (0, 1, 1) && civilFromDays(2_932_896) == (9999, 12, 31))
    }

    @Test("time arithmetic is exact")
    func arithmetic() {
        let t = Timestamp(iso8601: "2016-01-10T12:00:05.000001Z")!
        #expect((t + .seconds(1)).iso8601 == "2016-01-10T12:00:06.000Z")
        #expect((t + .seconds(1) - t) == .seconds(1))
        #expect(TimeSpan(seconds: 0.000_000_4) == .zero)
        #expect(TimeSpan(seconds: .nan) == nil)
        #expect(TimeSpan.seconds(20).description == "20")
        #expect(TimeSpan(microseconds: 500_000).description == "0.5")
    }
}
