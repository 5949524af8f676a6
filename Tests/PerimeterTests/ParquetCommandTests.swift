import Calibration
import Foundation
import TestSupport
import Testing

/// Apache Parquet where Perimeter reads a table (README "Fix tables and field logs in Parquet"): every
/// command that reads fixes or a field log refuses it with exit 2, the place, and the recipe; nothing is
/// parsed as CSV. `calibrate --observed -` reads a field log from standard input, where that recipe pipes it.
@Suite("Fix tables and field logs in Parquet")
struct ParquetCommandTests {
    /// The real Parquet fixture of FixTablesTests (pyarrow 26, snappy), a folder of parts, the same file
    /// named fleet.csv, the CSV it was made from (table.csv), and a scenario whose device reads
    /// `fixes: FIXES`, in a fresh folder.
    static func folder(fixes: String) throws -> URL {
        let folder = try TemporaryFolders.make("parquet")
        let fixtures = PerimeterProcess.root.appendingPathComponent("Tests/FixTablesTests/Fixtures/parquet")
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("fleet.parquet"), to: folder.appendingPathComponent("fleet.parquet"))
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("fleet"), to: folder.appendingPathComponent("fleet"))
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("fleet.parquet"), to: folder.appendingPathComponent("fleet.csv"))
        try FileManager.default.copyItem(
            at: fixtures.deletingLastPathComponent().appendingPathComponent("fleet.csv"),
            to: folder.appendingPathComponent("table.csv"))
        try """
        name: parquet
        start: 2024-05-01T09:00:00Z
        regions:
          - id: depot
            circle: {lat: 59.93, lon: 30.33, radius: 100}
        devices:
          - fixes: \(fixes)

        """.write(to: folder.appendingPathComponent("fleet.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var fixes = "fleet.parquet"
        var arguments: [String]
        var standardInput: String? = nil
        /// The error's beginning: the place, then the sentence.
        var says: String
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "inspect a .parquet file", arguments: ["inspect", "fleet.parquet"],
            says: "error: fleet.parquet: this is Apache Parquet"),
        Case(
            id: "inspect a folder of parts", arguments: ["inspect", "fleet"], says: "error: fleet: this is Apache Parquet"),
        Case(
            id: "inspect Parquet named .csv", arguments: ["inspect", "fleet.csv"],
            says: "error: fleet.csv: this is Apache Parquet"),
        Case(
            id: "a scenario's fixes: a .parquet file", arguments: ["validate", "fleet.yaml"],
            says: "fleet.yaml:7:12: devices[0].fixes: "),
        Case(
            id: "a scenario's fixes: a folder of parts", fixes: "fleet", arguments: ["run", "fleet.yaml"],
            says: "fleet.yaml:7:12: devices[0].fixes: "),
        Case(
            id: "stream with Parquet on standard input", arguments: ["stream", "fleet.yaml"],
            standardInput: "fleet.parquet", says: "error: standard input:1:1: this is Apache Parquet"),
        Case(
            id: "calibrate --observed a .parquet file", fixes: "table.csv",
            arguments: ["calibrate", "fleet.yaml", "--observed", "fleet.parquet"],
            says: "fleet.parquet:1:1: this is Apache Parquet"),
    ]

    @Test("Refused with exit 2, the place and the recipe", arguments: cases)
    func refused(_ c: Case) throws {
        let folder = try Self.folder(fixes: c.fixes)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PerimeterProcess.run(
            c.arguments, in: folder, standardInput: c.standardInput.map { folder.appendingPathComponent($0).path })
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(c.says), "\(result.stderr)")
        #expect(result.stderr.contains("Scripts/parquet-rows.py"), "\(result.stderr)")
        #expect(!result.stderr.contains("NUL"), "\(result.stderr)")
    }

    @Test("calibrate --observed - reads the field log on standard input, as it reads the file")
    func observedFromStandardInput() throws {
        let folder = try TemporaryFolders.make("calibrate-stdin")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try SyntheticFieldStudy(fences: 4, walks: 12, seed: 3).write(into: folder.path)
        let made = try PerimeterProcess.run(
            ["run", scenario, "--profile", "ios", "--sink", "jsonl:field.jsonl", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let fit = ["--fit", "hysteresis", "--runs", "3", "--seed", "1000", "--bootstrap", "20", "--json"]
        let fromFile = try PerimeterProcess.run(["calibrate", scenario, "--observed", "field.jsonl"] + fit, in: folder)
        let fromInput = try PerimeterProcess.run(
            ["calibrate", scenario, "--observed", "-"] + fit, in: folder,
            standardInput: folder.appendingPathComponent("field.jsonl").path)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromInput.status == 0, "\(fromInput.stderr)")
        // The same fit; only the log's name differs where the output names it.
        #expect(
            fromInput.stdout.replacingOccurrences(of: ObservedLog.standardInputName, with: "field.jsonl")
                == fromFile.stdout)
        let twice = try PerimeterProcess.run(
            ["calibrate", scenario, "--observed", "-", "--observed", "-"], in: folder)
        #expect(twice.status == 64 && twice.stderr.contains("standard input (-) can be read once"), "\(twice.stderr)")
    }
}
