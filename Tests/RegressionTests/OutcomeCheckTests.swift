import Foundation
import Regression
import TestSupport
import Testing
import TextEscaping

@Suite("RegressionCheck: outcome expectations over the scenario's runs")
struct OutcomeCheckTests {
    @Test("An outcome is measured over the runs: the share, and the devices' quantiles, passed or failed, in JUnit too")
    func outcomes() throws {
        let folder = try RepositoryCopy.lorrenzillos()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("Scenarios/lorrenzillos.yaml")
        try RepositoryCopy.edit(
            scenario, "expect:\n",
            """
            noise: {sigma: 25m, seed: 5, correlation: 30s}
            runs: 20
            expect:
              - outcome: {region: lorrenzillos, kind: enter, devices: 1, probability: ">= 0.95"}
              - outcome: {region: lorrenzillos, kind: enter, devices: {exactly: 0}, probability: {atLeast: 0.5}}
              - outcome: {region: lorrenzillos, kind: visit, devices: {atMost: 1}, probability: "== 1"}

            """)
        let lines = try String(contentsOf: scenario, encoding: .utf8).components(separatedBy: "\n")
        let first = lines.firstIndex { $0.contains(">= 0.95") }! + 1
        let result = RegressionCheck(update: true).check(scenarioAt: scenario.path)
        #expect(result.status == .failed)
        #expect(result.headline == "1 of 9 expectations failed")
        // The phone enters in every run (as the probability test of CheckTests finds): 1 device in 20 of 20.
        let quantiles = "devices over 20 runs: p5 1, median 1, p95 1, mean 1.0"
        let held =
            "expect[0].outcome, line \(first): 1 device gets enter lorrenzillos held in 20 of 20 runs (1.0; expected at least 0.95); \(quantiles)"
        let failed =
            "expect[1].outcome, line \(first + 1): 0 devices get enter lorrenzillos held in 0 of 20 runs (0.0; expected at least 0.5); \(quantiles)"
        #expect(result.measurements.count == 3)
        #expect(Array(result.measurements.prefix(2)) == [held, failed])
        #expect(
            result.measurements[2].hasPrefix(
                "expect[2].outcome, line \(first + 2): at most 1 device gets visit lorrenzillos held in 20 of 20 runs (1.0; expected 1.0)"
            ))
        #expect(result.details.last == failed)
        #expect(result.measured.map(\.passed) == [true, false, true])
        let xml = JUnitReport.xml([result])
        #expect(xml.contains("\(XMLEscaping.text(held))\n"))
        #expect(xml.contains("<failure message=\"\(XMLEscaping.attribute(failed))\""))  // a testcase per expectation
        let file = try PerimeterProcess.temporaryFolder().appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let junit = try JUnitSchema.validate(file.path)
        #expect(junit.valid, "\(junit.output)")
    }
}
