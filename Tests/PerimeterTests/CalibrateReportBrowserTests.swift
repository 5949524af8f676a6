import Foundation
import TestSupport
import Testing

extension CalibrateCommandTests {
    /// `calibrate --report`: the page loads in headless Chromium offline without errors or requests, and
    /// each chart's curves (observed, fitted, base) have a drawn length.
    @Test func theReportPageLoadsInABrowser() throws {
        let (folder, scenario) = try study()
        let made = try PerimeterProcess.run(
            ["run", scenario, "--profile", "hidden.profile.yaml", "--sink", "jsonl:field.jsonl", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let result = try PerimeterProcess.run(
            [
                "calibrate", scenario, "--observed", "field.jsonl", "--fit", "hysteresis", "--runs", "4",
                "--seed", "1000", "--bootstrap", "30", "--report", "calibration.html",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let page = folder.appendingPathComponent("calibration.html").path
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("--report calibration.html"), "the command line is on the page")
        let seen = try BrowserCheck.run(page, screenshot: folder.appendingPathComponent("page.png").path)
        #expect(seen.errors.isEmpty, "\(seen.errors)")
        #expect(seen.requests.isEmpty, "nothing leaves the page: \(seen.requests)")
        // Delay and distance for enter and exit, and the lag (run's log writes detectedAt for late events).
        let charts = html.components(separatedBy: "<svg class=\"chart\"").count - 1
        #expect(charts == 6 && seen.charts == charts)
        #expect(seen.curves == 3 * charts, "observed, fitted and base in each chart, each with a drawn length")
        #expect((seen.screenshotColours ?? 0) > 20, "the picture is not blank")
    }
}
