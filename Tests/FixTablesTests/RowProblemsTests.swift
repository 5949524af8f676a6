import FileSystem
import FixTables
import Foundation
import TestSupport
import Testing

/// Every problem of a fix table's rows found in one read, in file order, whatever the pieces; or, with
/// `skipInvalid`, the bad rows skipped and counted, the good rows read as a table without them.
@Suite("A fix table's bad rows, all at once")
struct RowProblemsTests {
    /// The example fleet's rows (24 vans, 8,664 rows).
    static let vans = try! String(contentsOfFile: PerimeterProcess.root.path + "/Tracks/vans.csv", encoding: .utf8)

    static let tables: [(name: String, table: BadRowsTable)] = [
        ("bad.csv", BadRowsTable.csv(vans)), ("bad.jsonl", BadRowsTable.jsonLines(vans)),
    ]

    /// The devices and fixes (time, place, accuracy; not their lines) of a table.
    static func content(_ table: FixTable) -> [String] {
        table.devices.indices.flatMap { device in
            table.fixes(ofDevice: device).map {
                "\(table.devices[device]) \($0.time) \($0.latitude) \($0.longitude) \(String(describing: $0.accuracy))"
            }
        }
    }

    @Test("25 bad rows: 20 problems in file order with their places, then the count of the rest", arguments: [0, 1])
    func everyProblem(which: Int) throws {
        let (name, bad) = Self.tables[which]
        let path = try table(bad.text, name: name)
        let error = try #require(throws: FixTableError.self) { try FixTableReader(path: path).read() }
        #expect(error.problemCount == 25)
        let lines = error.lines
        #expect(lines.count == 21)
        #expect(lines.prefix(20).map { $0.split(separator: ":")[1] } == bad.badLines.prefix(20).map { Substring("\($0)") })
        #expect(lines.prefix(20).allSatisfy { $0.hasPrefix(path + ":") })
        #expect(
            lines[20]
                == "and 5 more problems in \(path); skip: invalid on the fix-table entry (or --skip-invalid) skips the rows that have one"
        )
        if which == 0 {
            #expect(lines[0] == "\(path):\(bad.badLines[0]):29: \"lat\" is \"north\", which is not a number")
        }
    }

    @Test("skipInvalid: the good rows read as the table without the bad ones, the skipped counted", arguments: [0, 1])
    func skipped(which: Int) throws {
        let (name, bad) = Self.tables[which]
        var columns = FixTableColumns()
        columns.skipInvalid = true
        let path = try table(bad.text, name: name)
        let read = try FixTableReader(path: path, columns: columns).read()
        let clean = try FixTableReader(path: try table(bad.clean, name: name)).read()
        #expect(read.skippedRows == 25)
        #expect(read.devices == clean.devices)
        #expect(Self.content(read) == Self.content(clean))
        let warning = try #require(read.tableWarnings.first { $0.contains("skipped") })
        #expect(
            warning.hasPrefix(
                "\(path): 25 rows with a problem skipped (skip: invalid); the first: \(path):\(bad.badLines[0]):"))
    }

    @Test("a table of over 4 MiB gives the same problems in any number of pieces", arguments: [0, 1])
    func samePiecesOrNot(which: Int) throws {
        let (name, bad) = Self.tables[which]
        // Twelve copies of the fleet, each its own devices: over 4 MiB, 300 bad rows.
        let rows = Self.vans.split(separator: "\n")
        let big = [String(rows[0])] + (0..<12).flatMap { copy in rows.dropFirst().map { "c\(copy)-" + $0 } }
        let table =
            which == 0
            ? BadRowsTable.csv(big.joined(separator: "\n") + "\n", count: 300)
            : BadRowsTable.jsonLines(big.joined(separator: "\n") + "\n", count: 300)
        let path = try FixTablesTests.table(table.text, name: name)
        #expect(table.text.utf8.count > 4 << 20)
        let errors = try [1, 2, 5, 32, nil].map { pieces in
            try #require(throws: FixTableError.self) { try FixTableReader(path: path, pieces: pieces).read() }
        }
        #expect(errors[0].problemCount == 300)
        #expect(errors[0].lines.prefix(20).map { Int($0.split(separator: ":")[1]) } == table.badLines.prefix(20).map { $0 })
        for error in errors.dropFirst() { #expect(error.lines == errors[0].lines) }
        var columns = FixTableColumns()
        columns.skipInvalid = true
        let skipped = try [1, 5, nil].map { try FixTableReader(path: path, columns: columns, pieces: $0).read() }
        for read in skipped.dropFirst() {
            #expect(read.skippedRows == 300)
            #expect(read.tableWarnings == skipped[0].tableWarnings)
            #expect(Self.content(read) == Self.content(skipped[0]))
        }
        _ = bad
    }
}
