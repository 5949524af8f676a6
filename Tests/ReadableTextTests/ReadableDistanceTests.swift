import ReadableText
import Testing

/// Distances for people (`Readable.distance`), computed by hand, from a few centimetres to no number at
/// all. Issue 49 H8: a radius of 1e22 m trapped in its `Int64` conversion (SIGILL), and with it
/// `validate`, `run` and `check`; no double may trap.
@Suite("Readable distances")
struct ReadableDistanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var metres: Double
        var expected: String
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "centimetres", metres: 0.05, expected: "0.05 m"),
        Case(id: "negative", metres: -3.456, expected: "-3.46 m"),
        Case(id: "metres, rounded", metres: 349.6, expected: "350 m"),
        Case(id: "metres, grouped", metres: 9_999.4, expected: "9,999 m"),
        Case(id: "tens of km to a tenth", metres: 12_449, expected: "12.4 km"),
        Case(id: "whole tens of km", metres: 20_000, expected: "20 km"),
        Case(id: "thousands of km, grouped", metres: 7_491_600, expected: "7,492 km"),
        // Half the Earth's circumference, π × 6,371,008.8 m = 20,015,114.4 m.
        Case(id: "the farthest two points", metres: .pi * 6_371_008.8, expected: "20,015 km"),
        // 1e17 m = 1e14 km, exact and below 1e15 km: still grouped.
        Case(id: "1e17 m", metres: 1e17, expected: "100,000,000,000,000 km"),
        // 1e22 m = 1e19 km, past Int64.max (9.2e18): the exponent form.
        Case(id: "1e22 m", metres: 1e22, expected: "1e+19 km"),
        Case(id: "1e300 m", metres: 1e300, expected: "1e+297 km"),
        Case(id: "the greatest double", metres: .greatestFiniteMagnitude, expected: "1.7976931348623156e+305 km"),
        Case(id: "infinity", metres: .infinity, expected: "inf m"),
        Case(id: "minus infinity", metres: -.infinity, expected: "-inf m"),
        Case(id: "not a number", metres: .nan, expected: "nan m"),
    ]

    @Test("a distance for people, and no trap on any double", arguments: cases)
    func distance(_ c: Case) {
        #expect(Readable.distance(c.metres) == c.expected)
    }
}
