// Engine throughput: 1,000 devices for one hour at 1 Hz against N regions, capacity 20 (the ios
// profile), for N = 100 … 100,000. Prints samples per second for each N and its ratio to N = 100,
// measured in the same run: per-sample cost should not grow with N (SEMANTICS §4 via the spatial index).
//
//   swift run -c release engine-benchmark [devices] [seconds] [threads] [N...] [--quiet-only] [--constant-density] [--once]
// (--quiet-only: without the plain path beside, e.g. under a profiler; --constant-density: the square's side
// grows with √N, 40 km at N = 10,000, so that a device's neighbourhood looks the same at every N and only the
// world's size changes: the regions and the devices' walks both fill the larger square; --once: the first N's
// run alone, once, inside `measured` for callgrind, then `measured: SAMPLES sample`)
import BenchmarkSupport
import Draws
import Foundation
import Geodesy
import Geofencing
import Time

final class CountingSink: EventSink {
    var count = 0
    func send(_ event: GeofenceEvent) throws { count += 1 }
    func finish() throws {}
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let deviceCount = arguments.first ?? 1000
let seconds = arguments.dropFirst().first ?? 3600
let threads = arguments.dropFirst(2).first ?? ProcessInfo.processInfo.activeProcessorCount
let quietOnly = CommandLine.arguments.contains("--quiet-only")
let counts = arguments.count > 3 ? Array(arguments.dropFirst(3)) : [100, 1_000, 10_000, 100_000]
let centre = Coordinate(latitude: 52.52, longitude: 13.40)
let constantDensity = CommandLine.arguments.contains("--constant-density")
let once = CommandLine.arguments.contains("--once")
/// The square's side for N regions: 40 km, or with `--constant-density` 40 km × √(N / 10,000).
func side(_ n: Int) -> Meters { constantDensity ? 40_000 * (Double(n) / 10_000).squareRoot() : 40_000 }
let start = Timestamp(iso8601: "2024-05-01T09:00:00Z")!

func regions(_ n: Int) -> [Region] {
    var rng = SplitMix64(seed: 1)
    let side = side(n)
    return (0..<n).map { i in
        let c = centre.offset(
            northMeters: .random(in: -side / 2...side / 2, using: &rng),
            eastMeters: .random(in: -side / 2...side / 2, using: &rng))
        return Region(id: "r\(i)", shape: .circle(try! Circle(center: c, radius: .random(in: 50...300, using: &rng))))
    }
}

func devices(side: Meters) -> [Device] {
    var rng = SplitMix64(seed: 2)
    return (0..<deviceCount).map { d in
        var x = Double.random(in: -side / 2...side / 2, using: &rng),
            y = Double.random(in: -side / 2...side / 2, using: &rng)
        var fixes: [Fix] = []
        for k in stride(from: 0, through: seconds, by: 10) {
            fixes.append(Fix(centre.offset(northMeters: y, eastMeters: x), at: start + .seconds(Int64(k))))
            let speed = Double.random(in: 1...15, using: &rng), heading = Double.random(in: 0..<(2 * .pi), using: &rng)
            x = min(side / 2, max(-side / 2, x + 10 * speed * cos(heading)))
            y = min(side / 2, max(-side / 2, y + 10 * speed * sin(heading)))
        }
        return Device(id: String(format: "device-%04d", d), track: .timed([fixes]))
    }
}

print(
    "engine-benchmark: \(deviceCount) devices × \(seconds) s at 1 Hz, profile ios (capacity 20), \(threads) threads"
        + (constantDensity ? ", constant density (side 40 km × √(N / 10,000))" : ", a 40 km square"))

/// Samples per second, events and seconds of one run.
func measure(_ simulation: Simulation, skipsQuietRegions: Bool) throws -> (rate: Double, events: Int, seconds: Double) {
    let sink = CountingSink()
    var options = RunOptions(threads: threads)
    options.skipsQuietRegions = skipsQuietRegions
    let began = DispatchTime.now()
    let summary = try simulation.run(into: sink, options: options)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
    return (Double(summary.samples) / elapsed, sink.count, elapsed)
}

/// One device, two fixes a second apart: a run of it takes what a run costs before its first sample (the
/// world: shapes, rules, the spatial index), which grows with N but not with the fleet.
let tinyFleet = [Device(id: "setup", track: .timed([[Fix(centre, at: start), Fix(centre, at: start + .seconds(1))]]))]
print(
    "(without setup: the samples per second once the world is built, from a run of one device and two"
        + " fixes timed beside)")
print(
    "regions    samples/s    events   ratio to N=100 | without setup: samples/s  ratio  setup s"
        + " | plain path: samples/s   quiet ÷ plain speed")
var reference: Double?
var marginalReference: Double?
/// The same fleet at every N in the 40 km square; with `--constant-density`, a fleet walking each N's square.
let fixedFleet = constantDensity ? nil : devices(side: side(10_000))

for n in counts {
    let regions = regions(n)
    let fleet = fixedFleet ?? devices(side: side(n))
    let simulation = Simulation(regions: regions, profile: .iosGPS, devices: fleet, start: start)
    if once {
        var samples = 0
        try measured { samples = try simulation.run(into: CountingSink(), options: RunOptions(threads: threads)).samples }
        reportMeasured(samples, "sample")
        break
    }
    let run = try measure(simulation, skipsQuietRegions: true)
    // The same regions with one device: the run's cost before its first sample.
    let setup = try measure(
        Simulation(regions: regions, profile: .iosGPS, devices: tinyFleet, start: start),
        skipsQuietRegions: true
    ).seconds
    let marginal = (run.rate * run.seconds) / max(run.seconds - setup, 1e-9)
    // The plain path evaluates every monitored region at every sample: the same events, measured beside.
    let plain =
        quietOnly
        ? (rate: Double.nan, events: run.events, seconds: Double.nan)
        : try measure(simulation, skipsQuietRegions: false)
    precondition(run.events == plain.events, "the quiet windows changed the events")
    reference = reference ?? run.rate
    marginalReference = marginalReference ?? marginal
    print(
        String(
            format: "%7d  %11.0f  %8d   %.2f           | %11.0f  %.2f  %.3f | %11.0f           %.2f", n,
            run.rate, run.events, run.rate / reference!, marginal, marginal / marginalReference!, setup,
            plain.rate, run.rate / plain.rate))
}
