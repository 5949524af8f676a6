import Foundation
import Regression
import TestSupport
import Testing

@Suite("perimeter check")
struct CheckCommandTests {
    @Test("The same through the built binary: exit 1 with the diff, then --update, then exit 0")
    func behaviourChangeBinary() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try PerimeterProcess.run(["check", "Scenarios/"], in: folder).status == 0)
        try RepositoryCopy.edit(
            folder.appendingPathComponent("Scenarios/lorrenzillos.yaml"), RepositoryCopy.circleLine,
            RepositoryCopy.circleLine + "    hysteresis: 50\n")
        let failed = try PerimeterProcess.run(["check", "Scenarios/", "--junit", "junit.xml"], in: folder)
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(
            failed.stdout == """
                FAIL Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)
                    the events differ from the golden log Scenarios/lorrenzillos.events.jsonl (2 moved); since it was recorded: the scenario changed:
                      exit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)
                      visit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)
                1 scenario: 0 passed, 1 failed

                """)
        let xml = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(
            xml.contains(
                "<failure message=\"the events differ from the golden log (2 moved); since it was recorded: the scenario changed\" type=\"perimeter.check\">"
            ))
        let junit = try JUnitSchema.validate(folder.appendingPathComponent("junit.xml").path)
        #expect(junit.valid, "\(junit.output)")

        let update = try PerimeterProcess.run(["check", "--update", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(
            update.stdout.hasPrefix("PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n    updated the golden log"))
        let again = try PerimeterProcess.run(["check", "Scenarios"], in: folder)
        #expect(again.status == 0)
        #expect(again.stdout == "PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n1 scenario: 1 passed\n")
    }

    @Test("No golden log: the check fails and says how to record one; --update records it")
    func noGoldenLog() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"))
        let missing = try PerimeterProcess.run(["check", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains(
                "    no golden log; run `perimeter check --update Scenarios/lorrenzillos.yaml` to record one, or check "
                    + "the expectations alone with --expectations-only\n"))
        let recorded = try PerimeterProcess.run(["check", "--update", "Scenarios/lorrenzillos.yaml"], in: folder)
        #expect(recorded.status == 0)
        #expect(recorded.stdout.contains("    recorded the golden log Scenarios/lorrenzillos.events.jsonl (5 events)\n"))
        let golden = try String(
            contentsOf: folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"), encoding: .utf8)
        let original = try String(
            contentsOf: PerimeterProcess.root.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl"), encoding: .utf8)
        #expect(golden == original)
    }

    @Test("Exit codes: bad input wins over a failed check, which wins over a pass")
    func exitCodes() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "name: broken\nregions: []\ndevices: []\nprofil: ios\n"
            .write(to: folder.appendingPathComponent("Scenarios/broken.yaml"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["check", "Scenarios", "--junit", "junit.xml"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stdout.hasPrefix(
                "ERROR broken (Scenarios/broken.yaml)\n    Scenarios/broken.yaml:4:1: profil: unknown key \"profil\"; did you mean \"profile\"?"
            ))
        #expect(
            result.stdout.hasSuffix(
                "PASS Lunch at Lorrenzillo's (Scenarios/lorrenzillos.yaml)\n2 scenarios: 1 passed, 1 with bad input\n"))
        let junit = try JUnitSchema.validate(folder.appendingPathComponent("junit.xml").path)
        #expect(junit.valid, "\(junit.output)")
        #expect(try PerimeterProcess.run(["check", "Nowhere/"], in: folder).status == 2)

        let pass = CheckResult(path: "a.yaml", name: "a", status: .passed)
        let fail = CheckResult(path: "b.yaml", name: "b", status: .failed)
        let bad = CheckResult(path: "c.yaml", name: "c", status: .badInput)
        #expect(CheckSummary([pass]).exitCode == 0)
        #expect(CheckSummary([pass, fail]).exitCode == 1)
        #expect(CheckSummary([fail, bad, pass]).exitCode == 2)
        #expect(CheckSummary([fail, CheckResult(path: "d", name: "d", status: .writeFailed)]).exitCode == 3)
    }

    @Test("An event log given to check is said to be one, with the scenario to pass instead")
    func eventLogGiven() throws {
        let result = try PerimeterProcess.run(["check", "Scenarios/lorrenzillos.events.jsonl"])
        #expect(result.status == 2)
        #expect(
            result.stdout.contains(
                "Scenarios/lorrenzillos.events.jsonl: this is an event log (JSON Lines), "
                    + "not a scenario; check takes the scenario (Scenarios/lorrenzillos.yaml)"), "\(result.stdout)")
        #expect(!result.stdout.contains("YAML syntax error"))
    }
}
