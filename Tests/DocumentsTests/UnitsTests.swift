import Documents
import Testing

struct DurationCase: Sendable, CustomTestStringConvertible {
    let text: String
    let microseconds: Int64?
    var testDescription: String { "\"\(text)\" -> \(microseconds.map(String.init) ?? "invalid")" }
}

struct DistanceCase: Sendable, CustomTestStringConvertible {
    let text: String
    let metres: Double?
    var testDescription: String { "\"\(text)\" -> \(metres.map { "\($0) m" } ?? "invalid")" }
}

@Suite("Durations and distances")
struct UnitsTests {
    @Test(
        "Durations read exactly to the microsecond",
        arguments: [
            DurationCase(text: "20s", microseconds: 20_000_000),
            DurationCase(text: "5m", microseconds: 300_000_000),
            DurationCase(text: "5min", microseconds: 300_000_000),
            DurationCase(text: "2h", microseconds: 7_200_000_000),
            DurationCase(text: "1.5s", microseconds: 1_500_000),
            DurationCase(text: "250ms", microseconds: 250_000),
            DurationCase(text: "20", microseconds: 20_000_000),
            DurationCase(text: "0.5", microseconds: 500_000),
            DurationCase(text: "-30", microseconds: -30_000_000),
            DurationCase(text: "0.000001", microseconds: 1),
            DurationCase(text: "1.1", microseconds: 1_100_000),
            DurationCase(text: "0.1h", microseconds: 360_000_000),
            DurationCase(text: " 20 s ", microseconds: 20_000_000),
            DurationCase(text: "1e3", microseconds: 1_000_000_000),
            DurationCase(text: "0.0000001", microseconds: nil),
            DurationCase(text: "0.5ms5", microseconds: nil),
            DurationCase(text: "20x", microseconds: nil),
            DurationCase(text: "5 fortnights", microseconds: nil),
            DurationCase(text: "s", microseconds: nil),
            DurationCase(text: "", microseconds: nil),
            DurationCase(text: "1.2.3s", microseconds: nil),
            DurationCase(text: "20S", microseconds: nil),
            DurationCase(text: "99999999999999999999h", microseconds: nil),
            DurationCase(text: ".inf", microseconds: nil),
        ])
    func duration(_ c: DurationCase) {
        #expect(ScenarioUnits.duration(c.text)?.microseconds == c.microseconds)
    }

    @Test(
        "Distances in metres",
        arguments: [
            DistanceCase(text: "200m", metres: 200),
            DistanceCase(text: "1.5km", metres: 1500),
            DistanceCase(text: "300", metres: 300),
            DistanceCase(text: "0.5", metres: 0.5),
            DistanceCase(text: "-3", metres: -3),
            DistanceCase(text: "10 m", metres: 10),
            DistanceCase(text: "3mi", metres: nil),
            DistanceCase(text: "km", metres: nil),
            DistanceCase(text: ".nan", metres: nil),
            DistanceCase(text: "1e999", metres: nil),
            DistanceCase(text: "twelve", metres: nil),
        ])
    func distance(_ c: DistanceCase) {
        #expect(ScenarioUnits.distance(c.text) == c.metres)
    }
}
