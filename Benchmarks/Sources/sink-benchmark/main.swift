// Sink throughput: N events (every kind) through each file sink, beside writing the same bytes with a
// plain 64 KiB-buffered write(2) loop, measured in one run, best of three each (for SQLite: of its JSON Lines bytes). Prints events per second and the ratio of
// each sink's time to the plain write of its own bytes (its formatting and bookkeeping overhead). With
// sqlite, also SQLite's own cost of the same rows (`SQLiteAlone.swift`), with and without the two indexes.
//
//   swift run -c release sink-benchmark [events] [sink,...] [--once]
// (--once: one sink's events sent once into a new file, inside `measured` for callgrind, then
// `measured: EVENTS event`)
import BenchmarkSupport
import Draws
import EventSinks
import EventSinksSQLite
import Foundation
import Geodesy
import Geofencing
import Time

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 500_000
/// The sinks to measure (all when not given).
let chosen = CommandLine.arguments.dropFirst(2).first { !$0.hasPrefix("--") }.map {
    $0.split(separator: ",").map(String.init)
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sink-benchmark-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

/// A realistic mix: starts, crossings, visits and dwells of 100 devices around 50 regions.
let base = Timestamp(iso8601: "2024-05-01T09:00:00Z")!
var random = SplitMix64(seed: 3)
/// A coordinate as a fix gives it: six decimals, as GPS receivers and fix tables write them (a sample at a
/// fix's time carries the fix's coordinate; an interpolated one has 17 digits, like the distances here).
func fixDegrees(_ degrees: Double) -> Double { Double(String(format: "%.6f", degrees))! }

let events: [GeofenceEvent] = (0..<count).map { i in
    let t = base + .seconds(Int64(i / 10))
    let details: [GeofenceEvent.Detail] = [
        .monitorStart, .enter(crossedAt: t - .seconds(20)), .exit(crossedAt: t - .seconds(20)),
        .visit(arrival: t - .seconds(600), departure: t), .dwell(rule: "welcome", ruleIndex: 0, duration: .seconds(60)),
    ]
    return GeofenceEvent(
        time: t, device: "device-\(i % 100)", region: "region-\(i % 50)", regionIndex: i % 50,
        coordinate: Coordinate(
            latitude: fixDegrees(.random(in: 52...53, using: &random)),
            longitude: fixDegrees(.random(in: 13...14, using: &random))),
        distance: .random(in: -500...500, using: &random), detail: details[i % details.count])
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Writes `bytes` to a new file in 64 KiB pieces with write(2): the floor any file sink stands on.
func plainWrite(_ bytes: [UInt8], to path: String) -> Double {
    seconds {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = min(65_536, raw.count - offset)
                offset += write(fd, raw.baseAddress! + offset, n)
            }
        }
        fsync(fd)
        close(fd)
    }
}

let allSinks: [(String, (String) throws -> any LifecycleSink)] = [
    ("jsonl", { try JSONLinesSink(path: $0) }),
    ("csv", { try CSVSink(path: $0) }),
    ("geojson", { try GeoJSONSink(path: $0) }),
    ("console", { try ConsoleSink(output: OutputFile(path: $0, spec: "console")) }),
    ("sqlite", { try SQLiteSink(path: $0) }),
]
if CommandLine.arguments.contains("--once") {
    guard let chosen, chosen.count == 1, let (name, make) = allSinks.first(where: { $0.0 == chosen[0] }) else {
        fatalError("--once measures one sink: name it, e.g. sink-benchmark 30000 jsonl --once")
    }
    try measured {
        let sink = try make(folder + "/events." + name)
        for event in events { try sink.send(event) }
        try sink.finish()
    }
    reportMeasured(count, "event")
    try? FileManager.default.removeItem(atPath: folder)
    exit(0)
}

print("sink-benchmark: \(count) events")
print("sink       events/s      MB   time ÷ plain write of the same bytes")
// SQLite's reference is the JSON Lines file of the same events: jsonl is measured with it.
let sinks = allSinks.filter { sink in
    guard let chosen else { return true }
    return chosen.contains(sink.0) || (sink.0 == "jsonl" && chosen.contains("sqlite"))
}
var elapsedBySink: [String: Double] = [:]
for (name, make) in sinks {
    let path = folder + "/events." + name
    // Best of three, each into a new file (SQLite would otherwise append to the last run's database).
    var times: [Double] = []
    for _ in 0..<3 {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        times.append(
            try seconds {
                let sink = try make(path)
                for event in events { try sink.send(event) }
                try sink.finish()
            })
    }
    let elapsed = times.min()!
    elapsedBySink[name] = elapsed
    // For SQLite the floor is writing the JSON Lines bytes of the same events (a database has no
    // byte-for-byte plain equivalent); its file is larger, with indices.
    let source = name == "sqlite" ? folder + "/events.jsonl" : path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
    let floor = (0..<3).map { _ in plainWrite(bytes, to: path + ".plain") }.min()!
    let label = name.padding(toLength: 8, withPad: " ", startingAt: 0)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print(label + String(format: " %10.0f  %6.1f   %.1f", Double(count) / elapsed, Double(size) / 1e6, elapsed / floor))
}

if let sqlite = elapsedBySink["sqlite"], let jsonl = elapsedBySink["jsonl"] {
    print(String(format: "sqlite ÷ jsonl: %.1f (%.2f s ÷ %.2f s)", sqlite / jsonl, sqlite, jsonl))
    // SQLite's own floor for the same rows: how far the sink is from what the schema costs by itself.
    let alone = try sqliteAlone(events, folder: folder)
    print(
        String(
            format: "sqlite alone (the same rows through SQLite's C API, texts made beforehand): %.0f events/s; "
                + "sink ÷ alone %.2f; alone ÷ jsonl %.1f", Double(count) / alone, sqlite / alone, alone / jsonl))
    let table = try sqliteAlone(events, folder: folder, indexed: false)
    print(
        String(
            format: "sqlite alone, without the two indexes: %.0f events/s; ÷ jsonl %.1f", Double(count) / table,
            table / jsonl))
}

// The run journal (`RunJournal`, kept by `perimeter run` for the sinks that may fail): each sink behind a
// fan-out with a journal in the same folder, against the same fan-out without one; best of three each.
// Every sink succeeds, so the journal is written and then discarded, as in a good run.
print("")
print("sink       time with the run's journal ÷ without (best of 3)")
for (name, make) in sinks where name != "sqlite" {
    let path = folder + "/journal." + name
    func best(journal: Bool) throws -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            times.append(
                try seconds {
                    let sink = FanOutSink([try make(path)], journal: journal ? RunJournal(folder: folder) : nil)
                    for event in events { try sink.send(event) }
                    try sink.finish()
                })
        }
        return times.min()!
    }
    let without = try best(journal: false), with = try best(journal: true)
    print(
        name.padding(toLength: 8, withPad: " ", startingAt: 0)
            + String(format: "   %.2f  (%.2f s ÷ %.2f s)", with / without, with, without))
}
