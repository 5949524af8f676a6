import Foundation
import TestSupport
import Testing

/// Real exports (Excel's `;` and byte order mark, epoch milliseconds, other column names, times without
/// a zone) through the real binary: `inspect` and `stream` with --columns, --time-unit, --delimiter and
/// --timezone, a scenario with `columns:`, `timeUnit:` and `delimiter:`; each message names what to give.
@Suite("Fix tables from real exports, on the command line")
struct ExportCommandTests {
    /// An Excel export: a byte order mark, `;`, epoch milliseconds, its own column names; two vans
    /// driving past the depot of `scenario`.
    static let excelExport =
        "\u{FEFF}vehicle_id;ts;y;x\r\n"
        + ["van-1", "van-2"].flatMap { van in
            (0..<30).map { "\(van);\(1_714_554_000_000 + $0 * 10_000);59.92\(String(format: "%02d", $0 * 3));30.32\r\n" }
        }.joined()

    /// A Portuguese Excel export: a byte order mark, every field quoted, `;`, decimal commas.
    static let portugueseExport =
        "\u{FEFF}\"device\";\"time\";\"lat\";\"lon\"\r\n"
        + (0..<20).map {
            "\"carrinha 1\";\"2024-05-01T09:00:\(String(format: "%02d", $0))Z\";\"59,92\($0 % 10)\";\"30,32\"\r\n"
        }
        .joined()

    static let options = ["--columns", "device=vehicle_id,time=ts,lat=y,lon=x", "--delimiter", ";", "--time-unit", "ms"]

    /// A file `name` holding `text` in a fresh folder.
    static func file(_ name: String, _ text: String) throws -> String {
        let path = try PerimeterProcess.temporaryFolder().appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var arguments: [String]
        var text: String
        var status: Int32
        /// In standard output or standard error.
        var says: String
        var testDescription: String { id }
    }

    /// Three rows of one device in Los Angeles' time across its gap of 2016-03-13.
    static let acrossTheGap =
        "device,time,lat,lon\nv,2016-03-13T01:30:00,1,2\nv,2016-03-13T02:30:00,1,2\nv,2016-03-13T03:10:00,1,2\n"

    @Test(
        "inspect reads an export as its options say, and says which option is missing",
        arguments: [
            Case(id: "all options", arguments: options, text: excelExport, status: 0, says: "devices   2"),
            Case(id: "no options: the delimiter", arguments: [], text: excelExport, status: 2, says: "give --delimiter ';'"),
            Case(
                id: "no --columns", arguments: ["--delimiter", ";"], text: excelExport, status: 2,
                says:
                    #"the header has no "device" column (it has "vehicle_id", "ts", "y", "x"); name the columns with --columns device=NAME,time=NAME,lat=NAME,lon=NAME"#
            ),
            Case(
                id: "no --time-unit", arguments: Array(options.dropLast(2)), text: excelExport, status: 2,
                says:
                    #""ts" is "1714554000000", outside the years 0000 to 9999; it looks like milliseconds since 1970: give --time-unit ms"#
            ),
            Case(
                id: "a mapped column the header lacks",
                arguments: options + ["--columns", "device=vehicle_id,time=ts,lat=y,lon=x,accuracy=hdop"],
                text: excelExport, status: 2,
                says: #"the "accuracy" column is mapped to "hdop", which the header does not have"#),
            Case(
                id: "swapped", arguments: options + ["--columns", "device=vehicle_id,time=ts,lat=x,lon=y"],
                text: excelExport.replacingOccurrences(of: ";30.32", with: ";130.32"),
                status: 0,
                says:
                    #"the "x" column seems to hold longitudes; if "x" and "y" are swapped, map them the other way: --columns lat=y,lon=x"#
            ),
            Case(
                id: "no zone, read as UTC", arguments: [], text: "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\n",
                status: 0,
                says:
                    "warning: FILE: 1 time has no zone and was read as UTC; write them with Z or an offset, or give --input-timezone NAME"
            ),
            Case(
                id: "no zone, read in Madrid", arguments: ["--input-timezone", "Europe/Madrid"],
                text: "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\n",
                status: 0, says: "2024-05-01T07:00:00.000Z"),
            Case(
                id: "no zone, read in Madrid by the spelling of before", arguments: ["--timezone", "Europe/Madrid"],
                text: "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\n",
                status: 0, says: "2024-05-01T07:00:00.000Z"),
            Case(
                id: "the spelling of before is said", arguments: ["--timezone", "Europe/Madrid"],
                text: "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\n",
                status: 0,
                says:
                    "warning: --timezone Europe/Madrid also reads the table's times written without a zone, as it did before --input-timezone; give --input-timezone Europe/Madrid for that"
            ),
            Case(
                id: "--input-timezone wins over the spelling of before",
                arguments: ["--input-timezone", "Europe/Moscow", "--timezone", "Europe/Madrid"],
                text: "device,time,lat,lon\nv,2024-05-01T09:00:00,1,2\n",
                status: 0, says: "2024-05-01T06:00:00.000Z"),
            // Los Angeles' clocks went from 02:00 PST (10:00 UTC) to 03:00 PDT on 2016-03-13: 02:30 is read as
            // 10:00 UTC, before 03:10 PDT (10:10 UTC), which is kept (read as 02:30 PST, 10:30 UTC, it was dropped).
            Case(
                id: "a local time in a gap: said at its place", arguments: ["--input-timezone", "America/Los_Angeles"],
                text: Self.acrossTheGap, status: 0,
                says:
                    "warning: FILE:3:3: 2016-03-13T02:30:00 is not a time on America/Los_Angeles's clocks: they skip it, turned forward that night, so it is read as the first time after the gap, 2016-03-13T03:00:00.000 there (2016-03-13T10:00:00.000Z); write it with its offset, or as a time the clocks show"
            ),
            Case(
                id: "a local time in a gap: every row kept", arguments: ["--input-timezone", "America/Los_Angeles"],
                text: Self.acrossTheGap, status: 0, says: "v: 3 fixes"),
            Case(
                id: "a local time shown twice: the first, said", arguments: ["--input-timezone", "America/Los_Angeles"],
                text: "device,time,lat,lon\nv,2016-11-06T01:30:00,1,2\n", status: 0,
                says:
                    "warning: FILE:2:3: 2016-11-06T01:30:00 is a time America/Los_Angeles's clocks show twice, turned back that night, so it is read as the first, 2016-11-06T08:30:00.000Z, not the second, 2016-11-06T09:30:00.000Z; write it with its offset to say which"
            ),
            Case(
                id: "an unknown zone", arguments: ["--input-timezone", "Europe/Atlantis"], text: "device,time,lat,lon\n",
                status: 64,
                says:
                    #"--input-timezone: "Europe/Atlantis" is not a zone of the tz database; give an IANA name such as Europe/Madrid"#
            ),
            Case(
                id: "an unknown zone, spelt as before", arguments: ["--timezone", "Europe/Atlantis"],
                text: "device,time,lat,lon\n", status: 64,
                says:
                    #"--timezone: "Europe/Atlantis" is not a zone of the tz database; give an IANA name such as Europe/Madrid"#
            ),
            Case(
                id: "a bad mapping", arguments: ["--columns", "device"], text: "device,time,lat,lon\n", status: 64,
                says: #"--columns: "device" is not NAME=COLUMN"#),
            Case(
                id: "a bad delimiter", arguments: ["--delimiter", ":"], text: "device,time,lat,lon\n", status: 64,
                says: #"--delimiter is ":"; give ',', ';', '|' or tab."#),
            Case(
                id: "a quoted ;-separated header: the delimiter", arguments: [], text: portugueseExport, status: 2,
                says:
                    "FILE:1:9: text after a quoted field's closing quote: a ';', which seems to separate this file's fields; for a file whose fields are separated by it give --delimiter ';'"
            ),
            Case(
                id: "decimal commas: --decimal", arguments: ["--delimiter", ";"], text: portugueseExport, status: 2,
                says:
                    #"FILE:2:37: "lat" is "59,920", which is not a number; it has a decimal comma: for a table written so, give --decimal ','"#
            ),
            Case(
                id: "decimal commas read", arguments: ["--delimiter", ";", "--decimal", ","], text: portugueseExport,
                status: 0, says: "carrinha 1: 20 fixes"),
            Case(
                id: "a bad decimal mark", arguments: ["--decimal", ";"], text: "device,time,lat,lon\n", status: 64,
                says: #"--decimal is ";"; give '.' or ','."#),
        ])
    func inspect(_ c: Case) throws {
        let path = try Self.file("export.csv", c.text)
        let result = try PerimeterProcess.run(["inspect", path] + c.arguments)
        #expect(result.status == c.status, "\(result.stderr)")
        let said = result.stdout + result.stderr
        #expect(said.contains(c.says.replacingOccurrences(of: "FILE", with: path)), "\(said)")
    }

    /// A scenario with the depot only and no devices, or the export as its fix table with `entry`'s keys.
    static func scenario(table: String? = nil, entry: String = "") throws -> String {
        var text = """
            name: export
            start: 2024-05-01T09:00:00Z
            profile: ideal
            regions:
              - {id: depot, circle: {lat: 59.9250, lon: 30.3200, radius: 150}}

            """
        if let table { text += "devices:\n  - {fixes: \(table)\(entry)}\n" }
        return try file("export.yaml", text)
    }

    @Test("stream reads an export as its options say, and its events are the scenario's")
    func stream() throws {
        let export = try Self.file("export.csv", Self.excelExport)
        let streamed = try PerimeterProcess.run(
            ["stream", try Self.scenario(), "--quiet"] + Self.options, standardInput: export)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(streamed.stdout.contains(#""region":"depot""#))
        let refused = try PerimeterProcess.run(
            ["stream", try Self.scenario(), "--quiet", "--delimiter", ";"], standardInput: export)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("standard input:1:1: the header has no \"device\" column")
                && refused.stderr.contains("with --columns device=NAME"), "\(refused.stderr)")

        let entry = ", columns: {device: vehicle_id, time: ts, lat: y, lon: x}, timeUnit: ms, delimiter: \";\""
        // The table is in a folder of its own, named by its absolute path: the operator allows it.
        let run = try PerimeterProcess.run([
            "run", try Self.scenario(table: export, entry: entry), "--sink", "jsonl:-", "--quiet", "--allow-inputs-outside",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").sorted() == streamed.stdout.split(separator: "\n").sorted())
        let unmapped = try PerimeterProcess.run([
            "validate", "--allow-inputs-outside", try Self.scenario(table: export, entry: ", delimiter: \";\""),
        ])
        #expect(unmapped.status == 2)
        #expect(unmapped.stderr.contains("name the columns in the scenario's columns: mapping"), "\(unmapped.stderr)")
        let milliseconds = try PerimeterProcess.run([
            "validate", "--allow-inputs-outside",
            try Self.scenario(table: export, entry: entry.replacingOccurrences(of: ", timeUnit: ms", with: "")),
        ])
        #expect(
            milliseconds.stderr.contains("it looks like milliseconds since 1970: give timeUnit: ms"),
            "\(milliseconds.stderr)")
    }

    @Test("A scenario's decimal: \",\" reads decimal commas as inspect's --decimal does; another mark is refused at its key")
    func scenarioDecimal() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        try Self.portugueseExport.write(
            to: folder.appendingPathComponent("carrinhas.csv"), atomically: true, encoding: .utf8)
        func scenario(_ decimal: String) throws -> String {
            let path = folder.appendingPathComponent("carrinhas.yaml").path
            try """
            name: carrinhas
            start: 2024-05-01T09:00:00Z
            profile: ideal
            regions:
              - {id: depot, circle: {lat: 59.9250, lon: 30.3200, radius: 150}}
            devices:
              - {fixes: carrinhas.csv, delimiter: ";", decimal: "\(decimal)"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let read = try PerimeterProcess.run(["run", try scenario(","), "--sink", "jsonl:-", "--quiet"], in: folder)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains(#""region":"depot""#), "\(read.stdout)")
        let points = try PerimeterProcess.run(["validate", try scenario(".")], in: folder)
        #expect(points.status == 2)
        #expect(
            points.stderr.contains(#"it has a decimal comma: for a table written so, give decimal: ",""#), "\(points.stderr)"
        )
        let bad = try PerimeterProcess.run(["validate", try scenario(";")], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("devices[0].decimal"), "\(bad.stderr)")
    }

    @Test("stream warns once of times without a zone, after the table")
    func streamZoneless() throws {
        let rows = (0..<50).map { "v,2024-05-01T09:00:\(String(format: "%02d", $0)),59.925,30.32\n" }.joined()
        let input = try Self.file("zoneless.csv", "device,time,lat,lon\n" + rows)
        let result = try PerimeterProcess.run(["stream", try Self.scenario()], standardInput: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") } == [
                "warning: standard input: 50 times have no zone and were read as UTC; write them with Z or an offset, or give --input-timezone NAME"
            ])
        // --quiet leaves standard error to errors alone (docs/COMMANDS.md "Mistakes Perimeter warns about").
        let quiet = try PerimeterProcess.run(["stream", try Self.scenario(), "--quiet"], standardInput: input)
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test(
        "a table whose lat and lon are swapped, both within ±90, is said about its columns, not the regions",
        arguments: [
            (
                "the table swapped", "59.9250,30.3200", "59.9251,30.3203", "",
                #"warning: TABLE: the fixes are at least 3,292 km from region "depot", and would be near it with latitude and longitude the other way round: are the columns "y" and "x" swapped? If so, map them the other way: columns: {lat: x, lon: y}"#
            ),
            (
                "a region swapped, another near the table", "30.3200,59.9250", "30.3203,59.9251",
                "  - {id: far, circle: {lat: 30.3200, lon: 59.9250, radius: 150}}\n",
                #"regions[1].id: region "far" is at least 3,292 km from every device's track, and would be near them with latitude and longitude the other way round: are they swapped? (lat 30.32, lon 59.925)"#
            ),
        ])
    func swappedTable(id: String, first: String, second: String, otherRegion: String, warning: String) throws {
        let table = try Self.file(
            "swapped.csv", "van,ts,x,y\nv,2024-05-01T09:00:00Z,\(first)\nv,2024-05-01T09:00:10Z,\(second)\n")
        var scenario = try String(
            contentsOfFile: try Self.scenario(table: table, entry: ", columns: {device: van, time: ts, lat: y, lon: x}"),
            encoding: .utf8)
        scenario = scenario.replacingOccurrences(of: "radius: 150}}\n", with: "radius: 150}}\n" + otherRegion)
        let path = try Self.file("swapped.yaml", scenario)
        let result = try PerimeterProcess.run(["validate", "--allow-inputs-outside", path])
        #expect(result.status == 0, "\(id): \(result.stderr)")
        #expect(result.stderr.contains(warning.replacingOccurrences(of: "TABLE", with: table)), "\(id): \(result.stderr)")
        #expect(
            result.stderr.components(separatedBy: "\n").filter { $0.contains("swapped") }.count == 1,
            "\(id): \(result.stderr)")
    }
}
