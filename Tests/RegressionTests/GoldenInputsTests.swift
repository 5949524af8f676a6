import Foundation
import Regression
import ScenarioFormat
import TestSupport
import Testing

/// What a golden log was made from (`NAME.events.inputs.json`), and the diff's header naming what changed.
@Suite("Golden log inputs")
struct GoldenInputsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        /// Changes the copy of the repository (its root folder) after the golden log was recorded.
        var edit: @Sendable (URL) throws -> Void
        /// What the header says after the diff's counts; empty when it says nothing about the inputs.
        var since: String
        var testDescription: String { id }
    }

    static let track = "Tracks/lorrenzillos-visit.gpx"
    static let scenario = "Scenarios/lorrenzillos.yaml"
    static let record = "Scenarios/lorrenzillos.events.inputs.json"

    static func addHysteresis(_ root: URL) throws {
        try RepositoryCopy.edit(
            root.appendingPathComponent(scenario), RepositoryCopy.circleLine,
            RepositoryCopy.circleLine + "    hysteresis: 50\n")
    }

    /// The track 11 m further north: every event's position and distance change.
    static func moveTrack(_ file: URL) throws { try RepositoryCopy.edit(file, "lat=\"37.7024864\"", "lat=\"37.7025864\"") }

    static let cases: [Case] = [
        Case(id: "the scenario", edit: addHysteresis, since: "; since it was recorded: the scenario changed"),
        Case(
            id: "a track", edit: { try moveTrack($0.appendingPathComponent(track)) },
            since: "; since it was recorded: track ../Tracks/lorrenzillos-visit.gpx changed"),
        Case(
            id: "the profile",
            edit: {
                try RepositoryCopy.edit(
                    $0.appendingPathComponent(scenario), "profile: ios-documented", "profile: android-documented")
            },
            since: "; since it was recorded: the scenario changed, profile ios-documented → android-documented"),
        Case(
            id: "another track",
            edit: { root in
                try FileManager.default.copyItem(
                    at: root.appendingPathComponent(track), to: root.appendingPathComponent("Tracks/walk.gpx"))
                try moveTrack(root.appendingPathComponent("Tracks/walk.gpx"))
                try RepositoryCopy.edit(root.appendingPathComponent(scenario), "lorrenzillos-visit.gpx", "walk.gpx")
            },
            since: "; since it was recorded: the scenario changed, track ../Tracks/walk.gpx is new, "
                + "track ../Tracks/lorrenzillos-visit.gpx is no longer read"),
        Case(
            id: "no input (the engine's events changed)",
            edit: { root in
                try RepositoryCopy.edit(
                    root.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"), "12:05:00.000Z", "12:05:10.000Z")
            }, since: "; since it was recorded: no input changed (the engine did)"),
        Case(
            id: "a golden log recorded before records were kept: nothing said",
            edit: { root in
                try FileManager.default.removeItem(at: root.appendingPathComponent(record))
                try addHysteresis(root)
            }, since: ""),
        Case(
            id: "a record that cannot be read",
            edit: { root in
                try "not json\n".write(to: root.appendingPathComponent(record), atomically: true, encoding: .utf8)
                try addHysteresis(root)
            },
            since: "; what it was made from is unknown (ROOT/\(record) cannot be read; "
                + "`perimeter check --update` records it again)"),
    ]

    @Test("The diff's header names what changed in the inputs since the golden log was recorded", arguments: cases)
    func header(_ c: Case) throws {
        let root = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: root) }
        try c.edit(root)
        let golden = root.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl").path
        let result = RegressionCheck().check(scenarioAt: root.appendingPathComponent(Self.scenario).path)
        let since = c.since.replacingOccurrences(of: "ROOT", with: root.path)
        #expect(result.status == .failed)
        let summary = try #require(result.headline.firstMatch(of: /^the events differ from the golden log \(([^)]*)\)/)?.1)
        #expect(result.headline == "the events differ from the golden log (\(summary))" + since)
        #expect(result.details.first == "the events differ from the golden log \(golden) (\(summary))\(since):")
        // The JUnit report carries it and stays valid.
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try JUnitReport.xml([result]).write(to: file, atomically: true, encoding: .utf8)
        let junit = try JUnitSchema.validate(file.path)
        #expect(junit.valid, "\(junit.output)")
    }

    @Test("--update records what the log was made from, once; the record reads back as written")
    func update() throws {
        let root = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: root) }
        let record = root.appendingPathComponent(Self.record)
        let original = try String(contentsOf: record, encoding: .utf8)
        try FileManager.default.removeItem(at: record)
        let scenario = root.appendingPathComponent(Self.scenario).path
        let first = RegressionCheck(update: true).check(scenarioAt: scenario)
        #expect(first.status == .passed)
        #expect(first.details == ["recorded what it was made from in \(record.path)"])
        #expect(try String(contentsOf: record, encoding: .utf8) == original)
        #expect(RegressionCheck(update: true).check(scenarioAt: scenario).details.isEmpty)

        try Self.moveTrack(root.appendingPathComponent(Self.track))
        let moved = RegressionCheck(update: true).check(scenarioAt: scenario)
        #expect(moved.details.first?.hasPrefix("updated the golden log") == true)
        #expect(moved.details.last == "recorded what it was made from in \(record.path)")
        #expect(RegressionCheck().check(scenarioAt: scenario).status == .passed)
        let written = try #require(GoldenInputs(json: String(contentsOf: record, encoding: .utf8)))
        #expect(written.json == (try String(contentsOf: record, encoding: .utf8)))
        #expect(written.profile == "ios-documented")
        #expect(written.files.map(\.path) == ["../Tracks/lorrenzillos-visit.gpx"])
        let sha = try JUnitSchema.shell(["sha256sum", root.appendingPathComponent(Self.track).path]).output
        #expect(sha.hasPrefix(written.files[0].sha256 + " "))
    }

    @Test("The repository's golden logs carry the record of what they were made from, up to date")
    func repositoryRecords() throws {
        let files = RegressionCheck.scenarioFiles(in: [PerimeterProcess.root.appendingPathComponent("Scenarios").path]).files
        #expect(!files.isEmpty)
        for file in files {
            let scenario = try ScenarioLoader.load(path: file)
            let record = GoldenInputs.path(forGolden: RegressionCheck.goldenPath(for: file))
            let now = try #require(GoldenInputs(of: scenario))
            #expect((try? String(contentsOfFile: record, encoding: .utf8)) == now.json, "\(record)")
        }
    }
}
