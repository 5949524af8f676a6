import Foundation
import TestSupport
import Testing

/// SEMANTICS §9 (revision 4) from the command line, on the coffee-customers example (Examples/coffee: 40
/// customers whose true paths are known, 17 of whom stay 10 minutes or more): the truth's coupons are the
/// true paths', the phones are measured against it, and noise over recorded tracks is refused.
@Suite struct RecordedCommandTests {
    static func kinds(_ arguments: [String]) throws -> [String: Int] {
        let result = try PerimeterProcess.run(arguments + ["--sink", "jsonl:-", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        var counts: [String: Int] = [:]
        for line in result.stdout.split(separator: "\n") {
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            counts[event?["kind"] as? String ?? "?", default: 0] += 1
        }
        return counts
    }

    @Test func theTruthOfRecordedTracksHasTheTruePathsCoupons() throws {
        let truePaths = try Self.kinds(["run", "Examples/coffee/true-paths.yaml"])
        let truth = try Self.kinds(["run", "Examples/coffee/customers.yaml", "--truth"])
        let asExact = try Self.kinds(["run", "Examples/coffee/customers.yaml", "--profile", "ideal"])
        #expect(truePaths["dwell"] == 17)
        #expect(truth["dwell"] == truePaths["dwell"])
        // Two short stays of the 25 are too short to be found under the phones' scatter (§9's T and core).
        #expect((23...25).contains(truth["enter"] ?? 0))
        // The fixes played as the exact path flicker across the door hundreds of times.
        #expect((asExact["enter"] ?? 0) > 20 * (truth["enter"] ?? 1))
    }

    @Test func iosMissesAFewOfTheTrueCrossingsNotHundreds() throws {
        let result = try PerimeterProcess.run(["compare", "Examples/coffee/customers.yaml", "--profiles", "ios", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let profile = (report?["profiles"] as? [[String: Any]])?.first
        let enter = (profile?["kinds"] as? [String: Any])?["enter"] as? [String: Any]
        let paired = enter?["paired"] as? Int ?? 0, missed = enter?["missed"] as? Int ?? -1
        #expect(paired >= 20)
        #expect(missed >= 0 && missed * 10 <= paired + missed)
    }

    @Test func noiseOverRecordedTracksIsRefusedWithExitCode2() throws {
        let result = try PerimeterProcess.run(["run", "Tests/ScenarioFormatTests/Fixtures/recorded/noise.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("noise: devices \"phone\" and 1 more are recorded (recorded: true)"))
        #expect(result.stderr.contains("onRecorded: true"))
    }

    @Test func truthGoesWithNeitherRunsNorProfile() throws {
        let result = try PerimeterProcess.run(["run", "Examples/coffee/customers.yaml", "--truth", "--profile", "ios"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--truth is one run under ideal"))
    }

    /// Issue 50 item 9: `run --truth` refuses monitor:'s phase that ideal cannot take, as `outcomes`,
    /// `compare` and `run --profile ideal` refuse it; it used to run with phase 0 and exit 0.
    @Test(arguments: [["run", "--truth"], ["run", "--profile", "ideal"], ["outcomes", "--runs", "2"], ["compare"]])
    func aPhaseIdealCannotTakeIsRefusedAlike(command: [String]) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try FileManager.default.copyItem(
            at: PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx"),
            to: folder.appendingPathComponent("track.gpx"))
        try """
        name: phase
        start: 2016-01-10T12:00:00Z
        profile: android-background
        monitor: {phase: 30s}
        regions:
          - {id: r, circle: {lat: 37.703026, lon: -121.759735, radius: 300}}
        devices:
          - {id: phone, track: track.gpx, recorded: true}

        """.write(to: folder.appendingPathComponent("phase.yaml"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(
            [command[0], "phase.yaml"] + command.dropFirst(), in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("tick: the phase 30 s is not below the observation interval"), "\(result.stderr)")
    }

    /// courier-overview's tracks were made by `track synth` with 5 m of seeded GPS error: they look recorded.
    @Test func compareWarnsAboutUnmarkedTracksThatLookRecordedAndAPlainRunDoesNot() throws {
        let scenario = "Scenarios/courier-overview.yaml"
        let compare = try PerimeterProcess.run(["compare", scenario, "--profiles", "ios"])
        #expect(compare.stderr.contains("devices \"anna\" and 1 more look recorded on a phone"))
        let run = try PerimeterProcess.run(["run", scenario, "--sink", "jsonl:-"])  // not --quiet: it says no warning
        #expect(run.status == 0 && !run.stderr.contains("looks recorded"))
        let marked = try PerimeterProcess.run(["compare", "Examples/coffee/customers.yaml", "--profiles", "ios"])
        #expect(!marked.stderr.contains("look recorded") && !marked.stderr.contains("looks recorded"))
    }

    /// Issue 50 item 6: every command that measures the phones against ideal on the tracks as exact paths
    /// warns as compare does: outcomes (whose truth is that ideal), report and run --runs.
    @Test(arguments: [
        ["outcomes", "Scenarios/courier-overview.yaml", "--profiles", "ios", "--runs", "2"],
        ["run", "Scenarios/courier-overview.yaml", "--profile", "android", "--runs", "2", "--sink", "jsonl:/dev/null"],
        ["report", "Scenarios/courier-overview.yaml", "--profiles", "ios", "-o", "REPORT"],
    ])
    func everyCommandAgainstIdealWarnsAsCompareDoes(arguments: [String]) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let result = try PerimeterProcess.run(
            arguments.map { $0 == "REPORT" ? folder.appendingPathComponent("report.html").path : $0 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("devices \"anna\" and 1 more look recorded on a phone"), "\(result.stderr)")
    }

    @Test func inspectSaysATrackLooksRecorded() throws {
        let result = try PerimeterProcess.run(["inspect", "--stays", "--json", "Examples/coffee/customers.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let devices = file?["devices"] as? [[String: Any]] ?? []
        #expect(devices.count == 40)
        let stopped = devices.filter { $0["jitter"] is Double }
        #expect(!stopped.isEmpty && stopped.allSatisfy { $0["looksRecorded"] as? Bool == true })
        let exact = try PerimeterProcess.run(["inspect", "--stays", "--json", "Examples/coffee/true-paths.csv"])
        let exactDevices =
            (try JSONSerialization.jsonObject(with: Data(exact.stdout.utf8)) as? [String: Any])?["devices"]
            as? [[String: Any]] ?? []
        #expect(exactDevices.allSatisfy { $0["looksRecorded"] as? Bool == false })
    }
}
