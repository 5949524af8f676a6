import Calibration
import Foundation
import Geofencing
import Runs
import TestSupport
import Testing

@testable import Report

private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

/// A small field study: the synthetic study (6 walks through 3 stores) walked by ios with hysteresis 80 m,
/// its enters and exits written as a field log with free columns, one of them hostile markup.
private func fieldStudy() throws -> (scenario: String, log: String) {
    let folder = try TemporaryFolders.make("calibration-page")
    let scenario = try SyntheticFieldStudy(fences: 3, walks: 6, seed: 3).write(into: folder.path)
    var run = try ScenarioRun(loading: scenario)
    run.simulation.profile.settings.hysteresis = 80
    let events = run.events(threads: 1).events.filter { $0.kind == .enter || $0.kind == .exit }
    let log = folder.appendingPathComponent("field.jsonl").path
    try events.enumerated().map { i, event in
        "{\"device\":\"\(event.device)\",\"region\":\"\(event.region)\",\"kind\":\"\(event.kind)\",\"time\":\"\(event.time.iso8601)\","
            + "\"platform\":\"\(i % 3 == 0 ? "android" : "ios")\",\"model\":\"<script>alert(1)</script>\"}\n"
    }.joined().write(toFile: log, atomically: true, encoding: .utf8)
    return (scenario, log)
}

/// Hysteresis fitted back from the study's log (4 runs a candidate, 30 replicates).
private func calibration(_ study: (scenario: String, log: String), threads: Int = 2) throws -> CalibrationResult {
    var options = Calibration.Options()
    options.runs = 4
    options.seed = 1000
    options.threads = threads
    options.replicates = 30
    let problem = try Calibration(
        run: try ScenarioRun(loading: study.scenario), log: try ObservedLog.read([study.log]), base: .iosGPS,
        parameters: [CalibrationParameter.named("hysteresis")!], options: options)
    return problem.fit()
}

@Suite("perimeter calibrate --report: the page")
struct CalibrationPageTests {
    @Test func thePageHasItsTablesChartsAndNothingExternal() throws {
        let result = try calibration(try fieldStudy())
        let html = CalibrationPage(
            result, commandLine: ["perimeter", "calibrate", "store.yaml", "--observed", "field log.jsonl"]
        ).html()
        // Charts: delay and distance per kind (the log has no detectedAt: no lag), one curve per side that reported.
        let d = result.distributions
        #expect(!d.hasLag)
        let charts = d.kinds.count * 2
        let curves = d.kinds.map { k in
            [k.observed, k.fitted, k.base].map { s in (0..<2).filter { s.quantiles[$0] != nil }.count }.reduce(0, +)
        }.reduce(0, +)
        #expect(count("<svg class=\"chart\"", in: html) == charts)
        #expect(count("<path class=\"curve ", in: html) == curves)
        #expect(curves > 0)
        #expect(!html.contains("d=\"\""), "every path has a shape")
        #expect(count("<title>", in: html) == 1 + charts + curves, "the page's, each chart's, each curve's")
        // Tables: parameters, a detection table per kind, a percentile table per chart, the discrepancy, one per free column.
        #expect(result.freeColumns.map(\.column) == ["model", "platform"])
        #expect(count("<table", in: html) == 1 + d.kinds.count + charts + 1 + result.freeColumns.count)
        #expect(count("<caption>", in: html) == count("<table", in: html))
        #expect(html.contains("<th scope=\"row\">hysteresis</th><td>m</td>"))
        let platforms = try #require(result.freeColumns.last).counts
        let models = try #require(result.freeColumns.first).counts
        #expect(models.count == 1 && platforms.map(\.value) == ["ios", "android"], "the most frequent first")
        #expect(platforms.map(\.events).reduce(0, +) == models[0].events, "every event has both columns")
        #expect(html.contains("<th scope=\"row\">\(platforms[0].value)</th><td>\(platforms[0].events)</td>"))
        // Held-out crossings are compared when there are any.
        #expect(html.contains("predicted (held out)") == (result.crossings.holdout > 0))
        // Nothing external, the hostile column is text, the command line is quoted.
        let local = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for external in ["http:", "https:", "src=", "href=", "url("] { #expect(!local.contains(external), "\(external)") }
        #expect(count("<script", in: html) == 1, "only the page's own script")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("perimeter calibrate store.yaml --observed 'field log.jsonl'"))
    }

    @Test func theSameSeedGivesTheSameBytesOnAnyThreads() throws {
        let study = try fieldStudy()
        let one = CalibrationPage(try calibration(study, threads: 1), commandLine: ["perimeter"]).html()
        let two = CalibrationPage(try calibration(study, threads: 2), commandLine: ["perimeter"]).html()
        #expect(one == two)
    }
}
