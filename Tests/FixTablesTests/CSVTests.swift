import FixTables
import Foundation
import Testing
import Time

@Suite("Fix tables in CSV")
struct CSVTests {
    @Test func interleavedDevicesQuotesAndColumnsInAnyOrder() throws {
        let t = try read(
            [
                "lon,extra,lat,time,device,accuracy",
                #"30.1,"a, b",59.9,2024-05-01T09:00:00Z,van-1,5"#,
                #"30.2,x,59.8,1714554000.5,"van ""2""","#,
                "30.3,,59.7,2024-05-01T09:00:01.250+00:00,van-1,",
                "",
                #"30.4,y,59.6,1714554001,"van ""2""",7.5"#,
            ].joined(separator: "\r\n") + "\r\n")
        #expect(t.devices == ["van-1", "van \"2\""])
        #expect(t.rows == 4)
        #expect(
            t.summary["van-1"] == [
                TableFix(time: at("2024-05-01T09:00:00Z"), latitude: 59.9, longitude: 30.1, accuracy: 5, line: 2),
                TableFix(time: at("2024-05-01T09:00:01.250Z"), latitude: 59.7, longitude: 30.3, accuracy: nil, line: 4),
            ])
        #expect(
            t.summary["van \"2\""] == [
                TableFix(time: at("2024-05-01T09:00:00.500Z"), latitude: 59.8, longitude: 30.2, accuracy: nil, line: 3),
                TableFix(time: at("2024-05-01T09:00:01Z"), latitude: 59.6, longitude: 30.4, accuracy: 7.5, line: 6),
            ])
        #expect(t.dropped == 0)
    }

    @Test("the fixtures read alike as CSV and as JSON Lines")
    func fixtures() throws {
        let csv = try FixTableReader(path: fixture("fleet.csv")).read()
        let jsonl = try FixTableReader(path: fixture("fleet.jsonl")).read()
        #expect(csv.devices == ["van-1", "van \"2\""])
        #expect(jsonl.devices == ["van-1", "17"])
        #expect(csv.fixes(ofDevice: 0).map(\.time) == [at("2024-05-01T09:00:00Z"), at("2024-05-01T09:00:01Z")])
        #expect(jsonl.fixes(ofDevice: 1).map(\.latitude) == [59.94])
        #expect(csv.fixes(ofDevice: 0).first?.accuracy == 5 && jsonl.fixes(ofDevice: 0).first?.accuracy == 5)
    }

    @Test func mappedColumnNames() throws {
        let t = try read(
            "van_id,ts,y,x,acc\nv,0,1,2,3\n",
            columns: FixTableColumns(device: "van_id", time: "ts", lat: "y", lon: "x", accuracy: "acc"))
        #expect(t.summary["v"] == [TableFix(time: .epoch, latitude: 1, longitude: 2, accuracy: 3, line: 2)])
    }

    @Test(
        "numeric times are read exactly from their text",
        arguments: [
            ("1452427205.2500009", 1_452_427_205_250_000 as Int64), ("-1.0000005", -1_000_001), ("-1.5", -1_500_000),
            ("0.000001", 1), ("1e3", 1_000_000_000), ("1.5E-3", 1_500), ("+2", 2_000_000), (".5", 500_000),
            ("253402300799.999999", 253_402_300_799_999_999),
        ])
    func exactTimes(text: String, micros: Int64) throws {
        let t = try read("device,time,lat,lon\nd,\(text),0,0\n")
        #expect(t.fixes.map(\.time.microsecondsSince1970) == [micros])
    }

    @Test func theDropRulesOfSEMANTICS1() throws {
        let t = try read(
            """
            device,time,lat,lon
            a,10,0,0
            b,10,0,0
            a,9,0,1
            a,10,0,2
            a,11,91,0
            a,12,0,181
            a,13,0,3

            """)
        #expect(t.summary["a"]?.map(\.longitude) == [2, 3])  // 9 earlier; the first 10 replaced; out of range dropped
        #expect(t.summary["a"]?.map(\.line) == [5, 8])
        #expect(t.summary["b"]?.count == 1)
        #expect(t.dropped == 4)
        #expect(t.warnings.map(\.line) == [4, 2, 6, 7])
        #expect(
            t.warnings[0].description.hasSuffix(
                #"fixes.csv:4: the fix of "a" at 1970-01-01T00:00:09.000Z is earlier than its fix at 1970-01-01T00:00:10.000Z (line 2); dropped"#
            ))
    }

    @Test func aHeaderOnlyIsAnEmptyFleet() throws {
        let t = try read("device,time,lat,lon\n")
        #expect(t.devices.isEmpty && t.fixes.isEmpty && t.rows == 0)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let id: String
        let text: String
        let error: String
        var testDescription: String { id }
    }

    @Test(arguments: [
        Bad(
            id: "empty file", text: "",
            error:
                "FILE: the file is empty; a CSV fix table starts with a header row naming its columns (device, time, lat, lon and optionally accuracy)"
        ),
        Bad(
            id: "no lat column", text: "device,time,latitude,lon\n",
            error:
                #"FILE:1:1: the header has no "lat" column (it has "device", "time", "latitude", "lon"); name the columns in the scenario's columns: mapping if they are called otherwise"#
        ),
        Bad(
            id: "a column named twice", text: "device,device,time,lat,lon\nd,e,0,1,2\n",
            error:
                #"FILE:1:8: the header names "device" twice (fields 1 and 2); name each column once, or map the one to read in the scenario's columns: mapping"#
        ),
        Bad(
            id: "a later column named twice", text: "lon,time,lat,device,time\n",
            error:
                #"FILE:1:21: the header names "time" twice (fields 2 and 5); name each column once, or map the one to read in the scenario's columns: mapping"#
        ),
        Bad(
            id: "a row with more fields than the header", text: "device,time,lat,lon\nd,0,1,2,3\n",
            error:
                "FILE:2:9: the row has 5 fields, more than the header's 4; remove the extra fields or name their columns in the header"
        ),
        Bad(
            id: "an empty field past the header's", text: "device,time,lat,lon\nd,0,1,2\nd,1,1,2,\n",
            error:
                "FILE:3:9: the row has 5 fields, more than the header's 4; remove the extra fields or name their columns in the header"
        ),
        Bad(
            id: "short row", text: "device,time,lat,lon\nd,0,1\n",
            error: #"FILE:2:5: the row has 3 fields; the header names "lon" as field 4"#),
        Bad(
            id: "lat not a number", text: "device,time,lat,lon\nd,0,north,1\n",
            error: #"FILE:2:5: "lat" is "north", which is not a number"#),
        Bad(id: "NaN", text: "device,time,lat,lon\nd,0,NaN,1\n", error: #"FILE:2:5: "lat" is "NaN", which is not a number"#),
        Bad(
            id: "infinity", text: "device,time,lat,lon\nd,0,1,-inf\n",
            error: #"FILE:2:7: "lon" is "-inf", which is not a number"#),
        Bad(id: "no time", text: "device,time,lat,lon\nd,,1,2\n", error: #"FILE:2:7: the row has no "time""#),
        Bad(
            id: "bad time", text: "device,time,lat,lon\nd,yesterday,1,2\n",
            error: #"FILE:2:3: "time" is "yesterday", which is neither an ISO 8601 time nor a number of seconds since 1970"#),
        Bad(
            id: "time past 9999", text: "device,time,lat,lon\nd,1e12,1,2\n",
            error:
                #"FILE:2:3: "time" is "1e12", outside the years 0000 to 9999; it looks like milliseconds since 1970: give timeUnit: ms"#
        ),
        Bad(id: "NUL byte", text: "device,time,lat,lon\nd\u{0},0,1,2\n", error: "FILE:2:2: a NUL byte; a fix table is text"),
        Bad(
            id: "quote never closed", text: "device,time,lat,lon\n\"d,0,1,2\n",
            error: "FILE:2:1: a quoted field is never closed"),
        Bad(
            id: "quote in an unquoted field", text: "device,time,lat,lon\nd\"x,0,1,2\n",
            error: #"FILE:2:2: a quote inside an unquoted field; quote the whole field and double the quote"#),
        Bad(
            id: "text after a closing quote", text: "device,time,lat,lon\n\"d\"x,0,1,2\n",
            error: "FILE:2:4: text after a quoted field's closing quote"),
        Bad(
            id: "an Excel header quoted and ;-separated", text: "\u{FEFF}\"device\";\"time\";\"lat\";\"lon\"\r\n",
            error:
                "FILE:1:9: text after a quoted field's closing quote: a ';', which seems to separate this file's fields; for a file whose fields are separated by it give delimiter: \";\""
        ),
        Bad(
            id: "a quoted header separated by tabs", text: "\"device\"\t\"time\"\t\"lat\"\t\"lon\"\n",
            error:
                "FILE:1:9: text after a quoted field's closing quote: a '\\t', which seems to separate this file's fields; for a file whose fields are separated by it give delimiter: \"tab\""
        ),
        Bad(
            id: "a decimal comma in lat", text: "device,time,lat,lon\nd,0,\"59,93\",30\n",
            error:
                #"FILE:2:5: "lat" is "59,93", which is not a number; it has a decimal comma: for a table written so, give decimal: ",""#
        ),
        Bad(
            id: "two commas are no decimal comma", text: "device;time;lat;lon\nd;0;1;59,93,1\n",
            error:
                #"FILE:1:1: the header has no "device" column: it is one field, "device…" (19 characters), which holds ';' but no ','; for a file whose fields are separated by ';' (Excel's in many countries) give delimiter: ";""#
        ),
        Bad(
            id: "a decimal comma in accuracy", text: "device,time,lat,lon,accuracy\nd,0,1,2,\"4,5\"\n",
            error:
                #"FILE:2:9: "accuracy" is "4,5"; expected a distance in metres, 0 or more; it has a decimal comma: for a table written so, give decimal: ",""#
        ),
        Bad(
            id: "negative accuracy", text: "device,time,lat,lon,accuracy\nd,0,1,2,-3\n",
            error: #"FILE:2:9: "accuracy" is "-3"; expected a distance in metres, 0 or more"#),
        Bad(
            id: "long device id", text: "device,time,lat,lon\n" + String(repeating: "x", count: 1025) + ",0,1,2\n",
            error: "FILE:2:1: the device id is 1025 bytes long; ids are at most 1024 bytes"),
        Bad(id: "device not UTF-8", text: "device,time,lat,lon\n\u{FFFD},0,1,2\n", error: ""),
    ])
    func refuses(bad: Bad) throws {
        var bytes = Array(bad.text.utf8)
        if bad.id == "device not UTF-8" {
            bytes = Array("device,time,lat,lon\n".utf8) + [0xFF, 0xFE] + Array(",0,1,2\n".utf8)
        }
        let path = try table("")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FixTableError.self) { try FixTableReader(path: path).read() }
        let expected = bad.id == "device not UTF-8" ? "FILE:2:1: the device id is not UTF-8 text" : bad.error
        #expect(error?.description == expected.replacingOccurrences(of: "FILE", with: path))
    }

    /// An unquoted field is scanned eight bytes at a time for a byte below `-` (CSVFixes.skipPlainBytes):
    /// its end and each refusal are found at every offset within and across those words, and bytes below
    /// `-` that are plain (a space, `+`, `#`) or above 0x7F (UTF-8) stay in the field.
    @Test("fields end, and bad bytes are found, at every offset of an eight-byte word", arguments: Array(0..<20))
    func fieldEndsAtEveryOffset(offset: Int) throws {
        let id = String(repeating: "a", count: offset)
        let odd = "v " + id + "+#é" + id  // plain bytes below `-`, and UTF-8
        let t = try read("device,time,lat,lon\n\(id)x,0,1,2\n\(odd),1,3,4\r\n")
        #expect(t.devices == [id + "x", odd])
        #expect(t.summary[odd]?.first?.longitude == 4)
        let refusals: [(text: String, error: String)] = [
            (
                "d\(id)\"x,0,1,2\n",
                "FILE:2:\(offset + 2): a quote inside an unquoted field; quote the whole field and double the quote"
            ),
            ("d,0,1,2\(id)\u{0}\n", "FILE:2:\(offset + 8): a NUL byte; a fix table is text"),
            ("d,0,1,\(id)2\rx\n", "FILE:2:\(offset + 8): a carriage return not followed by a line feed"),
        ]
        for refusal in refusals {
            let path = try table("device,time,lat,lon\n" + refusal.text)
            let error = #expect(throws: FixTableError.self) { try FixTableReader(path: path).read() }
            #expect(error?.description == refusal.error.replacingOccurrences(of: "FILE", with: path), "offset \(offset)")
        }
    }

    @Test func rowsStraddleChunksAndQuotedLinesCount() throws {
        // 40,000 rows of ~60 bytes: more than two 1 MiB chunks, so rows and quotes cross chunk ends.
        var text = "device,time,lat,lon,note\n"
        for i in 0..<40_000 {
            text +=
                "dev-\(i % 7),\(1_700_000_000 + i).25,\(Double(i % 90) + 0.125),\(-Double(i % 180) - 0.5),\"multi\nline, \"\"quoted\"\"\"\n"
        }
        let t = try read(text)
        #expect(t.rows == 40_000)
        #expect(t.devices == (0..<7).map { "dev-\($0)" })
        let last = try #require(t.summary["dev-\(39_999 % 7)"]?.last)
        #expect(
            last
                == TableFix(
                    time: Timestamp(microsecondsSince1970: (1_700_000_000 + 39_999) * 1_000_000 + 250_000),
                    latitude: Double(39_999 % 90) + 0.125, longitude: -Double(39_999 % 180) - 0.5, line: 2 + 39_999 * 2))
    }

    @Test func aRowOverOneMebibyteIsRefusedWithoutReadingOn() throws {
        let path = try table("device,time,lat,lon\n\"" + String(repeating: "x", count: 3 << 20) + "\n")
        let error = #expect(throws: FixTableError.self) { try FixTableReader(path: path).read() }
        #expect(error?.description == "\(path):2:1: a row longer than 1 MiB (is a quote never closed?)")
    }

    @Test("decimal commas, with decimal: \",\", read as points: the same fixes as the table written with points")
    func decimalCommas() throws {
        var columns = FixTableColumns()
        columns.delimiter = UInt8(ascii: ";")
        columns.decimalComma = true
        let excel = try read(
            "\u{FEFF}\"device\";\"time\";\"lat\";\"lon\";\"accuracy\"\r\n\"van 1\";\"2024-05-01T09:00:00Z\";\"59,93\";\"-30,3301\";\"4,5\"\r\n"
                + "\"van 1\";2024-05-01T09:00:10Z;59.931;30;12\r\n", columns: columns)
        let points = try read(
            "device,time,lat,lon,accuracy\nvan 1,2024-05-01T09:00:00Z,59.93,-30.3301,4.5\nvan 1,2024-05-01T09:00:10Z,59.931,30,12\n"
        )
        #expect(excel.summary == points.summary)
        #expect(excel.summary["van 1"]?.first?.accuracy == 4.5)
        // A comma past the first is no number.
        let twice = #expect(throws: FixTableError.self) {
            try read("device;time;lat;lon\nd;0;1,2,3;4\n", columns: columns)
        }
        #expect(twice?.message == #""lat" is "1,2,3", which is not a number"#)
    }

    @Test func theFormatComesFromTheNameOrIsAsked() throws {
        let path = try table("device,time,lat,lon\n", name: "fleet.txt")
        #expect(throws: FixTableError.self) { try FixTableReader(path: path).read() }
        #expect(try FixTableReader(path: path, format: .csv).read().rows == 0)
        #expect(FixTableFormat(extensionOf: "a/b.NDJSON") == .jsonLines)
        #expect(FixTableFormat(extensionOf: "fleet.csv") == .csv)
    }
}
