import Calibration
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import TestSupport
import Testing

@Suite("Calibration: determinism, profile files, too few crossings")
struct CalibrationTests {
    /// The same seed gives byte-identical JSON on 1 and 2 threads.
    @Test func sameSeedSameJSONOnAnyThreads() throws {
        let study = try FieldStudy(walks: 6, fences: 3, profile: "ios-gps") { $0.hysteresis = 70 }
        let one = try study.calibrate(["hysteresis"], runs: 4, threads: 1, replicates: 30).1.json
        let two = try study.calibrate(["hysteresis"], runs: 4, threads: 2, replicates: 30).1.json
        #expect(one == two)
        let other = try study.calibrate(["hysteresis"], runs: 4, seed: 2000, threads: 2, replicates: 30).1.json
        #expect(other.contains("\"seed\":2000"))
    }

    /// The profile file reads back (as `run --profile FILE` reads it) with the fitted values.
    @Test func theProfileFileReadsBack() throws {
        let study = try FieldStudy(walks: 10, fences: 3, profile: "ios-gps") {
            $0.hysteresis = 80; $0.missExit = 0.1
        }
        let (_, result) = try study.calibrate(["hysteresis", "missExit", "delivery.median"], runs: 4, replicates: 30)
        let path = study.folder.appendingPathComponent("fitted.profile.yaml").path
        try result.profileFile(name: "fitted", base: "ios-gps").write(toFile: path, atomically: true, encoding: .utf8)
        let profile = try ProfileFile.resolve(path)
        #expect(profile.name == "fitted" && profile.bases == ["ios-gps"])
        let values = Dictionary(uniqueKeysWithValues: result.parameters.map { ($0.parameter.name, $0.value) })
        #expect(profile.settings.hysteresis == values["hysteresis"])
        #expect(profile.settings.missExit == values["missExit"])
        #expect(profile.settings.delivery?.median.seconds == values["delivery.median"])
        #expect(profile.settings == result.profile.settings)
        // Each fitted value's interval is written as data too (issue 42), and `profile show` prints it.
        func written(_ x: Double) -> Double { (x * 1e9).rounded() / 1e9 }  // as the file writes numbers
        let intervals = result.parameters.map { ($0.parameter.name, written($0.low)...written($0.high)) }
        #expect(profile.intervals == Dictionary(uniqueKeysWithValues: intervals))
    }

    /// Too few crossings names the parameter, how many it had and needs.
    @Test func tooFewCrossingsNamesTheParameter() throws {
        let study = try FieldStudy(walks: 2, fences: 2, profile: "ios-gps") { _ in }
        do {
            _ = try study.calibrate(["missExit"], runs: 2, replicates: 10, holdout: 0)
            Issue.record("calibrated from 2 exits")
        } catch let failure as CalibrationFailure {
            #expect(
                failure.description.contains("too few crossings to fit missExit: the log has 4 true exit crossings"),
                "\(failure)")
            #expect(failure.description.contains("needs at least 5"))
        }
    }

    /// The pairing of a log with the true crossings: a log that is the truth itself is every crossing
    /// reported at delay 0, and nothing spurious.
    @Test func theTruthPairsWithItself() throws {
        let study = try FieldStudy(walks: 4, fences: 2, profile: "ideal") { _ in }
        let run = try ScenarioRun(loading: study.scenario)
        var exact = run
        exact.simulation.noise = nil
        let truth = TrueCrossings(run.simulation)
        #expect(truth.crossings.count == 16)  // 4 walks × 2 stores × (enter, exit)
        let events = exact.events(threads: 1).events.filter { $0.kind == .enter || $0.kind == .exit }
        #expect(events.map(\.time).sorted() == truth.crossings.map(\.time).sorted())
    }
}
