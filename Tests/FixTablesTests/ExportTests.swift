import FixTables
import Foundation
import Testing
import Time

/// Fix tables as real exports write them: epoch milliseconds, Excel's byte order mark and `;`, mapped
/// columns the header lacks, swapped coordinates, times without a zone; each read on one thread and in
/// pieces alike.
@Suite("Fix tables from real exports")
struct ExportTests {
    /// The mapping of `text` (`--columns` syntax) with the other settings given.
    static func mapping(
        _ text: String = "", unit: FixTimeUnit = .seconds, delimiter: String = ",",
        zone: String? = nil, on place: FixTableOptionPlace = .scenario
    ) -> FixTableColumns {
        var columns = FixTableColumns()
        #expect(columns.map(text) == nil)
        columns.timeUnit = unit
        columns.delimiter = FixTableColumns.delimiter(named: delimiter)!
        columns.localZone = zone.map { LocalTimeZone(identifier: $0)! }
        columns.givenOn = place
        return columns
    }

    /// The table read on one thread and in 3 pieces (the same, or the same error's text).
    static func readBothWays(
        _ text: String, name: String = "fixes.csv",
        columns: FixTableColumns
    ) throws -> Result<FixTable, FixTableError> {
        let path = try table(text, name: name)
        let one = Result { () throws(FixTableError) in try FixTableReader(path: path, columns: columns, pieces: 1).read() }
        let split = Result { () throws(FixTableError) in try FixTableReader(path: path, columns: columns, pieces: 3).read() }
        #expect(one == split, "in pieces: \(split)")
        return one
    }

    @Test(
        "numeric times in a unit, each exact",
        arguments: [
            ("s", "1714554000.25", 1_714_554_000_250_000 as Int64),
            ("ms", "1714554000250", 1_714_554_000_250_000),
            ("ms", "1714554000250.5", 1_714_554_000_250_500),
            ("ms", "-1.5", -1_500),
            ("us", "1714554000250001", 1_714_554_000_250_001),
        ])
    func timeUnits(unit: String, text: String, micros: Int64) throws {
        let rows = (0..<4).map { "d\($0),\(text),1,2" }.joined(separator: "\n")
        let t = try Self.readBothWays(
            "device,time,lat,lon\n\(rows)\n", columns: Self.mapping(unit: FixTimeUnit(rawValue: unit)!)
        ).get()
        #expect(t.fixes.map(\.time.microsecondsSince1970) == Array(repeating: micros, count: 4))
    }

    @Test(
        "a number outside the years in its unit says which unit it looks like",
        arguments: [
            (
                "seconds as ms", "s", FixTableOptionPlace.scenario, "1714554000250",
                #"fixes.csv:2:3: "time" is "1714554000250", outside the years 0000 to 9999; it looks like milliseconds since 1970: give timeUnit: ms"#
            ),
            (
                "seconds as µs, past 64 bits of µs", "s", .commandLine, "1714554000250000",
                #"fixes.csv:2:3: "time" is "1714554000250000", outside the years 0000 to 9999; it looks like microseconds since 1970: give --time-unit us"#
            ),
            (
                "ms as µs", "ms", .commandLine, "1714554000250000",
                #"fixes.csv:2:3: "time" is "1714554000250000", outside the years 0000 to 9999; it looks like microseconds since 1970: give --time-unit us"#
            ),
            (
                "too large in every unit", "s", .scenario, "9e30",
                #"fixes.csv:2:3: "time" is "9e30", which is neither an ISO 8601 time nor a number of seconds since 1970"#
            ),
        ])
    func unitHints(id: String, unit: String, place: FixTableOptionPlace, text: String, message: String) throws {
        let columns = Self.mapping(unit: FixTimeUnit(rawValue: unit)!, on: place)
        let result = try Self.readBothWays("device,time,lat,lon\nd,\(text),1,2\n", columns: columns)
        guard case let .failure(error) = result else { Issue.record("\(id): read"); return }
        #expect(error.description.hasSuffix(message), "\(id): \(error)")
    }

    @Test(
        "a UTF-8 byte order mark before the header or the first line is skipped",
        arguments: [
            (
                "CSV", "fixes.csv",
                "\u{FEFF}device,time,lat,lon\n" + (0..<6).map { "d,\($0),1,2" }.joined(separator: "\n") + "\n"
            ),
            ("CSV, quoted first name", "fixes.csv", "\u{FEFF}\"device\",time,lat,lon\r\nd,0,1,2\r\nd,1,1,2\r\n"),
            (
                "JSON Lines", "fixes.jsonl",
                "\u{FEFF}" + (0..<6).map { #"{"device":"d","time":\#($0),"lat":1,"lon":2}"# }.joined(separator: "\n") + "\n"
            ),
        ])
    func byteOrderMark(id: String, name: String, text: String) throws {
        let t = try Self.readBothWays(text, name: name, columns: FixTableColumns()).get()
        #expect(t.devices == ["d"], "\(id)")
        #expect(t.fixes.first?.line == (name.hasSuffix(".csv") ? 2 : 1), "\(id)")
    }

    @Test(
        "a delimiter other than the comma",
        arguments: [
            ("semicolon", ";", "device;time;lat;lon\n\"van;1\";0;1;2\nv2;1;3;4\r\nv2;2;3;4\n"),
            ("bar", "|", "device|time|lat|lon\nvan;1|0|1|2\nv2|1|3|4\nv2|2|3|4\n"),
            ("tab", "tab", "device\ttime\tlat\tlon\nvan;1\t0\t1\t2\nv2\t1\t3\t4\nv2\t2\t3\t4\n"),
        ])
    func delimiters(id: String, delimiter: String, text: String) throws {
        let t = try Self.readBothWays(text, columns: Self.mapping(delimiter: delimiter)).get()
        #expect(t.devices == ["van;1", "v2"], "\(id)")
        #expect(t.fixes.map(\.latitude) == [1, 3, 3], "\(id)")
    }

    @Test("a long ;-separated table is read in pieces as on one thread")
    func semicolonTableInPieces() throws {
        let rows = (0..<5_000).map { "van-\($0 % 7);\(1_714_554_000 + $0);59.9\($0 % 10);30.3\($0 % 9)" }
        let t = try Self.readBothWays(
            "device;time;lat;lon\n" + rows.joined(separator: "\n") + "\n",
            columns: Self.mapping(delimiter: ";")
        ).get()
        #expect(t.devices.count == 7 && t.fixes.count == 5_000 && t.dropped == 0)
    }

    @Test(
        "header errors say where to map the columns and which delimiter to give",
        arguments: [
            (
                "; header, scenario", "device;time;lat;lon\nd;0;1;2\n", "", FixTableOptionPlace.scenario,
                #"fixes.csv:1:1: the header has no "device" column: it is one field, "device…" (19 characters), which holds ';' but no ','; for a file whose fields are separated by ';' (Excel's in many countries) give delimiter: ";""#
            ),
            (
                "; header, command line", "device;time;lat;lon\nd;0;1;2\n", "", .commandLine,
                #"give --delimiter ';'"#
            ),
            (
                "mapped accuracy missing", "device,time,lat,lon\nd,0,1,2\n", "accuracy=hdop", .scenario,
                #"fixes.csv:1:1: the "accuracy" column is mapped to "hdop", which the header does not have (it has "device", "time", "lat", "lon"); name the columns in the scenario's columns: mapping if they are called otherwise"#
            ),
            (
                "unmapped device, command line", "van_id,time,lat,lon\nd,0,1,2\n", "", .commandLine,
                #"fixes.csv:1:1: the header has no "device" column (it has "van_id", "time", "lat", "lon"); name the columns with --columns device=NAME,time=NAME,lat=NAME,lon=NAME if they are called otherwise"#
            ),
            (
                "a column twice, command line", "device,time,lat,lon,lat\nd,0,1,2,3\n", "", .commandLine,
                #"the header names "lat" twice (fields 3 and 5); name each column once, or map the one to read with --columns"#
            ),
        ])
    func headerAdvice(id: String, text: String, mapping: String, place: FixTableOptionPlace, message: String) throws {
        let result = try Self.readBothWays(text, columns: Self.mapping(mapping, on: place))
        guard case let .failure(error) = result else { Issue.record("\(id): read"); return }
        #expect(error.description.hasSuffix(message) || error.description.contains(message), "\(id): \(error)")
    }

    @Test(
        "a lat column that holds longitudes is one warning about the columns",
        arguments: [
            ("scenario", FixTableOptionPlace.scenario, #"columns: {lat: x, lon: y}"#),
            ("command line", .commandLine, #"--columns lat=x,lon=y"#),
        ])
    func swappedColumns(id: String, place: FixTableOptionPlace, advice: String) throws {
        let rows = (0..<6).map { "d,\($0),30.3\($0),159.9\($0)" }.joined(separator: "\n")
        let t = try Self.readBothWays(
            "device,time,x,y\nd,9,59.9,30.3\n" + rows + "\n",
            columns: Self.mapping("lat=y,lon=x", on: place)
        ).get()
        #expect(t.dropped == 6)
        #expect(
            t.tableWarnings.map { $0.replacingOccurrences(of: t.path, with: "fixes.csv") } == [
                #"fixes.csv: 6 rows have a "y" past ±90 and a "x" within ±90 (dropped as out of range): the "y" column seems to hold longitudes; if "y" and "x" are swapped, map them the other way: "#
                    + advice
            ], "\(id)")
    }

    @Test(
        "times without a zone: read as UTC or in the zone given, with one warning a table",
        arguments: [
            (
                "UTC, scenario", nil as String?, FixTableOptionPlace.scenario, "2024-05-01T09:00:00Z",
                "fixes.csv: 1,200 times have no zone and were read as UTC; write them with Z or an offset, or give the scenario timezone: NAME"
            ),
            (
                "UTC, command line", nil, .commandLine, "2024-05-01T09:00:00Z",
                "fixes.csv: 1,200 times have no zone and were read as UTC; write them with Z or an offset, or give --input-timezone NAME"
            ),
            (
                "Madrid, summer time", "Europe/Madrid", .scenario, "2024-05-01T07:00:00Z",
                "fixes.csv: 1,200 times have no zone and were read in Europe/Madrid"
            ),
        ])
    func zonelessTimes(id: String, zone: String?, place: FixTableOptionPlace, first: String, warning: String) throws {
        // 1,200 rows without a zone, one with Z and one a number (neither counted).
        let rows = (0..<1_200).map { "d,2024-05-01T09:\(String(format: "%02d:%02d", $0 / 60 + 10, $0 % 60)),1,2" }
        let text =
            "device,time,lat,lon\nd,2024-05-01T09:00:00,1,2\n" + rows.dropFirst().joined(separator: "\n")
            + "\nd,2024-05-01T10:00:00Z,1,2\nd,1714557601,1,2\n"
        let t = try Self.readBothWays(text, columns: Self.mapping(zone: zone, on: place)).get()
        #expect(t.fixes.first?.time == at(first), "\(id)")
        #expect(t.tableWarnings.map { $0.replacingOccurrences(of: t.path, with: "fixes.csv") } == [warning], "\(id)")
    }

    @Test("times that all have a zone warn of nothing")
    func zonedTimes() throws {
        let t = try read("device,time,lat,lon\nd,2024-05-01T09:00:00+02:00,1,2\nd,1714554001,1,2\n")
        #expect(t.tableWarnings.isEmpty)
    }

    @Test("a stream reads the same options and warns alike")
    func streamedExport() throws {
        let path = try table("\u{FEFF}van_id;ts;y;x\nv;1714554000250;59.9;30.3\nv;1714554001250;59.9;30.3\n")
        let columns = Self.mapping(
            "device=van_id,time=ts,lat=y,lon=x", unit: .milliseconds, delimiter: ";",
            on: .commandLine)
        var stream = try FixTableStream(path: path, columns: columns)
        let device = try stream.next()
        #expect(device?.fixes.map(\.time) == [at("2024-05-01T09:00:00.250Z"), at("2024-05-01T09:00:01.250Z")])
        #expect(stream.tableWarnings.isEmpty)
    }

    @Test(
        "--columns mappings",
        arguments: [
            ("device=van_id,time=ts", nil as String?),
            ("lat = y , lon=x,accuracy=acc", nil),
            ("device", #""device" is not NAME=COLUMN; write the mapping as device=van_id,time=ts,lat=y,lon=x,accuracy=acc"#),
            (
                "speed=v",
                #""speed" is not a fix-table value; map device, time, lat, lon or accuracy onto your columns (device=van_id,time=ts)"#
            ),
        ])
    func columnMappings(text: String, problem: String?) {
        var columns = FixTableColumns()
        #expect(columns.map(text) == problem)
    }
}
