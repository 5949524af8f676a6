import ReadableText
import Testing

/// The progress line's words (`Readable.progress`, `Readable.rate`), computed by hand: the process tests
/// cannot time a run to show them, since a fast machine finishes before the line's first half second.
@Suite("Readable progress and rates")
struct ReadableProgressTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var done: String, samples: Int, seconds: Double, fraction: Double?
        var expected: String
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        // 1,400,000 samples in 1 s; 31 % done in 1 s leaves 69/31 s = 2.23 s, rounded to 2 s.
        Case(
            id: "share known", done: "312 of 1,000 devices", samples: 1_400_000, seconds: 1, fraction: 0.31,
            expected: "312 of 1,000 devices · 1.4 M samples/s · 31 % · about 2 s left"),
        // 25 % in 40 s leaves 120 s.
        Case(
            id: "minutes left", done: "5 of 20 runs", samples: 500_000, seconds: 40, fraction: 0.25,
            expected: "5 of 20 runs · 12.5 k samples/s · 25 % · about 2 min left"),
        // 10 % in 3,600 s leaves 32,400 s = 9 h.
        Case(
            id: "hours left", done: "1 of 10 runs", samples: 36_000, seconds: 3_600, fraction: 0.1,
            expected: "1 of 10 runs · 10 samples/s · 10 % · about 9 h left"),
        Case(
            id: "share unknown (a pipe)", done: "96 devices", samples: 850, seconds: 1, fraction: nil,
            expected: "96 devices · 850 samples/s"),
        Case(
            id: "a share of zero says nothing of the time left", done: "0 devices", samples: 0, seconds: 0.6, fraction: 0,
            expected: "0 devices · 0 samples/s"),
        Case(
            id: "a share past the whole is not shown", done: "3 devices", samples: 9_999, seconds: 1, fraction: 1.2,
            expected: "3 devices · 9,999 samples/s"),
        Case(
            id: "all done", done: "4 of 4 devices", samples: 2_000_000, seconds: 2, fraction: 1,
            expected: "4 of 4 devices · 1.0 M samples/s · 100 % · about 0 s left"),
        // No time has passed: the rate is taken over a millisecond, not divided by zero.
        Case(
            id: "no time yet", done: "1 device", samples: 5, seconds: 0, fraction: nil,
            expected: "1 device · 5,000 samples/s"),
    ]

    @Test("each case reads as written", arguments: cases)
    func reads(_ c: Case) {
        #expect(Readable.progress(c.done, samples: c.samples, seconds: c.seconds, fraction: c.fraction) == c.expected)
    }

    @Test(
        "rates: grouped below 10 k, then k and M with one decimal",
        arguments: [
            (0.0, "0"), (849.6, "850"), (9_999.0, "9,999"), (10_000.0, "10.0 k"), (12_540.0, "12.5 k"),
            (999_949.0, "999.9 k"), (1_000_000.0, "1.0 M"), (1_449_000.0, "1.4 M"),
        ])
    func rate(_ perSecond: Double, _ expected: String) {
        #expect(Readable.rate(perSecond) == expected)
    }
}
