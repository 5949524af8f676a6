import Foundation
import GPX
import TestSupport
import Testing

/// Paths of the bundled fixtures (copied by the test target's `resources: [.copy("Fixtures")]`).
enum Fixtures {
    static let root: String = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func conformance(_ name: String) -> String { root + "/conformance/" + name }
    static func hostile(_ name: String) -> String { root + "/hostile/" + name }
}

/// Writes `text` (or `bytes`) to a fresh file in the temporary directory and returns its path.
func temporaryFile(_ text: String, name: String = "track.gpx") -> String {
    temporaryFile(bytes: Array(text.utf8), name: name)
}

func temporaryFile(bytes: [UInt8], name: String = "track.gpx") -> String {
    let directory = try! TemporaryFolders.make("gpx")
    let url = directory.appendingPathComponent(name)
    try! Data(bytes).write(to: url)
    return url.path
}

/// A GPX 1.1 document around `body` (the children of `<gpx>`).
func gpx(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="tests" xmlns="http://www.topografix.com/GPX/1/1">
    \(body)
    </gpx>
    """
}

/// Loads `path`, returning the error instead of throwing it.
func loadResult(_ path: String) -> Result<GPXTrack, GPXError> {
    do throws(GPXError) { return .success(try GPXTrack.load(path: path)) } catch { return .failure(error) }
}

/// This process's peak resident set size in bytes (VmHWM from /proc/self/status), or nil off Linux.
func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return digits.map { $0 * 1024 }
    }
    return nil
}

/// Runs the test `name` again in a child process of the test binary, alone, and returns what its
/// `measure` reported; in that child, runs `measure` and returns nil (the test then ends there).
///
/// Peak RSS is per process and would count every test running beside this one: measurements of
/// memory are made in a child that runs nothing else.
func inChildProcess(test name: String, measure: () throws -> String) throws -> String? {
    let key = "PERIMETER_CHILD_REPORT_" + name
    if let report = ProcessInfo.processInfo.environment[key] {
        try measure().write(toFile: report, atomically: true, encoding: .utf8)
        return nil
    }
    let report = temporaryFile("", name: "report.txt")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = ["--testing-library", "swift-testing", "--filter", name]
    child.environment = ProcessInfo.processInfo.environment.merging([key: report]) { $1 }
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    child.waitUntilExit()
    #expect(child.terminationStatus == 0, "the child running \(name) failed")
    return try String(contentsOfFile: report, encoding: .utf8)
}
