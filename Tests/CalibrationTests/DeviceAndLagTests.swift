import Calibration
import Foundation
import Geofencing
import Runs
import Testing

/// A copy of `study`'s log keeping the events of `devices` only.
private func log(of study: FieldStudy, keeping devices: Set<String>) throws -> String {
    let lines = try String(contentsOfFile: study.log, encoding: .utf8).split(separator: "\n").filter { line in
        devices.contains { line.contains("\"device\":\"\($0)\"") }
    }
    let path = study.folder.appendingPathComponent("some-devices.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

private func calibration(
    _ study: FieldStudy, log: String? = nil, fit: [String]?, devices: [String]? = nil, holdout: Double = 0.25
) throws -> Calibration {
    let run = try ScenarioRun(loading: study.scenario)
    var options = Calibration.Options()
    options.runs = 4
    options.seed = 1000
    options.replicates = 40
    options.holdout = holdout
    return try Calibration(
        run: run, log: try ObservedLog.read([log ?? study.log]), base: run.simulation.profile,
        parameters: fit?.compactMap(CalibrationParameter.named), options: options, devices: devices)
}

@Suite("Calibration: the log's devices, the delivery from its lags, the fit's health")
struct DeviceAndLagTests {
    /// Issue 42 item 1: a log of half the walkers fitted against all of them counted the other half's
    /// exits as missed (missExit about 0.55 where the phones missed 0.1). By default the fit keeps the
    /// log's devices and says so; `devices:` naming all of them reproduces the old, wrong fit.
    @Test func theFitKeepsTheLogsDevices() throws {
        let study = try FieldStudy(walks: 12, fences: 3, profile: "ios-gps") { $0.missExit = 0.1 }
        let half = Set((1...6).map { "walker-\($0)" })
        let path = try log(of: study, keeping: half)
        let kept = try calibration(study, log: path, fit: ["missExit"])
        #expect(Set(kept.truth.crossings.map(\.device)) == half)
        #expect(
            kept.warnings.contains { $0.contains("the fit uses the 6 devices the log has events of") }, "\(kept.warnings)")
        let fitted = try #require(kept.fit().parameters.first { $0.parameter.name == "missExit" })
        #expect(fitted.value < 0.25, "\(fitted)")
        let all = (1...12).map { "walker-\($0)" }
        let wrong = try calibration(study, log: path, fit: ["missExit"], devices: all)
        #expect(wrong.warnings.contains { $0.contains("named by --devices: every crossing of them counts as missed") })
        let biased = try #require(wrong.fit().parameters.first { $0.parameter.name == "missExit" })
        #expect(biased.value > 0.4, "\(biased)")
    }

    /// A device the scenario lacks is refused with the nearest name.
    @Test func unknownDeviceIsRefused() throws {
        let study = try FieldStudy(walks: 6, fences: 2, profile: "ios-gps") { _ in }
        #expect {
            _ = try calibration(study, fit: ["missExit"], devices: ["walker-1", "waker-2"])
        } throws: { error in
            "\(error)".contains("--devices: the scenario has no device \"waker-2\"; did you mean \"walker-2\"?")
        }
    }

    /// Issue 42 item 2: with detectedAt in the log the delivery's median and p90 are the lags' own, not a
    /// median searched with the base's p90/median ratio (android's 4: p90 100 s for a median of 25 s,
    /// where the phones' p90 was 60 s).
    @Test func deliveryComesFromTheLags() throws {
        let study = try FieldStudy(walks: 16, fences: 3, profile: "android") {
            $0.delivery = Delivery(median: .seconds(25), p90: .seconds(60))
        }
        let calibration = try calibration(study, fit: nil)
        #expect(!calibration.parameters.contains { $0.name.hasPrefix("delivery.") })
        let measured = try #require(calibration.measuredDelivery)
        #expect(measured.medianInterval.contains(25) && measured.p90Interval.contains(60), "\(measured)")
        #expect(measured.lags >= 40)
        let result = calibration.fit()
        #expect(result.parameters.map(\.parameter.name).suffix(2) == ["delivery.median", "delivery.p90"])
        #expect(result.profile.settings.delivery == measured.delivery)
        #expect(result.readable.contains("are the median and 90th percentile of the log's \(measured.lags) lags"))
    }

    /// The lags' quantile rule: the first value whose share reaches the level (hand-counted).
    @Test(arguments: [
        ([1.0, 2, 3, 4], 0.5, 2.0), ([1.0, 2, 3, 4], 0.9, 4.0), ([5.0], 0.9, 5.0), ([1.0, 2, 3, 4, 5], 0.5, 3.0),
    ])
    func quantileRule(values: [Double], level: Double, expected: Double) {
        #expect(MeasuredDelivery.quantile(values, level) == expected)
    }

    /// The fit's health: a log whose exits were missed a third of the time, fitted without missExit,
    /// mispredicts the held-out exits, and the line says to add missExit.
    @Test func healthSuggestsTheMissingParameter() throws {
        let study = try FieldStudy(walks: 16, fences: 3, profile: "ios-gps") { $0.missExit = 0.35 }
        let result = try calibration(study, fit: ["hysteresis"], holdout: 0.4).fit()
        #expect(result.health.contains("the held-out exits are reported at 0.467, predicted 0.9"), "\(result.health)")
        let advice = try #require(result.health.components(separatedBy: ": add ").last)
        #expect(advice.contains("missExit") && !advice.contains("hysteresis"), "\(result.health)")
    }
}
