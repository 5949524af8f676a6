import Foundation
import TestSupport
import Testing

/// A fix table's bad rows through the real binary: `inspect`, `run` (a scenario's `fixes:` entry) and
/// `stream` list every problem at once (20, then the count of the rest, exit 2); `--skip-invalid` and
/// `skip: invalid` skip them, counted in a warning, and the good rows give the events of a table without them.
@Suite("A fix table's bad rows on the command line")
struct RowProblemsCommandTests {
    static let vans = try! String(contentsOfFile: PerimeterProcess.root.path + "/Tracks/vans.csv", encoding: .utf8)

    /// The example fleet's scenario (`StreamCommandTests.fleetScenario`) reading `table` (written as `name`).
    static func scenario(_ table: String, name: String, entry: String = "") throws -> (yaml: String, table: String) {
        let folder = try PerimeterProcess.temporaryFolder()
        _ = try StreamCommandTests.fleetScenario(in: folder, devices: false)
        let tablePath = folder.appendingPathComponent(name).path
        try table.write(toFile: tablePath, atomically: true, encoding: .utf8)
        let regions = try String(contentsOfFile: folder.appendingPathComponent("regions-only.yaml").path, encoding: .utf8)
        let yaml = folder.appendingPathComponent("fleet-\(name).yaml").path
        try (regions + "devices:\n  - {fixes: \(name)\(entry)}\n").write(toFile: yaml, atomically: true, encoding: .utf8)
        return (yaml, tablePath)
    }

    /// The `error:` lines of `arguments`' run, which must refuse the table (exit 2) with 20 problems and
    /// the count of the rest, each of the 20 naming in `path` the line of one of `bad`'s bad rows, in order.
    static func problems(_ arguments: [String], in path: String, of bad: BadRowsTable) throws -> [Substring] {
        let refused = try PerimeterProcess.run(arguments)
        #expect(refused.status == 2)
        let errors = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 21, "\(refused.stderr)")
        let lines = errors.prefix(20).compactMap { error in
            error.range(of: path + ":").flatMap { Int(error[$0.upperBound...].prefix { $0 != ":" }) }
        }
        #expect(lines == Array(bad.badLines.prefix(20)))
        return errors
    }

    /// The bad table of `format` (`csv`, `jsonl`), with a scenario reading it.
    static func badTable(_ format: String) throws -> (bad: BadRowsTable, yaml: String, path: String) {
        let bad = format == "csv" ? BadRowsTable.csv(Self.vans) : BadRowsTable.jsonLines(Self.vans)
        let (yaml, path) = try Self.scenario(bad.text, name: "bad.\(format)")
        return (bad, yaml, path)
    }

    @Test(
        "inspect lists 20 problems in file order, then the count of the rest; --skip-invalid reads the good rows",
        arguments: ["csv", "jsonl"])
    func inspect(format: String) throws {
        let (bad, _, path) = try Self.badTable(format)
        let errors = try Self.problems(["inspect", path], in: path, of: bad)
        #expect(errors.last == "error: and 5 more problems in \(path); --skip-invalid skips the rows that have one")
        let skipped = try PerimeterProcess.run(["inspect", path, "--skip-invalid"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("8664 fixes kept, 25 skipped for a problem"))
        #expect(
            skipped.stderr.contains(
                "warning: \(path): 25 rows with a problem skipped (--skip-invalid); the first: \(path):\(bad.badLines[0]):"))
    }

    @Test(
        "run lists them at the scenario's fixes: entry; skip: invalid and --skip-invalid give the clean table's events",
        arguments: ["csv", "jsonl"])
    func run(format: String) throws {
        let (bad, yaml, path) = try Self.badTable(format)
        let errors = try Self.problems(["run", yaml, "--sink", "jsonl:-", "--quiet"], in: path, of: bad)
        #expect(errors.prefix(20).allSatisfy { $0.contains("cannot read the fix table: \(path):") })
        #expect(
            errors.last?.hasSuffix(
                "and 5 more problems in \(path); skip: invalid on the fix-table entry (or --skip-invalid) skips the rows that have one"
            ) == true)
        let (cleanYaml, _) = try Self.scenario(bad.clean, name: "clean.\(format)")
        let clean = try PerimeterProcess.run(["run", cleanYaml, "--sink", "jsonl:-", "--quiet"])
        #expect(clean.status == 0, "\(clean.stderr)")
        let (skipYaml, skipPath) = try Self.scenario(bad.text, name: "bad.\(format)", entry: ", skip: invalid")
        let skipped = try PerimeterProcess.run(["run", skipYaml, "--sink", "jsonl:-"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.split(separator: "\n").count > 400)
        #expect(skipped.stdout == clean.stdout)
        #expect(
            skipped.stderr.contains(
                "\(skipPath): 25 rows with a problem skipped (skip: invalid); the first: \(skipPath):\(bad.badLines[0]):"))
        let option = try PerimeterProcess.run([
            "run", yaml, "--sink", "jsonl:-", "--quiet", "--skip-invalid", "--threads", "1",
        ])
        #expect(option.status == 0, "\(option.stderr)")
        #expect(option.stdout == clean.stdout)
    }

    @Test("stream --skip-invalid gives the events of the table without its bad rows; without it, exit 2")
    func stream() throws {
        let bad = BadRowsTable.csv(Self.vans)
        let (_, path) = try Self.scenario(bad.text, name: "bad.csv")
        let (_, cleanPath) = try Self.scenario(bad.clean, name: "clean.csv")
        let regions = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("regions-only.yaml").path
        let start = StreamCommandTests.fleetStart
        let clean = try PerimeterProcess.run(["stream", regions, "--start", start], standardInput: cleanPath)
        #expect(clean.status == 0, "\(clean.stderr)")
        let skipped = try PerimeterProcess.run(["stream", regions, "--start", start, "--skip-invalid"], standardInput: path)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == clean.stdout)
        #expect(skipped.stderr.contains("25 rows with a problem skipped (--skip-invalid); the first: "))
        let refused = try PerimeterProcess.run(["stream", regions, "--start", start], standardInput: path)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains(":\(bad.badLines[0]):29: \"lat\" is \"north\", which is not a number"))
    }
}
