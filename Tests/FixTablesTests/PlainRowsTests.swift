import Draws
import Testing
import Time

@testable import FixTables

/// A CSV's plain rows, read on their fast path (`CSVFixes.plainRecords`, `addPlain`), give the table (or the
/// error) that the general path alone gives: the same devices, fixes, lines, warnings and counts.
@Suite("Plain CSV rows")
struct PlainRowsTests {
    /// `FixTableBuilder`, counting the plain rows it takes; with `plain` false it takes none, so that every
    /// row goes the general way.
    struct Sink: FixRowSink {
        var builder: FixTableBuilder
        let plain: Bool
        var plainRows = 0

        mutating func add(
            device: RowField?, time: RowField?, lat: RowField?, lon: RowField?, accuracy: RowField?,
            line: Int, rowEnd: (line: Int, column: Int)
        ) throws(FixTableError) {
            try builder.add(device: device, time: time, lat: lat, lon: lon, accuracy: accuracy, line: line, rowEnd: rowEnd)
        }
        var deviceEnded: Bool { builder.deviceEnded }
        mutating func refused(device: RowField?) { builder.refused(device: device) }
        mutating func rowProblem(_ problem: FixTableError) -> Bool { builder.rowProblem(problem) }
        var takesPlainRows: Bool { plain }

        mutating func addPlain(
            device: UnsafeBufferPointer<UInt8>, time: UnsafeBufferPointer<UInt8>, lat: UnsafeBufferPointer<UInt8>,
            lon: UnsafeBufferPointer<UInt8>, accuracy: UnsafeBufferPointer<UInt8>?, line: Int
        ) -> Bool {
            let took = builder.addPlain(device: device, time: time, lat: lat, lon: lon, accuracy: accuracy, line: line)
            if took { plainRows += 1 }
            return took
        }
    }

    /// The table (or error) of `path` read on one thread with plain rows on their path or not, and how
    /// many rows took it.
    func read(
        _ path: String, columns: FixTableColumns = FixTableColumns(), plain: Bool
    ) -> (
        Result<FixTable, FixTableError>, Int
    ) {
        var sink = Sink(builder: FixTableBuilder(path: path, names: columns), plain: plain)
        let table = Result { () throws(FixTableError) -> FixTable in
            var file = try ChunkedFile(path: path)
            var reader = CSVFixes(path: path, names: columns)
            do throws(FixTableError) {
                try reader.read(&file, into: &sink)
            } catch {
                throw sink.builder.problemsError(ending: error) ?? error
            }
            if let error = sink.builder.problemsError() { throw error }  // every bad row's, as `FixTableReader` throws them
            return sink.builder.finish()
        }
        return (table, sink.plainRows)
    }

    /// Who takes plain rows: a piece of a read on all cores and the read on one thread (whose rows are the
    /// most), not a stream (whose device changes are `add`'s); a missing `addPlain` would read every row the
    /// general way, the same table at about twice the instructions a row.
    @Test("pieces and the one-thread builder take plain rows; a stream does not")
    func takers() throws {
        let path = try table(Self.header + Self.row)
        var csv = CSVFixes(path: path, names: FixTableColumns())
        var file = try ChunkedFile(path: path)
        try csv.readHeader(&file)
        let piece = FixTablePiece(path: path, names: FixTableColumns(), window: file.consumedBefore..<2 << 20, csv: csv)
        #expect(piece.takesPlainRows)
        #expect(FixTableBuilder(path: path, names: FixTableColumns()).takesPlainRows)
        #expect(!FixTableBuilder(path: path, names: FixTableColumns(), streaming: true).takesPlainRows)
    }

    @Test("random tables read alike with and without the plain path")
    func randomTables() throws {
        var plainRows = 0, refused = 0
        for seed: UInt64 in 1...60 {
            var random = SplitMix64(seed: seed &* 104_729)
            let rows = Int.random(in: 20...700, using: &random)
            for bad in [0, Int.random(in: 1...3, using: &random)] {
                let text = RandomFixTable(seed: seed, format: .csv, rows: rows, bad: bad).text
                let path = try table(text)
                let (general, none) = read(path, plain: false)
                let (plain, taken) = read(path, plain: true)
                #expect(plain == general, "seed \(seed), \(bad) bad rows: the reads differ")
                #expect(none == 0)
                plainRows += taken
                if case .failure = general { refused += 1 }
            }
        }
        #expect(plainRows > 60 * 100 && refused == 60, "most rows take the plain path; every bad table is refused")
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let text: String
        var columns = FixTableColumns()
        /// Rows the plain path takes.
        let plainRows: Int
        /// The last row, after the rows tried: a row within eight bytes of the buffer's end is always the
        /// general path's (`plainRecords`), and so is the file's last.
        var tail = PlainRowsTests.tail
        var testDescription: String { id }
    }

    static func columns(_ delimiter: Character, decimalComma: Bool) -> FixTableColumns {
        var columns = FixTableColumns()
        columns.delimiter = UInt8(ascii: delimiter.unicodeScalars.first!)
        columns.decimalComma = decimalComma
        return columns
    }

    static let header = "device,time,lat,lon,accuracy\n"
    static let row = "a,2024-05-01T09:00:00Z,59.9,30.3,5\n"
    static let second = "a,2024-05-01T09:00:01Z,59.90001,30.30001,12.5\n"
    static let tail = "a,2024-05-01T09:10:00Z,59.9,30.3,5\n"

    /// A header of `extra` columns before device, time, lat, lon and accuracy, and a row of it.
    static func wide(_ extra: Int) -> String {
        (0..<extra).map { "x\($0)," }.joined() + header
    }
    static func wideRow(_ extra: Int, second: Int) -> String {
        let time = Timestamp(microsecondsSince1970: 1_714_554_000_000_000 + Int64(second) * 1_000_000)
        return String(repeating: "7,", count: extra) + "a,\(time),59.9,30.3,5\n"
    }

    /// Hand-made rows around the edge of the plain path: each reads as the general path reads it, and
    /// the plain path takes only the rows it should (a device's first row is always the general path's).
    static let cases: [Case] = [
        Case(
            id: "plain rows", text: header + row + second + second.replacingOccurrences(of: ":01Z", with: ":02Z"),
            plainRows: 2),
        Case(id: "CRLF", text: header + row + second.replacingOccurrences(of: "\n", with: "\r\n"), plainRows: 1),
        Case(id: "a lone carriage return", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,5\r\r\n", plainRows: 0),
        Case(
            id: "no line end at the end", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,5", plainRows: 0, tail: ""),
        Case(id: "an extra field", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,5,x\n", plainRows: 0),
        Case(id: "no accuracy field", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3\n", plainRows: 0),
        Case(id: "an empty accuracy", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,\n", plainRows: 1),
        Case(id: "an empty lat", text: header + row + "a,2024-05-01T09:00:01Z,,30.3,5\n", plainRows: 0),
        Case(id: "a quoted field", text: header + row + "\"a\",2024-05-01T09:00:01Z,59.9,30.3,5\n", plainRows: 0),
        Case(id: "a quote inside", text: header + row + "a\"b,2024-05-01T09:00:01Z,59.9,30.3,5\n", plainRows: 0),
        Case(id: "a NUL byte", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,5\u{0}\n", plainRows: 0),
        Case(id: "a space in a number", text: header + row + "a,2024-05-01T09:00:01Z,59.9 ,30.3,5\n", plainRows: 0),
        Case(id: "a new device", text: header + row + "b,2024-05-01T09:00:01Z,59.9,30.3,5\n" + second, plainRows: 1),
        Case(id: "a negative accuracy", text: header + row + "a,2024-05-01T09:00:01Z,59.9,30.3,-1\n", plainRows: 0),
        Case(id: "a bad time", text: header + row + "a,2024-05-01T09:00:61Z,59.9,30.3,5\n", plainRows: 0),
        Case(id: "an exponent", text: header + row + "a,2024-05-01T09:00:01Z,5.99e1,30.3,5\n", plainRows: 1),
        Case(id: "a time that goes back", text: header + second + row, plainRows: 1),
        Case(id: "out of range", text: header + row + "a,2024-05-01T09:00:01Z,95.9,30.3,5\n", plainRows: 1),
        Case(id: "a blank line", text: header + row + "\n" + second, plainRows: 1),
        Case(
            id: "columns in another order",
            text: "lon,note,time,device,lat\n30.3,x,2024-05-01T09:00:00Z,a,59.9\n30.4,y,2024-05-01T09:00:01Z,a,59.8\n",
            plainRows: 1, tail: "30.4,z,2024-05-01T09:10:00Z,a,59.8\n"),
        Case(
            id: "semicolons",
            text: "device;time;lat;lon\na;2024-05-01T09:00:00Z;59.9;30.3\na;2024-05-01T09:00:01Z;59.9;30.3\n",
            columns: columns(";", decimalComma: false), plainRows: 1, tail: "a;2024-05-01T09:10:00Z;59.9;30.3\n"),
        // A plain record places the ends of the fields up to the last one read, sixteen at most.
        Case(
            id: "the last field read is the 16th", text: wide(11) + wideRow(11, second: 0) + wideRow(11, second: 1),
            plainRows: 1, tail: wideRow(11, second: 600)),
        Case(
            id: "the last field read is the 17th", text: wide(12) + wideRow(12, second: 0) + wideRow(12, second: 1),
            plainRows: 0, tail: wideRow(12, second: 600)),
        Case(
            id: "decimal commas",
            text: "device;time;lat;lon\na;2024-05-01T09:00:00Z;59,9;30,3\na;2024-05-01T09:00:01Z;59,9;30,3\n",
            columns: columns(";", decimalComma: true), plainRows: 0, tail: "a;2024-05-01T09:10:00Z;59,9;30,3\n"),
    ]

    @Test(arguments: cases)
    func edges(_ c: Case) throws {
        let path = try table(c.text + c.tail)
        let (general, _) = read(path, columns: c.columns, plain: false)
        let (plain, taken) = read(path, columns: c.columns, plain: true)
        #expect(plain == general)
        #expect(taken == c.plainRows)
    }
}
