import Foundation
import Geodesy
import Geofencing
import Runs
import Testing

@testable import Calibration

/// Issue 41 item 4: calibrate draws each run's samples once and replays them for every candidate when no
/// fitted parameter moves a sample (`Calibration.samplesAlike`), with the same result as drawing them.
@Suite("Calibrate's candidates share their runs' samples")
struct SharedSamplesTests {
    /// A base with noise, outliers and a stationary slow-down, so that every parameter that can move a
    /// sample has something to move.
    static let simulation = Simulation(
        regions: [], profile: .iosGPS,
        overrides: MonitorOverrides {
            $0.outliers = .some(
                Outliers(every: .seconds(3600), duration: .seconds(60), median: 500, p90: 2000, accuracyScale: 1))
            $0.stationary = .some(Stationary(after: .seconds(60), within: 20, interval: .seconds(120)))
        },
        devices: [], noise: Noise(sigma: 6, seed: 1, correlation: .seconds(30)))

    struct Case: CustomTestStringConvertible, Sendable {
        var fit: [String]
        var alike: Bool
        var testDescription: String { fit.joined(separator: ",") + (alike ? ": alike" : ": not alike") }
    }

    static let cases: [Case] = [
        Case(fit: ["hysteresis", "enterBuffer", "missEnter", "missExit"], alike: true),  // README's example fit
        Case(fit: ["enterConfidence", "confirmation", "interval", "delivery.median", "delivery.p90"], alike: true),
        Case(fit: ["hysteresis", "noise.sigma"], alike: false),  // the noise moves every sample
        Case(fit: ["outliers.every"], alike: false),  // the episodes move samples
        Case(fit: ["stationary.interval"], alike: true),  // which samples are observed, not where they are
        Case(fit: [], alike: true),
    ]

    @Test("the samples are alike unless a fitted parameter moves them", arguments: cases)
    func alike(_ c: Case) throws {
        let parameters = c.fit.compactMap(CalibrationParameter.named)
        #expect(parameters.count == c.fit.count, "every name is a parameter")
        #expect(Calibration.samplesAlike(Self.simulation, under: parameters) == c.alike)
    }

    @Test("a fit that replays its samples gives the bytes of one that draws them, on 1 and 2 threads")
    func replayedFitIsTheDrawnFit() throws {
        let study = try FieldStudy(walks: 4, fences: 3, profile: "ios-gps") {
            $0.hysteresis = 70; $0.missExit = 0.1
        }
        func fit(sampleMemory: Int, threads: Int) throws -> String {
            var options = Calibration.Options()
            options.runs = 4
            options.seed = 1000
            options.threads = threads
            options.replicates = 30
            options.sampleMemory = sampleMemory
            let run = try ScenarioRun(loading: study.scenario)
            let calibration = try Calibration(
                run: run, log: try ObservedLog.read([study.log]), base: run.simulation.profile,
                parameters: ["hysteresis", "missExit"].compactMap(CalibrationParameter.named), options: options)
            #expect((calibration.run.simulation.replaysSamples) == (sampleMemory > 0))
            return calibration.fit().json
        }
        let drawn = try fit(sampleMemory: 0, threads: 1)
        #expect(try fit(sampleMemory: 64 << 20, threads: 1) == drawn)
        #expect(try fit(sampleMemory: 64 << 20, threads: 2) == drawn)
        #expect(try fit(sampleMemory: 10_000, threads: 2) == drawn, "a budget that holds only some streams")
    }
}
