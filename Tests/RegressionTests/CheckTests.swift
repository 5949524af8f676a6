import EventSinks
import Foundation
import TestSupport
import Regression
import Testing

/// A copy of the repository's `Scenarios/lorrenzillos.yaml`, its golden log and its track, in a temporary
/// folder laid out like the repository (`Scenarios/`, `Tracks/`).
private func copyOfTheRepositoryScenario() throws -> URL {
    let folder = try temporaryFolder()
    let fm = FileManager.default
    for sub in ["Scenarios", "Tracks"] {
        try fm.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    for file in ["Scenarios/lorrenzillos.yaml", "Scenarios/lorrenzillos.events.jsonl", "Tracks/lorrenzillos-visit.gpx"] {
        try fm.copyItem(at: packageRoot.appendingPathComponent(file), to: folder.appendingPathComponent(file))
    }
    return folder
}

/// Replaces `old` by `new` in the file at `url`, which must contain it.
private func edit(_ url: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(old))
    try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
}

private let circleLine = "    circle: {lat: 37.703026, lon: -121.759735, radius: 300}\n"

@Suite("perimeter check")
struct CheckTests {
    @Test("The repository's scenarios pass against their golden logs")
    func repositoryPasses() throws {
        let (files, missing) = RegressionCheck.scenarioFiles(in: [packageRoot.appendingPathComponent("Scenarios").path])
        #expect(missing.isEmpty)
        #expect(!files.isEmpty)
        for file in files {
            let result = RegressionCheck(threads: 2).check(scenarioAt: file)
            #expect(result.status == .passed, "\(result.details)")
        }
    }

    @Test("A change of engine behaviour fails with a readable diff (library API); --update makes it pass")
    func behaviourChangeLibrary() throws {
        let folder = try copyOfTheRepositoryScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml").path
        let golden = folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl").path
        #expect(RegressionCheck().check(scenarioAt: scenario).status == .passed)

        try edit(URL(fileURLWithPath: scenario), circleLine, circleLine + "    hysteresis: 50\n")
        let failed = RegressionCheck().check(scenarioAt: scenario)
        #expect(failed.status == .failed)
        #expect(failed.headline == "the events differ from the golden log (2 moved)")
        #expect(failed.details == [
            "the events differ from the golden log \(golden) (2 moved):",
            "  exit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)",
            "  visit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)",
        ])

        let updated = RegressionCheck(update: true).check(scenarioAt: scenario)
        #expect(updated.status == .passed)
        #expect(updated.details.first == "updated the golden log \(golden) (2 moved):")
        #expect(RegressionCheck().check(scenarioAt: scenario).status == .passed)
        // What --update wrote is exactly what `perimeter run --sink jsonl:` writes.
        let events = try JSONLinesSink.decode(log: String(contentsOfFile: golden, encoding: .utf8))
        #expect(events.filter { $0.kind == .exit }.map(\.time) == [t("12:04:48")])
    }

    @Test("The same through the built binary: exit 1 with the diff, then --update, then exit 0")
    func behaviourChangeBinary() throws {
        let folder = try copyOfTheRepositoryScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try PerimeterProcess.run(["check", "Scenarios/"], in: folder).status == 0)
        try edit(folder.appendingPathComponent("Scenarios/lorrenzillos.yaml"), circleLine,
                 circleLine + "    hysteresis: 50\n")
        let failed = try PerimeterProcess.run(["check", "Scenarios/", "--junit", "junit.xml"], in: folder)
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stdout == """
            FAIL Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)
                the events differ from the golden log Scenarios/lorrenzillos.events.jsonl (2 moved):
                  exit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)
                  visit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)
            1 scenario: 0 passed, 1 failed

            """)
        let xml = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(xml.contains("<failure message=\"the events differ from the golden log (2 moved)\" type=\"perimeter.check\">"))
        try validateJUnit(folder.appendingPathComponent("junit.xml").path)

        let update = try PerimeterProcess.run(["check", "--update", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n    updated the golden log"))
        let again = try PerimeterProcess.run(["check", "Scenarios"], in: folder)
        #expect(again.status == 0)
        #expect(again.stdout == "PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n1 scenario: 1 passed\n")
    }

    @Test("No golden log: the check fails and says how to record one; --update records it")
    func noGoldenLog() throws {
        let folder = try copyOfTheRepositoryScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"))
        let missing = try PerimeterProcess.run(["check", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("    no golden log; run `perimeter check --update Scenarios/lorrenzillos.yaml` to record one\n"))
        let recorded = try PerimeterProcess.run(["check", "--update", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(recorded.status == 0)
        #expect(recorded.stdout.contains("    recorded the golden log Scenarios/lorrenzillos.events.jsonl (5 events)\n"))
        let golden = try String(contentsOf: folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"), encoding: .utf8)
        let original = try String(contentsOf: packageRoot.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"), encoding: .utf8)
        #expect(golden == original)
    }

    @Test("Failed expectations are listed with their place; --update does not make them pass")
    func expectationFailures() throws {
        let folder = try copyOfTheRepositoryScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try edit(scenario, "  - {kind: visit, region: lorrenzillos, count: 1}\n",
                 "  - {kind: visit, region: lorrenzillos, count: 1}\n  - {kind: enter, region: lorrenzillos, at: \"12:01:00\", within: 20s}\n")
        let line = try String(contentsOf: scenario, encoding: .utf8).components(separatedBy: "\n")
            .firstIndex { $0.contains("12:01:00") }! + 1
        for update in [false, true] {
            let result = RegressionCheck(update: update).check(scenarioAt: scenario.path)
            #expect(result.status == .failed)
            #expect(result.headline == "1 of 7 expectations failed")
            #expect(result.details == [
                "expect[6], line \(line): expected enter of lorrenzillos at 12:01:00 ± 20 s; the nearest was at 12:01:57 (+57 s)",
            ])
        }
    }

    @Test("Exit codes: bad input wins over a failed check, which wins over a pass")
    func exitCodes() throws {
        let folder = try copyOfTheRepositoryScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "name: broken\nregions: []\ndevices: []\nprofil: ios\n"
            .write(to: folder.appendingPathComponent("Scenarios/broken.yaml"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["check", "Scenarios", "--junit", "junit.xml"], in: folder)
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("ERROR broken (Scenarios/broken.yaml)\n    Scenarios/broken.yaml:4:1: profil: unknown key \"profil\"; did you mean \"profile\"?"))
        #expect(result.stdout.hasSuffix("PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n2 scenarios: 1 passed, 1 with bad input\n"))
        try validateJUnit(folder.appendingPathComponent("junit.xml").path)
        #expect(try PerimeterProcess.run(["check", "Nowhere/"], in: folder).status == 2)

        let pass = CheckResult(path: "a.yaml", name: "a", status: .passed)
        let fail = CheckResult(path: "b.yaml", name: "b", status: .failed)
        let bad = CheckResult(path: "c.yaml", name: "c", status: .badInput)
        #expect(CheckSummary([pass]).exitCode == 0)
        #expect(CheckSummary([pass, fail]).exitCode == 1)
        #expect(CheckSummary([fail, bad, pass]).exitCode == 2)
        #expect(CheckSummary([fail, CheckResult(path: "d", name: "d", status: .writeFailed)]).exitCode == 3)
    }
}
