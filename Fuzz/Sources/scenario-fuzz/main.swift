// libFuzzer target: ScenarioLoader.load(path:) must never crash or hang on any YAML or JSON bytes;
// errors are fine. What loads is run (under a sample budget), and must run without a trap and give events
// at times an event log can show. The input is written into a scratch folder laid out like the repository, so that the
// seeds' relative paths (../Tracks/…, ../tracks/…, ../regions/…) reach the real tracks and region files.
import Foundation
import FuzzSupport
import Geofencing
import ScenarioFormat
import Time

/// The loader's sample budget here: runs stay well under a second.
let maximumSamples: Int64 = 20_000

/// The repository: PERIMETER_ROOT, or else four folders up from this file (Fuzz/Sources/scenario-fuzz/).
let root: String =
    ProcessInfo.processInfo.environment["PERIMETER_ROOT"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

let inputPath: String = {
    let dir = scratchFolder("scenario-fuzz")
    let fm = FileManager.default
    try? fm.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
    let links = [
        "Tracks": "Tracks", "tracks": "Tests/ScenarioFormatTests/Fixtures/tracks",
        "regions": "Tests/ScenarioFormatTests/Fixtures/regions",
    ]
    for (name, target) in links where !fm.fileExists(atPath: dir + "/" + name) {
        try? fm.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: root + "/" + target)
    }
    return dir + "/s/input.yaml"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: inputPath)
    do {
        // A small sample budget, so that what loads also runs, fast: offsets, paces, starts and ticks
        // that load must give times the engine can compute and an event log can show.
        let scenario = try ScenarioLoader.load(path: inputPath, maxSamples: maximumSamples)
        let ids = scenario.simulation.regions.map(\.id)
        if Set(ids).count != ids.count { fatalError("ScenarioLoader.load accepted duplicate region ids \(ids)") }
        if scenario.simulation.tick.microseconds <= 0 {
            fatalError("ScenarioLoader.load accepted tick \(scenario.simulation.tick)")
        }
        let log = EventLog()
        guard let summary = try? scenario.simulation.run(into: log, options: RunOptions(threads: 1)) else {
            fatalError("Simulation.run into an EventLog threw")
        }
        if Int64(summary.samples) > maximumSamples { fatalError("the run made \(summary.samples) samples, over the budget") }
        for event in log.events where !Timestamp.writable.contains(event.time) {
            fatalError("an event at \(event.time.microsecondsSince1970) µs, outside the years 0000-9999")
        }
    } catch {
        if error.errors.isEmpty { fatalError("ScenarioLoader.load threw with no error") }
        _ = error.description
    }
    return 0
}

runLibFuzzer(fuzz)
