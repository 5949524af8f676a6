// libFuzzer target: ScenarioLoader.load(path:) must never crash or hang on any YAML or JSON bytes;
// errors are fine. The input is written into a scratch folder laid out like the repository, so that the
// seeds' relative paths (../Tracks/…, ../tracks/…, ../regions/…) reach the real tracks and region files.
import Foundation
import FuzzSupport
import ScenarioFormat

/// The repository: PERIMETER_ROOT, or else four folders up from this file (Fuzz/Sources/scenario-fuzz/).
let root: String = ProcessInfo.processInfo.environment["PERIMETER_ROOT"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

let inputPath: String = {
    let dir = scratchFolder("scenario-fuzz")
    let fm = FileManager.default
    try? fm.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
    let links = ["Tracks": "Tracks", "tracks": "Tests/ScenarioFormatTests/Fixtures/tracks",
                 "regions": "Tests/ScenarioFormatTests/Fixtures/regions"]
    for (name, target) in links where !fm.fileExists(atPath: dir + "/" + name) {
        try? fm.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: root + "/" + target)
    }
    return dir + "/s/input.yaml"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeInput(data, size, to: inputPath)
    do {
        let scenario = try ScenarioLoader.load(path: inputPath)
        let ids = scenario.simulation.regions.map(\.id)
        if Set(ids).count != ids.count { fatalError("ScenarioLoader.load accepted duplicate region ids \(ids)") }
        if scenario.simulation.tick.microseconds <= 0 { fatalError("ScenarioLoader.load accepted tick \(scenario.simulation.tick)") }
    } catch {
        if error.errors.isEmpty { fatalError("ScenarioLoader.load threw with no error") }
        _ = error.description
    }
    return 0
}

runLibFuzzer(fuzz)
