import FileSystem
import FixTables
import Foundation
import TestSupport
import Testing

/// Apache Parquet given where a fix table is read: recognised by its magic bytes (`PAR1`), its name or a
/// folder of parts, and refused with what to do instead, never parsed as CSV (standard input's case, told by its first bytes, is
/// `perimeter stream`'s: PerimeterTests' `ParquetCommandTests`). The fixtures are real
/// Parquet files (pyarrow 26, snappy), made from `fleet.csv`: `parquet/fleet.parquet` and the same rows
/// as a hive-partitioned folder, `parquet/fleet/date=2024-05-01/part-0.parquet`.
@Suite("Fix tables in Parquet")
struct ParquetTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        /// The path, from the fixture folder (a copy under another name when `copyAs` is given).
        var fixture: String
        var copyAs: String? = nil
        var format: FixTableFormat? = nil
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "a .parquet file", fixture: "parquet/fleet.parquet"),
        Case(id: "a folder of parts (hive-partitioned)", fixture: "parquet/fleet"),
        Case(id: "Parquet named .csv: told by its bytes", fixture: "parquet/fleet.parquet", copyAs: "fleet.csv"),
        Case(
            id: "Parquet named .txt with format: csv given: told at its first byte", fixture: "parquet/fleet.parquet",
            copyAs: "fleet.txt", format: .csv),
        Case(
            id: "format: jsonl given", fixture: "parquet/fleet.parquet", copyAs: "fleet.data", format: .jsonLines),
    ]

    @Test("Refused with the recipe, naming the file", arguments: cases)
    func refused(_ c: Case) throws {
        var path = fixture(c.fixture)
        if let name = c.copyAs {
            path = try table("", name: name)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: fixture(c.fixture), toPath: path)
        }
        #expect(ParquetFile.isParquet(path: path))
        let error = try #require(throws: FixTableError.self) {
            try FixTableReader(path: path, format: c.format).read()
        }
        #expect(error.place.file == path)
        #expect(error.place.line == 0 && error.place.column == 0)  // the whole file
        #expect(error.message.hasPrefix("this is Apache Parquet, which Perimeter does not read: convert it with "))
        #expect(error.message.contains("python3 Scripts/parquet-rows.py \(path) > rows.csv"))
    }

    @Test(
        "What is not Parquet is not taken for it",
        arguments: [
            ("fleet.csv", true), ("fleet.jsonl", true), ("an empty folder", false),
        ])
    func notParquet(_ name: String, _ isFile: Bool) throws {
        let path = isFile ? fixture(name) : try TemporaryFolders.make("not-parquet").path
        #expect(!ParquetFile.isParquet(path: path))
        #expect(!ParquetFile.starts(Array("device,time\n".utf8)))
        #expect(ParquetFile.starts(ParquetFile.magic + [0x15, 0x04]))
    }
}
