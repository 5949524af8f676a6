// Recorded tracks (SEMANTICS §9): what `recorded: true` costs a fleet. A fleet of drivers recorded at 1 Hz
// (default 500 × 10 min), each driving 12 m/s between depots (circles of 80 m) and stopping 3-5 minutes at
// each, with 6 m of wandering GPS error. Four runs of the same fleet, each against its reference measured in
// the same process:
//   truth ÷ exact: the truth with every driver recorded (stays, true paths, settled crossings, the events'
//     sort) ÷ the truth with none (ideal on the fixes): what compare, report and --runs pay for it;
//   phones: the fleet under ios with every driver recorded ÷ with none: what `perimeter run` pays (nothing:
//     the phones see the fixes as they are).
// Each is the best of three, on one thread.
//
//   swift run -c release recorded-benchmark [drivers] [seconds] [--once truth|exact|phones-recorded|phones-plain]
// (--once MODE: that run once inside `measured` for callgrind, then `measured: SAMPLES sample`)
import BenchmarkSupport
import Foundation
import Geodesy
import Geofencing
import Time

let arguments = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("--") }
let numbers = arguments.compactMap { Int($0) }
let drivers = numbers.first ?? 500
let seconds = numbers.dropFirst().first ?? 600
let once = CommandLine.arguments.firstIndex(of: "--once").map { CommandLine.arguments[$0 + 1] }

/// A deterministic generator (SplitMix64), so that every run measures the same fleet.
struct Draws {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func gauss() -> Double { (-2 * log(max(next(), 1e-300))).squareRoot() * cos(2 * .pi * next()) }
}

let origin = Coordinate(latitude: 38.72, longitude: -9.14)
let start = Timestamp(iso8601: "2024-06-01T08:00:00Z")!
var draws = Draws(state: 7)
let depots = (0..<20).map { _ in (x: draws.next() * 8000, y: draws.next() * 8000) }
let regions = depots.enumerated().map { index, depot in
    Region(
        id: "depot-\(index)",
        shape: .circle(try! Circle(center: origin.offset(northMeters: depot.y, eastMeters: depot.x), radius: 80)))
}

func driver(_ n: Int) -> [Fix] {
    var draws = Draws(state: 1000 + UInt64(n))
    var fixes: [Fix] = []
    var (x, y) = depots[n % depots.count]
    var target = depots[(n * 7 + 3) % depots.count]
    var stop = 0, north = 0.0, east = 0.0
    let rho = exp(-1.0 / 20)
    for t in 0..<seconds {
        if stop > 0 {
            stop -= 1
        } else {
            let (dx, dy) = (target.x - x, target.y - y)
            let d = (dx * dx + dy * dy).squareRoot()
            if d < 12 {
                (x, y) = target
                target = depots[Int(draws.next() * Double(depots.count))]
                stop = 180 + Int(draws.next() * 120)
            } else {
                x += 12 * dx / d
                y += 12 * dy / d
            }
        }
        north = rho * north + 6 * (1 - rho * rho).squareRoot() * draws.gauss()
        east = rho * east + 6 * (1 - rho * rho).squareRoot() * draws.gauss()
        fixes.append(Fix(origin.offset(northMeters: y + north, eastMeters: x + east), at: start + .seconds(Int64(t))))
    }
    return fixes
}

let tracks = (0..<drivers).map(driver)

func fleet(recorded: Bool, profile: Profile) -> Simulation {
    Simulation(
        regions: regions, rules: [DwellRule(name: "stop", duration: .seconds(120))], profile: profile,
        devices: tracks.enumerated().map {
            Device(id: "driver-\($0.offset)", track: .timed([$0.element]), recorded: recorded)
        })
}

final class CountingSink: EventSink {
    var count = 0
    func send(_ event: GeofenceEvent) throws { count += 1 }
    func finish() throws {}
}

/// One run of `mode`; its events counted.
func run(_ mode: String) -> Int {
    switch mode {
    case "truth": return fleet(recorded: true, profile: .ideal).truth(threads: 1).events.count
    case "exact": return fleet(recorded: false, profile: .ideal).truth(threads: 1).events.count
    case "paths": return fleet(recorded: true, profile: .ideal).onTruePaths().devices.count
    case "settled":
        var settled = fleet(recorded: false, profile: .ideal)
        settled.overrides = MonitorOverrides { $0.confirmation = .seconds(60) }
        return settled.truth(threads: 1).events.count
    case "phones-recorded", "phones-plain":
        let sink = CountingSink()
        _ = try! fleet(recorded: mode == "phones-recorded", profile: .ios).run(into: sink, options: RunOptions(threads: 1))
        return sink.count
    default: fatalError("unknown mode \(mode): truth, exact, phones-recorded or phones-plain")
    }
}

let samples = drivers * seconds
if let once {
    var events = 0
    measured { events = run(once) }
    FileHandle.standardError.write(Data("\(events) events\n".utf8))
    reportMeasured(samples, "sample")
    exit(0)
}

func best(_ mode: String) -> (seconds: Double, events: Int) {
    var fastest = Double.infinity, events = 0
    for _ in 0..<3 {
        let began = DispatchTime.now()
        events = run(mode)
        fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - began.uptimeNanoseconds) / 1e9)
    }
    return (fastest, events)
}

print("\(drivers) drivers × \(seconds) s at 1 Hz (\(samples) samples), one thread, best of three")
let truth = best("truth"), exact = best("exact")
print(String(format: "truth, all recorded   %8.3f s  %7d events", truth.seconds, truth.events))
print(
    String(
        format: "truth, none recorded  %8.3f s  %7d events   truth ÷ exact %.2f", exact.seconds, exact.events,
        truth.seconds / exact.seconds))
if CommandLine.arguments.contains("--parts") {
    print(String(format: "true paths alone      %8.3f s", best("paths").seconds))
    print(String(format: "ideal, confirmation   %8.3f s", best("settled").seconds))
}
let recorded = best("phones-recorded"), plain = best("phones-plain")
print(String(format: "ios, all recorded     %8.3f s  %7d events", recorded.seconds, recorded.events))
print(
    String(
        format: "ios, none recorded    %8.3f s  %7d events   recorded ÷ plain %.2f", plain.seconds, plain.events,
        recorded.seconds / plain.seconds))
