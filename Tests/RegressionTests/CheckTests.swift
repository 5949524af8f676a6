import Foundation
import Regression
import Runs
import TestSupport
import Testing
import TextEscaping
import WireFormat

@Suite("RegressionCheck")
struct CheckTests {
    @Test("The repository's scenarios pass against their golden logs")
    func repositoryPasses() throws {
        let (files, missing) = RegressionCheck.scenarioFiles(in: [
            PerimeterProcess.root.appendingPathComponent("Scenarios").path
        ])
        #expect(missing.isEmpty)
        #expect(!files.isEmpty)
        for file in files {
            let result = RegressionCheck(threads: 2).check(scenarioAt: file)
            #expect(result.status == .passed, "\(result.details)")
        }
    }

    @Test("A change of engine behaviour fails with a readable diff (library API); --update makes it pass")
    func behaviourChangeLibrary() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml").path
        let golden = folder.appendingPathComponent("Scenarios/lorrenzillos.events.jsonl").path
        #expect(RegressionCheck().check(scenarioAt: scenario).status == .passed)

        try RepositoryCopy.edit(
            URL(fileURLWithPath: scenario), RepositoryCopy.circleLine, RepositoryCopy.circleLine + "    hysteresis: 50\n")
        let failed = RegressionCheck().check(scenarioAt: scenario)
        #expect(failed.status == .failed)
        #expect(
            failed.headline == "the events differ from the golden log (2 moved); since it was recorded: the scenario changed"
        )
        #expect(
            failed.details == [
                "the events differ from the golden log \(golden) (2 moved); since it was recorded: the scenario changed:",
                "  exit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)",
                "  visit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)",
            ])

        let updated = RegressionCheck(update: true).check(scenarioAt: scenario)
        #expect(updated.status == .passed)
        #expect(updated.details.first == "updated the golden log \(golden) (2 moved):")
        #expect(RegressionCheck().check(scenarioAt: scenario).status == .passed)
        // What --update wrote is exactly what `perimeter run --sink jsonl:` writes.
        let events = try JSONLines.decode(log: String(contentsOfFile: golden, encoding: .utf8))
        #expect(events.filter { $0.kind == .exit }.map(\.time) == [t("12:04:48")])
    }

    @Test("Failed expectations are listed with their place; --update does not make them pass")
    func expectationFailures() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "  - {kind: visit, region: lorrenzillos, count: 1}\n",
            "  - {kind: visit, region: lorrenzillos, count: 1}\n  - {kind: enter, region: lorrenzillos, at: \"12:01:00\", within: 20s}\n"
        )
        let line =
            try String(contentsOf: scenario, encoding: .utf8).components(separatedBy: "\n")
            .firstIndex { $0.contains("12:01:00") }! + 1
        for update in [false, true] {
            let result = RegressionCheck(update: update).check(scenarioAt: scenario.path)
            #expect(result.status == .failed)
            #expect(result.headline == "1 of 7 expectations failed")
            // The scenario changed, so --update records what the (unchanged) golden log is now made from.
            let record = folder.appendingPathComponent("Scenarios/lorrenzillos.events.inputs.json").path
            #expect(
                result.details == (update ? ["recorded what it was made from in \(record)"] : []) + [
                    "expect[6], line \(line): expected enter of lorrenzillos at 12:01:00 ± 20 s; the nearest was at 12:01:57 (+57 s)"
                ])
        }
    }

    @Test("A probability is measured over the scenario's runs, and said, passed or failed, in the JUnit report too")
    func probabilities() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "expect:\n",
            """
            noise: {sigma: 25m, seed: 5, correlation: 30s}
            runs: 20
            expect:
              - {kind: enter, region: lorrenzillos, count: 1, probability: {atLeast: 0.95}}
              - {kind: enter, region: lorrenzillos, count: 2, probability: {atLeast: 0.5}}

            """)
        let lines = try String(contentsOf: scenario, encoding: .utf8).components(separatedBy: "\n")
        let first = lines.firstIndex { $0.contains("atLeast: 0.95") }! + 1
        let result = RegressionCheck(update: true).check(scenarioAt: scenario.path)
        #expect(result.status == .failed)
        #expect(result.headline == "1 of 8 expectations failed")
        let held = "expect[0], line \(first): 1 enter of lorrenzillos held in 20 of 20 runs (1.0; expected at least 0.95)"
        let failed =
            "expect[1], line \(first + 1): 2 enters of lorrenzillos held in 0 of 20 runs (0.0; expected at least 0.5)"
        #expect(result.measurements == [held, failed])
        #expect(result.details.last == failed)
        let xml = JUnitReport.xml([result])
        let name = "\(result.name) (\(scenario.path))"
        #expect(
            xml.contains(
                "  <system-out>\(XMLEscaping.text(name)): \(held)\n\(XMLEscaping.text(name)): \(failed)</system-out>\n  <system-err/>\n</testsuite>"
            ))
        // One testcase per expectation (issue 42 item 14): the failed one's message is its own line.
        #expect(xml.contains("<failure message=\"\(XMLEscaping.attribute(failed))\""))
        #expect(xml.contains("tests=\"8\" failures=\"1\""))  // 6 plain expectations and 2 measured; no golden log read
        #expect(
            xml.contains(
                "name=\"\(XMLEscaping.attribute(name)): expect[0]: 1 enter of lorrenzillos over 20 runs\""))
        // Valid against the Ant schema, which allows output only at the suite's end.
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let junit = try JUnitSchema.validate(file.path)
        #expect(junit.valid, "\(junit.output)")
    }

    @Test("A probability says when runs had more than one matching event: each run counts once")
    func probabilityCountsRunsOnce() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "expect:\n",
            """
            noise: {sigma: 150m, seed: 3, correlation: 5s}
            runs: 20
            expect:
              - {kind: enter, region: lorrenzillos, between: ["12:00:00", "12:10:00"], probability: {atLeast: 0.5}}

            """)
        try RepositoryCopy.edit(scenario, "profile: ios-documented", "profile: ideal")
        // The runs with two or more enters, and the most in one run, counted here apart from the check.
        let batch = try MonteCarlo(ScenarioRun(loading: scenario.path), runs: 20)
        var repeated = 0, most = 0
        batch.forEachRun { _, events in
            let enters = events.count { $0.kind == .enter }
            if enters > 1 { repeated += 1 }
            most = max(most, enters)
        }
        try #require(repeated > 0, "the noise should make some runs enter more than once")
        let result = RegressionCheck(update: true).check(scenarioAt: scenario.path)
        let line = try #require(result.measurements.first)
        #expect(
            line.hasSuffix(
                "; each run counts once: \(repeated) of them had 2 or more enters of lorrenzillos (up to \(most))"),
            "\(line)")
    }
}
