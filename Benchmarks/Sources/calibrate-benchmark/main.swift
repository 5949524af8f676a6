// calibrate's speed on the case: a fit of two parameters (hysteresis, missExit) to 40 walks
// through 8 stores (Calibration.SyntheticFieldStudy), the field log made under ios with hysteresis 80 m and
// missExit 0.15 and noise seed 7, the fit with seeds from 1000. The reference, measured in the same run:
// one Monte Carlo batch of the same runs under the base profile, so that "fit ÷ batch" is about the number
// of candidates simulated (the pairing, the discrepancy and the bootstrap are what is left).
//
//   swift run -c release calibrate-benchmark [runs] [threads]
import Calibration
import Foundation
import Geofencing
import Runs
import WireFormat

let arguments = Array(CommandLine.arguments.dropFirst())
let runs = arguments.first.flatMap { Int($0) } ?? 24
let threads = arguments.dropFirst().first.flatMap { Int($0) } ?? RunOptions.defaultThreads

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-benchmark-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let scenario = try SyntheticFieldStudy(fences: 8, walks: 40, seed: 3).write(into: folder)
var hidden = try ScenarioRun(loading: scenario)
hidden.simulation.profile.settings.hysteresis = 80
hidden.simulation.profile.settings.missExit = 0.15
let log = (folder as NSString).appendingPathComponent("field.jsonl")
try hidden.events(threads: threads).events.map { JSONLines.encode($0) + "\n" }.joined().write(
    toFile: log, atomically: true, encoding: .utf8)

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let began = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
}

let run = try ScenarioRun(loading: scenario)
let batchSeconds = try seconds {
    try MonteCarlo(run, runs: runs, seed: 1000).forEachRun(threads: threads) { _, _ in }
}
var options = Calibration.Options()
options.runs = runs
options.seed = 1000
options.threads = threads
var result: CalibrationResult?
let fitSeconds = try seconds {
    let calibration = try Calibration(
        run: run, log: try ObservedLog.read([log]), base: .iosGPS,
        parameters: ["hysteresis", "missExit"].compactMap(CalibrationParameter.named), options: options)
    result = calibration.fit()
}
let samples = run.simulation.sampleCounts().reduce(0, +)
print("40 walks × 8 stores, \(samples) samples a run, \(runs) runs a candidate, \(threads) threads")
print(String(format: "one batch of %d runs: %.2f s", runs, batchSeconds))
print(
    String(
        format: "fit of 2 parameters: %.2f s (%d candidates; fit ÷ batch = %.1f)", fitSeconds, result!.evaluations,
        fitSeconds / batchSeconds))
print(result!.readable)
