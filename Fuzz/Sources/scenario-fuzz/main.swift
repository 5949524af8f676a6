// libFuzzer target: ScenarioLoader.load(path:) must never crash or hang on any YAML or JSON bytes;
// errors are fine. The input is written into a scratch folder laid out like the repository, so that the
// seeds' relative paths (../Tracks/…, ../tracks/…, ../regions/…) reach the real tracks and region files.
import Foundation
import ScenarioFormat

/// The repository: PERIMETER_ROOT, or else four folders up from this file (Fuzz/Sources/scenario-fuzz/).
let root: String = ProcessInfo.processInfo.environment["PERIMETER_ROOT"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

let inputPath: String = {
    let dir = NSTemporaryDirectory() + "perimeter-scenario-fuzz-\(getpid())"
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
    guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(inputPath)")
    }
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

// SwiftPM links an executable's `main` to this module's top-level code, so libFuzzer's own `main` is not
// used: the top-level code hands the command line to libFuzzer's driver instead (same flags, same output).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

var fuzzArgc = CommandLine.argc
var fuzzArgv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&fuzzArgc, &fuzzArgv) { data, size in
    var empty: UInt8 = 0
    return data.map { fuzz($0, size) } ?? fuzz(&empty, 0)
})
