// Engine throughput: 1,000 devices for one hour at 1 Hz against N regions, capacity 20 (the ios
// profile), for N = 100 … 100,000. Prints samples per second for each N and its ratio to N = 100,
// measured in the same run: per-sample cost should not grow with N (SEMANTICS §4 via the spatial index).
//
//   swift run -c release engine-benchmark [devices] [seconds] [threads] [N...] [--quiet-only]
// (--quiet-only: without the plain path beside, e.g. under a profiler)
import Foundation
import Geodesy
import Geofencing

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
let side: Meters = 40_000
let start = Timestamp(iso8601: "2024-05-01T09:00:00Z")!

func regions(_ n: Int) -> [Region] {
    var rng = SplitMix64(seed: 1)
    return (0..<n).map { i in
        let c = centre.offset(northMeters: .random(in: -side / 2...side / 2, using: &rng),
                              eastMeters: .random(in: -side / 2...side / 2, using: &rng))
        return Region(id: "r\(i)", shape: .circle(try! Circle(center: c, radius: .random(in: 50...300, using: &rng))))
    }
}

func devices() -> [Device] {
    var rng = SplitMix64(seed: 2)
    return (0..<deviceCount).map { d in
        var x = Double.random(in: -side / 2...side / 2, using: &rng), y = Double.random(in: -side / 2...side / 2, using: &rng)
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

let fleet = devices()
print("engine-benchmark: \(deviceCount) devices × \(seconds) s at 1 Hz, profile ios (capacity 20), \(threads) threads")
print("regions    samples/s    events   ratio to N=100 | plain path: samples/s   quiet ÷ plain speed")
var reference: Double?

/// Samples per second and events of one run.
func measure(_ simulation: Simulation, skipsQuietRegions: Bool) throws -> (Double, Int) {
    let sink = CountingSink()
    var options = RunOptions(threads: threads)
    options.skipsQuietRegions = skipsQuietRegions
    let began = DispatchTime.now()
    let summary = try simulation.run(into: sink, options: options)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
    return (Double(summary.samples) / elapsed, sink.count)
}

for n in counts {
    let simulation = Simulation(regions: regions(n), profile: .ios, devices: fleet, start: start)
    let (rate, events) = try measure(simulation, skipsQuietRegions: true)
    // The plain path evaluates every monitored region at every sample: the same events, measured beside.
    let (plainRate, plainEvents) = quietOnly ? (.nan, events) : try measure(simulation, skipsQuietRegions: false)
    precondition(events == plainEvents, "the quiet windows changed the events")
    reference = reference ?? rate
    print(String(format: "%7d  %11.0f  %8d   %.2f           | %11.0f           %.2f", n, rate, events, rate / reference!,
                 plainRate, rate / plainRate))
}
