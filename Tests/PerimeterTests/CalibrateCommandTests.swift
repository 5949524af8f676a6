import Calibration
import Foundation
import TestSupport
import Testing

/// `perimeter calibrate` end to end: a field log written by `perimeter run --sink jsonl:` under a hidden
/// profile file, calibrated back; its profile file run again; bad logs and names refused.
@Suite("perimeter calibrate, end to end")
struct CalibrateCommandTests {
    /// The synthetic study (12 walks through 4 stores, noise seed 7) and a hidden profile file: ios with
    /// hysteresis 90 m.
    func study() throws -> (folder: URL, scenario: String) {
        let folder = try TemporaryFolders.make("calibrate")
        let scenario = try SyntheticFieldStudy(fences: 4, walks: 12, seed: 3).write(into: folder.path)
        try "name: hidden\nbase: ios-gps\nhysteresis: 90m\n".write(
            to: folder.appendingPathComponent("hidden.profile.yaml"), atomically: true, encoding: .utf8)
        return (folder, scenario)
    }

    @Test func recoversAHiddenHysteresisFromItsOwnLog() throws {
        let (folder, scenario) = try study()
        let made = try PerimeterProcess.run(
            ["run", scenario, "--profile", "hidden.profile.yaml", "--sink", "jsonl:field.jsonl", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let result = try PerimeterProcess.run(
            [
                "calibrate", scenario, "--observed", "field.jsonl", "--fit", "hysteresis", "--runs", "6",
                "--seed", "1000", "--bootstrap", "60", "--json", "-o", "fitted.profile.yaml",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["base"] as? String == "ios-gps")
        let hysteresis = try #require((object["parameters"] as? [String: Any])?["hysteresis"] as? [String: Any])
        let low = try #require(hysteresis["low"] as? Double), high = try #require(hysteresis["high"] as? Double)
        #expect(low <= 90 && 90 <= high, "\(hysteresis)")
        #expect(hysteresis["unit"] as? String == "m" && hysteresis["base"] as? Double == 55)
        // The profile file it wrote runs.
        let again = try PerimeterProcess.run(
            ["run", scenario, "--profile", "fitted.profile.yaml", "--quiet", "--sink", "jsonl:again.jsonl"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        let text = try String(contentsOf: folder.appendingPathComponent("fitted.profile.yaml"), encoding: .utf8)
        #expect(text.contains("base: \"ios-gps\"") && text.contains("source: \"perimeter calibrate"))
    }

    @Test func aBadLogExitsTwoNamingThePlace() throws {
        let (folder, scenario) = try study()
        try
            "device,region,kind,time\nwalker-1,store-1,enter,2026-10-05T09:04:00Z\nwalker-1,stor-2,exit,2026-10-05T09:06:00Z\n"
            .write(to: folder.appendingPathComponent("field.csv"), atomically: true, encoding: .utf8)
        let result = try PerimeterProcess.run(["calibrate", scenario, "--observed", "field.csv"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "field.csv:3:10: the region \"stor-2\" is not in the scenario; did you mean \"store-2\"?"),
            "\(result.stderr)")
    }

    @Test func anUnknownParameterListsTheTable() throws {
        let (folder, scenario) = try study()
        let result = try PerimeterProcess.run(
            ["calibrate", scenario, "--observed", "field.jsonl", "--fit", "hysterisis"], in: folder)
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("did you mean \"hysteresis\"?") && result.stderr.contains("delivery.median"),
            "\(result.stderr)")
    }
}
