import Testing
import Time

@testable import Geofencing

/// Issue 40: when a miss draw keeps a decided crossing from the app, the run says so (`RunSummary.drawnMisses`,
/// shown by `run` and a failing `check`), naming the crossing and the probability drawn against.
struct DrawnMissTests {
    /// The walk of `revision3Cases`: 1 m/s east from x = 0.5 through a circle spanning [400, 600].
    static func walk(missEnter: Double, missExit: Double) -> Simulation {
        Simulation(
            regions: [Walk.circle("r", at: 500, radius: 100)],
            overrides: MonitorOverrides {
                $0.missEnter = missEnter; $0.missExit = missExit
            },
            devices: [Device(id: "d", track: .timed([Walk.leg(0.5, at: 0, to: 1000.5, at: 1000)]))])
    }

    /// Inside from t = 400 s (x = 400.5), outside from t = 600 s (x = 600.5): the samples that decide them.
    @Test(
        "a drawn miss is named with its crossing and probability; none when nothing is drawn",
        arguments: [
            (1.0, 0.0, ["enter of r by d at 2024-01-01T00:06:40.000Z not reported: drawn as missed, missEnter 1.0"]),
            (0.0, 1.0, ["exit of r by d at 2024-01-01T00:10:00.000Z not reported: drawn as missed, missExit 1.0"]),
            (0.0, 0.0, []),
        ])
    func named(missEnter: Double, missExit: Double, expected: [String]) throws {
        let summary = try Self.walk(missEnter: missEnter, missExit: missExit).run(into: EventLog())
        #expect(summary.drawnMisses.map { $0.sentence() } == expected)
        #expect(summary.missNotes(seed: 7) == expected.map { "note: \($0), seed 7" })
    }

    /// Seven walks' enters all drawn as missed: five are named, the other two counted in one more note, so
    /// that a run of many regions does not print a line per miss.
    @Test("drawn misses past five are counted, not listed")
    func bounded() throws {
        var summary = RunSummary()
        summary.drawnMisses = (1...7).map {
            DrawnMiss(enter: true, region: "r\($0)", device: "d", time: Timestamp(microsecondsSince1970: 0), probability: 1)
        }
        let notes = summary.missNotes(seed: 3, showing: { _ in "T" })
        #expect(notes.count == 6)
        #expect(notes[4] == "note: enter of r5 by d at T not reported: drawn as missed, missEnter 1.0, seed 3")
        #expect(notes[5] == "note: 2 more crossings drawn as missed, not reported")
    }
}
