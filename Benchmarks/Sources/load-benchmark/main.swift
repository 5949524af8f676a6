// What loading a scenario costs as its GPX files grow (issue 49, H6): a `tracks: tracks/*.gpx` pattern over
// N tiny files (two points each), loaded as `perimeter validate` loads it (its inputs confined to its folder),
// on one thread. A load is linear in its files: 100,000 files once took 446 s to validate, 20,000 took
// 6.5 s, a linear scan of the files read per file read. thresholds.json holds 32,000 files to at most
// 20 times the instructions of 2,000.
//
//   swift run -c release load-benchmark generate N FOLDER   writes FOLDER/fleet.yaml and FOLDER/tracks/*.gpx
//   swift run -c release load-benchmark load FOLDER         loads FOLDER/fleet.yaml once inside `measured`
//   swift run -c release load-benchmark [N...]              generates and times each N (default 2000 32000)
import BenchmarkSupport
import Foundation
import ScenarioFormat

#if canImport(Glibc)
    import Glibc
#endif

/// Writes the scenario and its `files` GPX tracks into `folder`: a few hundred bytes each, the points a
/// second apart in the same place, one region.
func generate(files: Int, into folder: String) throws {
    let tracks = folder + "/tracks"
    try FileManager.default.createDirectory(atPath: tracks, withIntermediateDirectories: true)
    for index in 0..<files {
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="load-benchmark" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="40.4168" lon="-3.7038"><time>2024-05-01T08:00:00Z</time></trkpt>
            <trkpt lat="40.4169" lon="-3.7037"><time>2024-05-01T08:00:01Z</time></trkpt>
            </trkseg></trk></gpx>

            """
        try gpx.write(toFile: tracks + "/d\(index).gpx", atomically: false, encoding: .utf8)
    }
    let scenario = """
        name: load-benchmark
        profile: ideal
        regions:
          - {id: plaza, circle: {lat: 40.4168, lon: -3.7038, radius: 100}}
        devices:
          - tracks: tracks/*.gpx

        """
    try scenario.write(toFile: folder + "/fleet.yaml", atomically: false, encoding: .utf8)
}

/// Loads `folder`'s scenario as `validate` does, on one thread; returns its devices.
func load(_ folder: String) throws -> Int {
    var loader = ScenarioLoader()
    loader.threads = 1
    loader.inputs = InputConfinement(givenFolders: [folder])
    return try loader.load(path: folder + "/fleet.yaml").simulation.devices.count
}

/// Processor seconds of the whole process so far.
func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "generate":
    guard arguments.count == 3, let files = Int(arguments[1]) else {
        print("usage: load-benchmark generate N FOLDER")
        exit(2)
    }
    try generate(files: files, into: arguments[2])
case "load":
    guard arguments.count == 2 else {
        print("usage: load-benchmark load FOLDER")
        exit(2)
    }
    var devices = 0
    try measured { devices = try load(arguments[1]) }
    reportMeasured(devices, "file")
default:
    let sizes = arguments.isEmpty ? [2000, 32000] : arguments.compactMap { Int($0) }
    var first: (files: Int, seconds: Double)?
    for files in sizes {
        let folder = NSTemporaryDirectory() + "load-benchmark-\(getpid())-\(files)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try generate(files: files, into: folder)
        let before = processorSeconds()
        let devices = try load(folder)
        let seconds = processorSeconds() - before
        precondition(devices == files, "\(devices) devices from \(files) files")
        let against = first.map { String(format: ", %.1f× the processor time of %d files", seconds / $0.seconds, $0.files) }
        print(String(format: "%6d files: %.2f s of processor time", files, seconds) + (against ?? ""))
        if first == nil { first = (files, seconds) }
    }
}
