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

    /// Issue 55 item 2: an unwritable `-o` or `--report` is exit 3, as every other output that cannot be
    /// written (it was 2, bad input), and the fit is still printed.
    @Test(arguments: [["-o", "missing/fitted.profile.yaml"], ["--report", "missing/fit.html"]])
    func anUnwritableOutputExitsThreeAndKeepsTheFit(output: [String]) throws {
        let (folder, scenario) = try study()
        let made = try PerimeterProcess.run(["run", scenario, "--sink", "jsonl:field.jsonl", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let result = try PerimeterProcess.run(
            [
                "calibrate", scenario, "--observed", "field.jsonl", "--fit", "hysteresis", "--runs", "2", "--bootstrap", "5",
                "--json",
            ] + output, in: folder)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("missing/"), "\(result.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "\(result.stdout)")
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

    /// A warehouse export (`;`, decimal commas, its own column names, local times, uppercase kinds, messy
    /// rows: Tests/CalibrationTests/Fixtures/field-logs/README.md) read with the fix tables' options: every
    /// bad row listed at once, each with its place; without `--delimiter` the header names the option.
    @Test func aWarehouseExportWithTheFixTableOptions() throws {
        let (folder, scenario) = try study()
        let export =
            FileManager.default.currentDirectoryPath + "/Tests/CalibrationTests/Fixtures/field-logs/warehouse-export.csv"
        let options = [
            "--delimiter", ";", "--decimal", ",", "--input-timezone", "Europe/Paris", "--columns",
            "device=Phone,region=Store,kind=Event Type,time=Local Time,detectedAt=Decided,lat=Latitude,lon=Longitude",
        ]
        let result = try PerimeterProcess.run(["calibrate", scenario, "--observed", export] + options, in: folder)
        #expect(result.status == 2)
        for place in [
            "warehouse-export.csv:6:18: no kind \"ENTRY\"", "warehouse-export.csv:7:24: \"Local Time\" is",
            "warehouse-export.csv:8:10: the region \"store-9\"", "3 problems in 3 rows; --skip-invalid skips",
        ] {
            #expect(result.stderr.contains(place), "\(result.stderr)")
        }
        let plain = try PerimeterProcess.run(["calibrate", scenario, "--observed", export], in: folder)
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("separated by ';': give --delimiter ';'"), "\(plain.stderr)")
        let wrong = try PerimeterProcess.run(
            ["calibrate", scenario, "--observed", export, "--columns", "speed=v"], in: folder)
        #expect(wrong.status == 64 && wrong.stderr.contains("\"speed\" is not a field log's value"), "\(wrong.stderr)")
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

    /// G8: a log with none of the events a fitted parameter needs, each with its --fit and the sentence's
    /// middle (what the log holds, and lacks for which parameter).
    static let evidenceless: [(id: String, log: String, fit: String?, says: String)] = [
        (
            "an empty log", "", "hysteresis,enterBuffer",
            "holds no events: it has no exit events, which hysteresis needs; and no enter events, which enterBuffer needs"
        ),
        (
            "an empty log, the base's default parameters", "", nil,
            "holds no events: it has no exit events, which hysteresis, missExit need; and no enter events, which enterBuffer, missEnter need"
        ),
        (
            "a log of visit rows only",
            "device,region,kind,time\nwalker-1,store-1,visit,2026-10-05T09:04:00Z\nwalker-2,store-2,visit,2026-10-05T09:06:00Z\n",
            "missEnter,confirmation",
            "holds 0 enter, exit or dwell events (and 2 rows of other kinds, skipped): it has no enter or exit events, which confirmation needs; and no enter events, which missEnter needs"
        ),
        (
            "a log of enters only", "device,region,kind,time\nwalker-1,store-1,enter,2026-10-05T09:04:00Z\n",
            "hysteresis,missEnter,missExit",
            "holds 1 enter, exit or dwell event: it has no exit events, which hysteresis, missExit need"
        ),
    ]

    @Test("G8: a log without the events a fitted parameter needs is refused (exit 2), naming the file", arguments: 0..<4)
    func aLogWithoutTheEvidenceIsRefused(_ index: Int) throws {
        let c = Self.evidenceless[index]
        let (folder, scenario) = try study()
        try c.log.write(to: folder.appendingPathComponent("field.csv"), atomically: true, encoding: .utf8)
        let fit = c.fit.map { ["--fit", $0] } ?? []
        let result = try PerimeterProcess.run(
            ["calibrate", scenario, "--observed", "field.csv", "--runs", "2", "--bootstrap", "10"] + fit, in: folder)
        #expect(result.status == 2, "\(c.id): \(result.stderr)")
        #expect(
            result.stderr
                == "error: field.csv: the field log \(c.says); fitted without them, each value would sit on its range's "
                + "bound, as if the phones had missed every crossing. Give a log of the phones' enters and exits, or "
                + "leave those parameters out of --fit\n", "\(c.id)")
        #expect(result.stdout.isEmpty, "no profile fitted")
    }

    @Test("G8: a fitted value on its range's bound is warned about")
    func aValueOnItsBoundIsWarned() throws {
        let (folder, scenario) = try study()
        // Phones that report almost no enter: 97 % missed, past the range's upper bound of 90 %.
        try "name: at-the-line\nbase: ios\nmissEnter: 0.97\n".write(
            to: folder.appendingPathComponent("line.profile.yaml"), atomically: true, encoding: .utf8)
        let made = try PerimeterProcess.run(
            ["run", scenario, "--profile", "line.profile.yaml", "--sink", "jsonl:field.jsonl", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let result = try PerimeterProcess.run(
            [
                "calibrate", scenario, "--observed", "field.jsonl", "--fit", "missEnter", "--runs", "4", "--bootstrap",
                "20", "--json",
            ], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "warning: missEnter was fitted to 0.87, but its interval (0.385 to 0.9) reaches the upper bound of its "
                + "range (0 to 0.9): the field log does not pin it; check that the log holds the crossings it needs, or "
                + "leave missEnter out of --fit\n")
    }
}
