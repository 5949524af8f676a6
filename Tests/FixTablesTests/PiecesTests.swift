import Draws
import Foundation
import Testing
import Time

@testable import FixTables

/// A fix table read in pieces on several threads is the one read on one thread: the same table
/// (devices, fixes, warnings, dropped, rows) or the same error.
@Suite("Fix tables read in pieces")
struct PiecesTests {
    /// The table, or the error, of `path` read on one thread and in `pieces`.
    func reads(_ path: String, pieces: Int) -> (one: Result<FixTable, FixTableError>, split: Result<FixTable, FixTableError>)
    {
        (
            Result { () throws(FixTableError) in try FixTableReader(path: path, pieces: 1).read() },
            Result { () throws(FixTableError) in try FixTableReader(path: path, pieces: pieces).read() }
        )
    }

    /// Whether `path` is read in pieces (not handed back to the read on one thread), as `read()` does.
    func isSplit(_ path: String, _ format: FixTableFormat, pieces: Int) -> Bool {
        let table = Result { () throws(FixTableError) -> FixTable? in
            var file = try ChunkedFile(path: path)
            var csv: CSVFixes?
            if format == .csv {
                csv = CSVFixes(path: path, names: FixTableColumns())
                try csv?.readHeader(&file)
            }
            return try FixTableReader(path: path).read(in: pieces, from: file.consumedBefore, of: file, csv: csv)
        }
        return (try? table.get()) != nil
    }

    @Test("random tables read alike in pieces and on one thread", arguments: FixTableFormat.allCases)
    func randomTables(format: FixTableFormat) throws {
        var dropped = 0, split = 0, refused = 0
        for seed: UInt64 in 1...60 {
            var random = SplitMix64(seed: seed &* 7919)
            let pieces = Int.random(in: 2...9, using: &random)
            let rows = Int.random(in: 20...700, using: &random)
            let good = RandomFixTable(seed: seed, format: format, rows: rows)
            let path = try table(good.text, name: "fleet.\(format.rawValue)")
            let (one, inPieces) = reads(path, pieces: pieces)
            #expect(inPieces == one, "seed \(seed), \(pieces) pieces: the reads differ")
            #expect((try? one.get()) != nil, "seed \(seed): the table is refused: \(one)")
            dropped += (try? one.get().dropped) ?? 0
            #expect(isSplit(path, format, pieces: pieces) == !good.quoted, "seed \(seed): read in pieces or not")
            if !good.quoted { split += 1 }

            let bad = RandomFixTable(seed: seed, format: format, rows: rows, bad: Int.random(in: 1...3, using: &random))
            let badPath = try table(bad.text, name: "fleet.\(format.rawValue)")
            let (badOne, badInPieces) = reads(badPath, pieces: pieces)
            #expect(badInPieces == badOne, "seed \(seed), \(pieces) pieces: the errors differ")
            if case .failure = badOne { refused += 1 }
        }
        #expect(dropped > 60 * 20 && split > 30 && refused == 60, "the tables drop fixes, are split, and refuse bad rows")
    }

    @Test("a table of several chunks a piece reads alike")
    func chunksInPieces() throws {
        let big = RandomFixTable(seed: 43, format: .csv, rows: 60_000)
        let path = try table(big.text)
        let (one, inPieces) = reads(path, pieces: 3)
        #expect(inPieces == one)
        #expect(isSplit(path, .csv, pieces: 3))
    }

    @Test("times in a clock change are said alike in pieces: counted, their first places in file order")
    func clockChangesInPieces() throws {
        // Los Angeles: 02:xx on 2016-03-13 is in the gap, 01:xx on 2016-11-06 in the overlap; 40 rows of each.
        var columns = FixTableColumns()
        columns.localZone = LocalTimeZone(identifier: "America/Los_Angeles")
        let rows = (0..<40).flatMap { minute in
            [
                "v\(minute),2016-03-13T02:\(minute < 10 ? "0" : "")\(minute):00,1,2",
                "v\(minute),2016-11-06T01:\(minute < 10 ? "0" : "")\(minute):00,1,2",
            ]
        }
        let path = try table("device,time,lat,lon\n" + rows.joined(separator: "\n") + "\n")
        let one = try FixTableReader(path: path, columns: columns, pieces: 1).read()
        let split = try FixTableReader(path: path, columns: columns, pieces: 3).read()
        #expect(split == one)
        #expect(one.fixes.count == 80)
        #expect(one.tableWarnings.count == 3)
        #expect(one.tableWarnings[1].contains(":2:4: 2016-03-13T02:00:00 is not a time"))
        #expect(one.tableWarnings[1].contains("so are 39 more times of this fix table (at 4:4, 6:4, 8:4, …)"))
        #expect(one.tableWarnings[2].contains(":3:4: 2016-11-06T01:00:00 is a time"))
        #expect(one.tableWarnings[2].contains("so are 39 more times of this fix table (at 5:4, 7:4, 9:4, …)"))
    }

    struct Cut: CustomTestStringConvertible, Sendable {
        let id: String
        /// Rows ("device,time,lat,lon"; "" a blank line) before the cut, and after it.
        let first: [String]
        let second: [String]
        /// The CSV's lines (one more than the JSON Lines') of the kept fixes, in table order; of the
        /// warnings; of the error.
        var lines: [Int] = []
        var warnings: [Int] = []
        var error: Int?
        var testDescription: String { id }
    }

    /// The rows as CSV (a header, then a `note` column) or JSON Lines (every value a string), the last
    /// row before the cut padded to be longer than all the others: a read in two pieces cuts after it.
    static func text(_ cut: Cut, _ format: FixTableFormat) -> String {
        func render(_ row: String, pad: Int) -> String {
            guard !row.isEmpty else { return "\n" }
            let note = String(repeating: "p", count: pad)
            let v = row.split(separator: ",", omittingEmptySubsequences: false)
            if format == .csv { return row + "," + note + "\n" }
            return #"{"device":"\#(v[0])","time":"\#(v[1])","lat":"\#(v[2])","lon":"\#(v[3])","note":"\#(note)"}"# + "\n"
        }
        let rows = cut.first + cut.second
        let others = rows.enumerated().map { render($1, pad: 0).utf8.count }.reduce(0, +)
        let header = format == .csv ? "device,time,lat,lon,note\n" : ""
        return header + rows.enumerated().map { render($1, pad: $0 == cut.first.count - 1 ? others + 16 : 0) }.joined()
    }

    @Test(
        "rows at the cut between two pieces",
        arguments: [
            Cut(
                id: "a bad row first in the second piece", first: ["a,1,0,0", "b,1,0,0"],
                second: ["a,2,north,0", "a,3,0,0"], error: 4),
            Cut(
                id: "a bad row in each piece: the first piece's is the error", first: ["a,1,0,0", "a,2,,0"],
                second: ["b,x,0,0"], error: 3),
            Cut(
                id: "the only row of a device in the last piece", first: ["a,1,0,0", "a,2,0,0"],
                second: ["a,3,0,0", "z,5,1,1"], lines: [2, 3, 4, 5]),
            Cut(
                id: "a device's time goes back across the cut", first: ["a,10,0,0"],
                second: ["b,1,0,0", "a,9,0,0", "a,11,0,0"],
                lines: [2, 5, 3], warnings: [4]),
            Cut(
                id: "equal times across the cut: the later is kept", first: ["a,10,0,0"], second: ["a,10,0,1"], lines: [3],
                warnings: [2]),
            Cut(
                id: "a new device out of range first in the second piece", first: ["a,1,0,0"],
                second: ["c,1,95,0", "c,2,0,0"],
                lines: [2, 4], warnings: [3]),
            Cut(id: "a blank line first in the second piece", first: ["a,1,0,0"], second: ["", "a,2,0,0"], lines: [2, 4]),
        ])
    func atTheCut(cut: Cut) throws {
        for format in FixTableFormat.allCases {
            let shift = format == .csv ? 0 : 1
            let path = try table(Self.text(cut, format), name: "fleet.\(format.rawValue)")
            #expect(isSplit(path, format, pieces: 2) || cut.error != nil)
            let (one, inPieces) = reads(path, pieces: 2)
            #expect(inPieces == one, "\(format)")
            switch one {
            case let .success(t):
                #expect(t.fixes.map(\.line) == cut.lines.map { $0 - shift }, "\(format)")
                #expect(t.warnings.map(\.line) == cut.warnings.map { $0 - shift }, "\(format)")
                #expect(cut.error == nil, "\(format)")
            case let .failure(error):
                #expect(error.line == (cut.error ?? 0) - shift, "\(format): \(error)")
            }
        }
    }

    @Test("a CSV with a quote after the header, or with a row over 1 MiB, is read on one thread")
    func readOnOneThread() throws {
        let quoted = try table(
            "device,time,lat,lon\n" + String(repeating: "a,1,0,0\n", count: 50) + "\"b\",2,0,0\n"
                + String(repeating: "a,3,0,0\n", count: 50))
        #expect(!isSplit(quoted, .csv, pieces: 4))
        let quotedReads = reads(quoted, pieces: 4)
        #expect(quotedReads.split == quotedReads.one)
        let long = try table(
            "device,time,lat,lon,note\n" + String(repeating: "a,1,0,0,\n", count: 50)
                + "a,2,0,0," + String(repeating: "x", count: (1 << 20) + 100) + "\n"
                + String(repeating: "a,3,0,0,\n", count: 50))
        #expect(!isSplit(long, .csv, pieces: 3))
        let longReads = reads(long, pieces: 3)
        #expect(longReads.split == longReads.one)
    }
}

@Test("a row buffer keeps every row appended, in order, through its growths")
func rowBuffer() {
    let rows = RowBuffer<TableFix>(capacity: 10)  // grows fourteen times on the way to 200,000
    #expect(rows.count == 0 && rows.elements.isEmpty)
    let fix = TableFix(time: Timestamp(microsecondsSince1970: 0), latitude: 59.9, longitude: 30.3, line: 2)
    for line in 0..<200_000 {
        var row = fix
        row.line = line
        rows.append(row)
    }
    #expect(rows.count == 200_000 && rows.elements.map(\.line) == Array(0..<200_000))
    let owners = RowBuffer<Int32>(capacity: 0)  // room for one, at least
    owners.append(7)
    owners.append(-1)
    #expect(Array(owners.elements) == [7, -1])
}
