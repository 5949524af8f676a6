import ScenarioFormat
import Testing

/// A folder of tracks from a GPS logger that writes some fixes twice (issue 42 item 8): 40 duplicate-time
/// points in 8 tracks said in one line, the one point out of range still said on its own.
@Suite struct WarningFloodTests {
    @Test func duplicateTimesAreOneLineAndTheRestStay() throws {
        let scenario = try ScenarioLoader.load(path: fixture("firsthour/logger.yaml"))
        let all = scenario.warnings(all: true)
        #expect(all.filter { $0.contains("is also the time of the point at line") }.count == 40)
        let summarised = scenario.warnings(all: false)
        #expect(summarised.count == all.count - 39)
        let summary = try #require(
            summarised.first { $0.hasPrefix("40 duplicate-time points dropped in 8 tracks; first: ") })
        #expect(summary.contains("logger/rider-1.gpx:5: <trkpt> dropped: its time 2026-03-02T09:00:10.000Z"))
        #expect(summary.hasSuffix("; --all-warnings lists every one"))
        #expect(summarised.contains { $0.contains("rider-4.gpx:29: <trkpt> dropped: lat 91.0") })
        #expect(scenario.warnings == all)
    }
}
