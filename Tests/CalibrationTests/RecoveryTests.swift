import Calibration
import Foundation
import Geofencing
import Runs
import ScenarioFormat
import TestSupport
import Testing
import WireFormat

/// A field study made in the test: the synthetic stores and walks, and a field log made by running the
/// scenario under a hidden profile with one noise seed, written as `perimeter run --sink jsonl:` writes it.
struct FieldStudy {
    let folder: URL
    let scenario: String
    let log: String

    init(walks: Int, fences: Int, profile: String, hidden: (inout MonitorSettings) -> Void, noiseSeed: UInt64 = 7) throws {
        folder = try TemporaryFolders.make("calibration")
        var study = SyntheticFieldStudy(fences: fences, walks: walks, seed: 3)
        study.profile = profile
        scenario = try study.write(into: folder.path)
        var run = try ScenarioRun(loading: scenario)
        hidden(&run.simulation.profile.settings)
        run.simulation.noise?.seed = noiseSeed
        let events = run.events(threads: 1).events
        log = folder.appendingPathComponent("field.jsonl").path
        try events.map { JSONLines.encode($0) + "\n" }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    }

    func calibrate(
        _ names: [String], base: Profile? = nil, runs: Int = 6, seed: UInt64 = 1000, threads: Int = 2,
        replicates: Int = 100, holdout: Double = 0.25
    ) throws -> (Calibration, CalibrationResult) {
        let run = try ScenarioRun(loading: scenario)
        var options = Calibration.Options()
        options.runs = runs
        options.seed = seed
        options.threads = threads
        options.replicates = replicates
        options.holdout = holdout
        let calibration = try Calibration(
            run: run, log: try ObservedLog.read([log]), base: base ?? run.simulation.profile,
            parameters: names.compactMap(CalibrationParameter.named), options: options)
        return (calibration, calibration.fit())
    }
}

@Suite("Calibration recovers hidden parameters")
struct RecoveryTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var profile: String
        var hidden: [String: Double]
        var testDescription: String { id }
    }

    /// Each case: a base profile, hidden values of the fitted parameters; the log is made with them and
    /// noise seed 7, the fit runs with seeds from 1000: each interval must hold its hidden value.
    static let cases: [Case] = [
        Case(id: "ios hysteresis 40 m, missExit 0.2", profile: "ios-gps", hidden: ["hysteresis": 40, "missExit": 0.2]),
        Case(
            id: "ios hysteresis 90 m, delivery median 30 s and p90 120 s (measured from the lags)", profile: "ios-gps",
            hidden: ["hysteresis": 90, "delivery.median": 30, "delivery.p90": 120]),
        // revision 3's misses (0.15) hidden too: with the fitted 0.1 / 0.08 of issue 40 the 60 s check alone
        // is told from 120 s less surely (an interval of 62.5–107.5 s), a limit of 12 walks, not of the fit
        Case(
            id: "android-background interval 60 s", profile: "android-background",
            hidden: ["interval": 60, "missEnter": 0.15, "missExit": 0.15]),
        Case(id: "android-background interval 180 s", profile: "android-background", hidden: ["interval": 180]),
        Case(id: "ios missEnter 0.1", profile: "ios-gps", hidden: ["missEnter": 0.1]),
        Case(id: "ios enterBuffer 15 m", profile: "ios-gps", hidden: ["enterBuffer": 15]),
        Case(
            id: "android enterConfidence 0.7, missExit 0.2", profile: "android",
            hidden: ["enterConfidence": 0.7, "missExit": 0.2]),
        // Exits start beyond h + max(0, −e): exits alone cannot tell h 75, e −25 from h 90, e −10
        // (Calibration+ExitThreshold); the intervals must still hold the hidden pair.
        Case(
            id: "ios hysteresis 90 m with enterBuffer −10 m, both fitted", profile: "ios-gps",
            hidden: ["hysteresis": 90, "enterBuffer": -10]),
        Case(
            id: "ios hysteresis 30 m with enterBuffer −20 m, both fitted", profile: "ios-gps",
            hidden: ["hysteresis": 30, "enterBuffer": -20]),
    ]

    @Test(arguments: cases) func recovers(_ c: Case) throws {
        let names = CalibrationParameter.all.map(\.name).filter { c.hidden[$0] != nil }
        let study = try FieldStudy(walks: 12, fences: 4, profile: c.profile) { settings in
            var noise: Noise? = nil
            for name in names {
                CalibrationParameter.named(name)!.set(c.hidden[name]!, in: &settings, noise: &noise, tick: .seconds(1))
            }
        }
        let (_, result) = try study.calibrate(names)
        for fitted in result.parameters {
            let hidden = try #require(c.hidden[fitted.parameter.name])
            #expect(
                fitted.low <= hidden && hidden <= fitted.high,
                "\(fitted.parameter.name): hidden \(hidden), fitted \(fitted.value) in \(fitted.low)–\(fitted.high)")
        }
        print(result.readable)
    }
}
