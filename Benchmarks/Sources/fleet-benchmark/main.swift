// Fleet scale, the whole pipeline in one process (issue 41): a scenario of GPX tracks against many circles
// (Scripts/gpx-fleet.py writes it) loaded and run into a JSON Lines file on one thread and on two, and its
// tracks read as `perimeter inspect` reads them (each `GPXTrack.load`, then its `TrackSummary`, one file
// after another), the three in turn ROUNDS times. Prints each one's median processor and wall seconds,
// then the ratios taken pair by pair within each round (their medians), which hold on any machine:
//
//   ratio: cpu-2-vs-1 X        processor seconds, two threads ÷ one (a regression that only two threads
//                              pay, such as contention on shared memory, shows here)
//   ratio: wall-2-vs-1 X       wall seconds, two threads ÷ one (what the second core buys)
//   ratio: run-vs-inspect X    wall seconds, the run on two threads ÷ reading the same tracks
//
//   swift run -c release fleet-benchmark FOLDER [ROUNDS]     (FOLDER from gpx-fleet.py; ROUNDS default 5)
import EventSinks
import Foundation
import GPX
import Geofencing
import Runs

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first else {
    print("usage: fleet-benchmark FOLDER [ROUNDS]   (FOLDER written by Scripts/gpx-fleet.py)")
    exit(2)
}
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
let scenario = folder + "/fleet.yaml"
let tracks = try FileManager.default.contentsOfDirectory(atPath: folder + "/drivers")
    .filter { $0.hasSuffix(".gpx") }.sorted().map { folder + "/drivers/" + $0 }
let output = NSTemporaryDirectory() + "fleet-benchmark-\(getpid()).jsonl"
defer { try? FileManager.default.removeItem(atPath: output) }

/// Processor seconds of the whole process so far (every thread, user and system).
func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// (processor, wall) seconds of `body`.
func timed(_ body: () throws -> Void) rethrows -> (cpu: Double, wall: Double) {
    let cpu = processorSeconds(), wall = DispatchTime.now().uptimeNanoseconds
    try body()
    return (processorSeconds() - cpu, Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9)
}

/// `perimeter run SCENARIO --threads N --sink jsonl:OUTPUT`, without the command line: the scenario loaded
/// (its tracks read on N threads), the run, the events written. Returns the events.
func run(threads: Int) throws -> Int {
    let loaded = try ScenarioRun(loading: scenario, threads: threads)
    let sink = try JSONLinesSink(path: output)
    return try loaded.simulation.run(into: sink, options: RunOptions(threads: threads)).events
}

/// `perimeter inspect TRACK...`: each track read and summarised, one after another. Returns the points.
func inspect() throws -> Int {
    var points = 0
    for track in tracks {
        let summary = TrackSummary(try GPXTrack.load(path: track))
        points += summary.points
    }
    return points
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

print("fleet-benchmark: \(scenario), \(tracks.count) tracks, \(rounds) rounds (run on 1 thread, on 2, inspect)")
var one: [(cpu: Double, wall: Double)] = [], two: [(cpu: Double, wall: Double)] = [],
    read: [(cpu: Double, wall: Double)] = []
var events = (0, 0), points = 0
_ = try run(threads: 2)  // a warm-up: the files in the page cache, the allocator's pools made
for _ in 0..<rounds {
    one.append(try timed { events.0 = try run(threads: 1) })
    two.append(try timed { events.1 = try run(threads: 2) })
    read.append(try timed { points = try inspect() })
}
precondition(events.0 == events.1, "one thread and two gave different events")
print("events: \(events.0), points read: \(points)")
for (name, times) in [("run, 1 thread", one), ("run, 2 threads", two), ("inspect", read)] {
    print(
        String(
            format: "%-16@ cpu %.3f s  wall %.3f s (medians)", name as NSString, median(times.map(\.cpu)),
            median(times.map(\.wall))))
}
print(String(format: "ratio: cpu-2-vs-1 %.3f", median(zip(two, one).map { $0.cpu / $1.cpu })))
print(String(format: "ratio: wall-2-vs-1 %.3f", median(zip(two, one).map { $0.wall / $1.wall })))
print(String(format: "ratio: run-vs-inspect %.3f", median(zip(two, read).map { $0.wall / $1.wall })))
