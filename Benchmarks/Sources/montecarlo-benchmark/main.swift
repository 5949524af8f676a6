// Monte Carlo throughput: N runs of a scenario with noise (default: the restaurant visit,
// Scenarios/restaurant-welcome.yaml, 361 samples a run), on 1 and on 2 threads, in one process. The
// reference, measured in the same run: one simulation of the same samples in one go (the scenario's
// device copied N times, on 1 thread), so that "Monte Carlo ÷ one simulation" is what a run's start-up
// costs (world, monitors, the stream, the event log, the spread) beyond the samples themselves. Each
// figure is the best of three.
//
//   swift run -c release montecarlo-benchmark [runs] [scenario] [--once]
// (--once: the runs once on one thread, their spread made, inside `measured` for callgrind, then
// `measured: RUNS run`)
import Analysis
import BenchmarkSupport
import Foundation
import Geofencing
import Runs

let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let runs = arguments.first.flatMap { Int($0) } ?? 1000
let path = arguments.dropFirst().first ?? "../Scenarios/restaurant-welcome.yaml"
let base = try ScenarioRun(loading: path)
let batch = try MonteCarlo(base, runs: runs)
/// The spread's reference: the exact track's events under `ideal`, as `perimeter run --runs` pairs them.
let crossings: [GeofenceEvent] = {
    var exact = ScenarioRun(base.scenario, profile: .ideal)
    exact.simulation.noise = nil
    return exact.events(threads: 1).events
}()
if CommandLine.arguments.contains("--once") {
    var done = 0
    measured {
        var spread = EventSpread(reference: crossings)
        done = batch.forEachRun(threads: 1) { _, events in spread.add(run: events) }
    }
    reportMeasured(done, "run")
    exit(0)
}

/// The best of three timings of `body`, in seconds.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        let began = DispatchTime.now()
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9)
    }
    return best
}

func row(_ label: String, _ runsPerSecond: Double, _ samplesPerSecond: Double, _ ratio: Double) -> String {
    label + String(repeating: " ", count: max(1, 36 - label.count))
        + String(format: "%10.0f %12.0f %14.2f", runsPerSecond, samplesPerSecond, ratio)
}

final class CountingSink: EventSink {
    var count = 0
    func send(_ event: GeofenceEvent) throws { count += 1 }
    func finish() throws {}
}

// The reference: every run's device in one simulation.
var together = base.simulation
together.devices = (0..<runs).flatMap { r in
    base.simulation.devices.map { device in
        var copy = device
        copy.id = "\(device.id)-\(r)"
        return copy
    }
}
var samples = 0
let reference = try seconds {
    samples = try together.run(into: CountingSink(), options: RunOptions(threads: 1)).samples
}

print(
    "montecarlo-benchmark: \(runs) runs of \(base.name) (\(base.simulation.profile.name)), \(samples / runs) samples a run")
print(String(repeating: " ", count: 36) + "    runs/s    samples/s  time ÷ reference")
print(row("one simulation of all (reference)", Double(runs) / reference, Double(samples) / reference, 1.0))
var previous: Double?
for threads in [1, 2] {
    var spread = EventSpread(reference: crossings)
    let elapsed = seconds {
        batch.forEachRun(threads: threads) { _, events in spread.add(run: events) }
    }
    let label =
        "Monte Carlo, \(threads) thread\(threads == 1 ? "" : "s")"
        + (previous.map { String(format: " (%.2f× 1)", $0 / elapsed) } ?? "")
    print(row(label, Double(runs) / elapsed, Double(samples) / elapsed, elapsed / reference))
    previous = previous ?? elapsed
    precondition(spread.runs == 3 * runs)
}
