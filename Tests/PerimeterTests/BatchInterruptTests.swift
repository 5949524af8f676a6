import Foundation
import TestSupport
import Testing

/// Issue 37 G6, end to end: Ctrl-C in a Monte Carlo batch reaches the runs under way, which stop within a
/// window and are dropped; the batch does not first finish its group of `threads × 4` runs (each run here
/// takes seconds, a group tens of seconds). The runs handed on before the signal are kept whole.
@Suite("A Monte Carlo batch stops inside its runs", .serialized)
struct BatchInterruptTests {
    static let walkers = 50

    /// A batch whose runs are long and quiet: `walkers` walkers pacing a 2 km street for 24 hours (a fix
    /// every 10 s, 8,640 fixes, one GPX file for all, each walker 7 s behind the last), with noise, and one
    /// circle 4 km away: each run is 4.3 M samples and exactly one `monitor-start` a walker.
    static func scenario(in folder: URL) throws -> String {
        let latitude = 52.52, longitude = 13.40
        let metresPerDegree = 111_195.08 * cos(latitude * .pi / 180)
        var gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="BatchInterruptTests"><trk><trkseg>"# + "\n"
        for fix in 0...8_640 {
            let travelled = Double(fix * 100 % 4_000)
            let x = travelled <= 2_000 ? travelled : 4_000 - travelled
            gpx += #"<trkpt lat="\#(latitude)" lon="\#(longitude + x / metresPerDegree)"/>"# + "\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        try gpx.write(to: folder.appendingPathComponent("walk.gpx"), atomically: false, encoding: .utf8)
        var yaml = """
            name: A long quiet batch
            start: 2024-05-01T09:00:00Z
            profile: android
            noise: {sigma: 5m, seed: 1}
            regions:
              - {id: far, circle: {lat: \(latitude), lon: \(longitude + 6_000 / metresPerDegree), radius: 80}}
            devices:

            """
        for walker in 0..<walkers {
            yaml += "  - {id: walker-\(walker), track: walk.gpx, pace: 10, offset: \(walker * 7)s}\n"
        }
        let file = folder.appendingPathComponent("long.yaml").path
        try yaml.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    @Test("SIGINT while a group of runs is simulated: exit 130 within seconds, the runs done kept whole")
    func interruptedInsideAGroup() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try Self.scenario(in: folder)
        let run = try LaunchedPerimeter(
            ["run", scenario, "--runs", "1000", "--threads", "2", "--sink", "jsonl:e.jsonl"], in: folder)
        // The batch opens its sinks (the partial file appears) after the exact reference run and just before
        // its first group of runs.
        let opened = ContinuousClock.now + .seconds(300)
        func partialExists() -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.contains { $0.hasPrefix(".e.jsonl.partial") }
        }
        while !partialExists() && run.process.isRunning && ContinuousClock.now < opened { usleep(20_000) }
        #expect(partialExists(), "the batch opened its sink")
        usleep(500_000)  // inside the first group's runs
        run.process.interrupt()
        let stopped = run.awaitExit(within: .seconds(15))
        if !stopped { run.process.terminate() }
        let result = run.finish()
        #expect(stopped, "exited within 15 s of the signal (a group of 8 runs takes far longer)")
        #expect(result.status == 130, "\(result.stderr)")
        let summary = try #require(
            result.stderr.firstMatch(of: /(\d+) of 1000 runs, (\d+) events in all.*INTERRUPTED/), "\(result.stderr)")
        let done = try #require(Int(summary.1)), events = try #require(Int(summary.2))
        #expect(done < 1000)
        #expect(events == done * Self.walkers, "whole runs only: one monitor-start a walker a run")
        let kept = try String(contentsOf: folder.appendingPathComponent("e.interrupted.jsonl"), encoding: .utf8)
        let lines = kept.split(separator: "\n")
        #expect(lines.count == events, "every event of the runs done, and no other")
        for run in 0..<done {
            #expect(lines.filter { $0.contains(#""run":\#(run)}"#) }.count == Self.walkers, "run \(run) whole")
        }
    }
}
