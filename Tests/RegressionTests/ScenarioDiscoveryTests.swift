import Foundation
import Regression
import TestSupport
import Testing

/// Issue 56 item 1: `check DIR` checks the scenarios of a folder, not every YAML file in it. A journey
/// (`route:`), a CI workflow or any YAML with neither `regions:` nor `devices:` at its top level is
/// skipped and said; hidden folders are not searched; `--exclude` leaves files out; a file named is
/// always checked; a YAML file whose top level cannot be read so is checked, and its problems said.
@Suite("Which files check takes as scenarios")
struct ScenarioDiscoveryTests {
    /// The files of the folder, by path below it, and what each holds.
    static let files: [(path: String, text: String)] = [
        ("a.yaml", "name: a\nregions: []\ndevices: []\n"),
        ("b.yml", "# a comment\n\"regions\": []\n'devices': []\n"),
        ("only-devices.yaml", "devices: []\n"),  // a scenario missing regions: checked, its error said
        ("flow.yaml", "{name: f, regions: [], devices: []}\n"),  // flow style: checked
        ("broken.yaml", "regions: [\n"),  // unreadable YAML with a scenario's key: checked
        ("journeys/walk.yaml", "name: w\nstart: 2026-03-02T09:00:00Z\nroute:\n  - {lat: 1, lon: 2}\n"),
        ("compose.yml", "services:\n  db: {image: postgres}\n"),
        ("drafts/c.draft.yaml", "name: c\nregions: []\ndevices: []\n"),
        (".github/workflows/ci.yml", "name: ci\non: push\njobs: {}\n"),
        (".hidden.yaml", "regions: []\ndevices: []\n"),
        ("mine.profile.yaml", "name: mine\nbase: ios\n"),
        ("notes.txt", "regions: []\n"),
    ]

    static func folder() throws -> URL {
        let folder = try PerimeterProcess.temporaryFolder()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test(
        "A folder's scenarios; the others skipped with why, or left out",
        arguments: [
            (
                [String](), ["a.yaml", "b.yml", "broken.yaml", "drafts/c.draft.yaml", "flow.yaml", "only-devices.yaml"],
                [
                    "compose.yml": "no regions: or devices: at its top level",
                    "journeys/walk.yaml": "a journey: it has route:",
                ]
            ),
            (
                ["journeys/*", "*.draft.yaml", "compose.yml"],
                ["a.yaml", "b.yml", "broken.yaml", "flow.yaml", "only-devices.yaml"],
                [:]
            ),
            (
                ["drafts"], ["a.yaml", "b.yml", "broken.yaml", "drafts/c.draft.yaml", "flow.yaml", "only-devices.yaml"],
                [
                    "compose.yml": "no regions: or devices: at its top level",
                    "journeys/walk.yaml": "a journey: it has route:",
                ]
            ),
        ])
    func discovery(excluding: [String], checked: [String], skipped: [String: String]) throws {
        let folder = try Self.folder()
        let found = RegressionCheck.scenarioFiles(in: [folder.path], excluding: excluding)
        let below = { (path: String) in String(path.dropFirst(folder.path.count + 1)) }
        #expect(found.files.map(below) == checked)
        #expect(Dictionary(uniqueKeysWithValues: found.skipped.map { (below($0.path), $0.why) }) == skipped)
        #expect(found.missing.isEmpty)
    }

    @Test("A file named is checked whatever it holds")
    func aFileNamedIsChecked() throws {
        let folder = try Self.folder()
        let journey = folder.appendingPathComponent("journeys/walk.yaml").path
        let found = RegressionCheck.scenarioFiles(in: [journey], excluding: ["*"])
        #expect(found.files == [journey])
        #expect(found.skipped.isEmpty)
    }

    @Test("check DIR: the skipped files in one note on standard error, the scenarios checked")
    func checkSaysWhatItSkipped() throws {
        let folder = try Self.folder()
        for name in ["broken.yaml", "only-devices.yaml", "flow.yaml", "b.yml", "drafts/c.draft.yaml"] {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let result = try PerimeterProcess.run(["check", ".", "--update", "--allow-empty"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 scenario: 1 passed"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "check: skipped 2 YAML files that are not scenarios: ./compose.yml (no regions: or devices: at its top "
                    + "level), ./journeys/walk.yaml (a journey: it has route:). Name a file to check it anyway"),
            "\(result.stderr)")
        let quiet = try PerimeterProcess.run(
            ["check", ".", "--exclude", "journeys/*", "--exclude", "compose.yml"], in: folder)
        #expect(quiet.status == 0, "\(quiet.stdout)\(quiet.stderr)")
        #expect(!quiet.stderr.contains("skipped"), "\(quiet.stderr)")
    }
}

/// Issue 56 item 6: a failed check's block shows every time on one clock. With `timezone:`, the diff,
/// the expectations and the drawn misses are all on the scenario's clock, which the block's first line
/// names; they used to mix the diff's and the notes' UTC with the expectations' local times.
@Suite("A failed check's times on one clock")
struct CheckClockTests {
    @Test func everyTimeOfABlockIsOnTheScenariosClock() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try FileManager.default.copyItem(
            atPath: PerimeterProcess.root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx").path,
            toPath: folder.appendingPathComponent("track.gpx").path)
        let scenario = folder.appendingPathComponent("tz.yaml").path
        try """
        name: tz
        start: 2016-01-10T12:00:00Z
        timezone: America/Los_Angeles
        profile: ideal
        monitor: {missExit: 1}
        regions:
          - {id: r, circle: {lat: 37.703026, lon: -121.759735, radius: 300}}
        devices:
          - {id: phone, track: track.gpx}
        expect:
          - {kind: enter, region: r, at: "04:00:10", within: 5s}

        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        // A golden log whose enter is a minute late.
        #expect(RegressionCheck(update: true).check(scenarioAt: scenario).status == .failed)
        let golden = folder.appendingPathComponent("tz.events.jsonl")
        let log = try String(contentsOf: golden, encoding: .utf8)
        try log.replacingOccurrences(of: "\"time\":\"2016-01-10T12:01:", with: "\"time\":\"2016-01-10T12:02:")
            .write(to: golden, atomically: true, encoding: .utf8)
        let result = RegressionCheck().check(scenarioAt: scenario)
        #expect(result.status == .failed)
        #expect(
            result.details.first
                == "times on the America/Los_Angeles clock (UTC-08:00 on 2016-01-10, the scenario's timezone:)")
        let block = result.details.joined(separator: "\n")
        #expect(block.contains("enter r phone: 04:02:"), "\(block)")  // the diff
        #expect(block.contains("the nearest was at 04:01:"), "\(block)")  // the expectation
        #expect(block.contains("note: exit of r by phone at 04:0"), "\(block)")  // the drawn miss
        #expect(!block.contains("T12:") && !block.contains(" 12:0"), "a UTC time in \(block)")
    }
}
