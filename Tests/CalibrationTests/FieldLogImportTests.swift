import Calibration
import FixTables
import Foundation
import Geodesy
import Geofencing
import Runs
import TestSupport
import Testing
import Time

/// The study the fixtures of `Fixtures/field-logs/` are written against (their README).
private let study: (scenario: String, folder: URL) = {
    let folder = try! TemporaryFolders.make("field-log-import")
    let scenario = try! SyntheticFieldStudy(fences: 2, walks: 2, seed: 3).write(into: folder.path)
    return (scenario, folder)
}()

private func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("field-logs/\(name)").path
}

/// The options the warehouse export needs: its delimiter, decimal mark, zone and column names.
private func warehouseOptions() -> ObservedLog.ReadOptions {
    var options = ObservedLog.ReadOptions()
    var columns = FixTableColumns()
    columns.givenOn = .commandLine
    #expect(
        columns.map(
            "device=Phone,region=Store,kind=Event Type,time=Local Time,detectedAt=Decided,lat=Latitude,lon=Longitude",
            values: .fieldLog) == nil)
    columns.delimiter = UInt8(ascii: ";")
    columns.decimalComma = true
    columns.localZone = LocalTimeZone(identifier: "Europe/Paris")
    options.columns = columns
    return options
}

@Suite("Field logs as they come: import options, every problem at once, skipping")
struct FieldLogImportTests {
    func checked(_ path: String, _ options: ObservedLog.ReadOptions) throws -> ObservedLog {
        try ObservedLog.read([path], options: options).checked(against: try ScenarioRun(loading: study.scenario).simulation)
    }

    /// Every problem of the export at once: the unknown kind, the time that is none, the unknown region,
    /// each with its line and column (hand-counted: `walker-2;store-1;` is 17 bytes, `walker-2;store-1;ENTER;` 23).
    @Test func everyProblemAtOnce() throws {
        do {
            _ = try checked(fixture("warehouse-export.csv"), warehouseOptions())
            Issue.record("the export was read without an error")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.map { [$0.line, $0.column] } == [[6, 18], [7, 24], [8, 10]], "\(errors)")
            #expect(errors.errors[0].message.contains("no kind \"ENTRY\""))
            #expect(errors.errors[1].message.contains("\"Local Time\" is \"05/10/2026 11:05\", which is neither"))
            #expect(errors.errors[2].message.contains("the region \"store-9\" is not in the scenario"))
            #expect(errors.description.contains("3 problems in 3 rows; --skip-invalid skips"))
        }
    }

    /// --skip-invalid: the three bad rows skipped and named, the duplicate read once, the blank line counted;
    /// the good rows read with their zone (UTC+2), decimal commas and any-case kinds.
    @Test func skipInvalidKeepsTheRest() throws {
        var options = warehouseOptions()
        options.skipInvalid = true
        let log = try checked(fixture("warehouse-export.csv"), options)
        #expect(log.events.map(\.kind) == [.enter, .exit, .enter])
        #expect(log.events.map(\.line) == [2, 4, 9])
        #expect(log.events[0].time == Timestamp(iso8601: "2026-10-05T09:04:10Z"))
        #expect(log.events[0].detectedAt == Timestamp(iso8601: "2026-10-05T09:04:05Z"))
        #expect(log.events[1].coordinate == Coordinate(latitude: 48.8566, longitude: 2.3523))
        #expect(log.events[0].extra == ["Platform": "ios"])
        let warnings = log.warnings.joined(separator: "\n")
        #expect(
            warnings.contains("1 row repeats an earlier row exactly and was read once (the first: line 3 repeats line 2)"))
        #expect(warnings.contains("1 blank line was skipped (the first: line 5)"))
        #expect(warnings.contains("3 rows with a problem skipped (--skip-invalid); the first 3: "))
        #expect(warnings.contains("warehouse-export.csv:8:10: the region \"store-9\""))
        #expect(log.platformSplits.count == 1)
        #expect(log.platformSplits.first?.contains("the column \"Platform\" splits the log into 2 values") == true)
    }

    /// Unknown regions: ignored by name or skipped, counted; the other problems still refuse the log.
    @Test(arguments: [(["store-9"], false), ([], true)])
    func unknownRegionsLeftOut(ignored: [String], skipUnknown: Bool) throws {
        var options = warehouseOptions()
        options.ignoredRegions = Set(ignored)
        options.skipUnknownRegions = skipUnknown
        do {
            _ = try checked(fixture("warehouse-export.csv"), options)
            Issue.record("read without an error")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.map(\.line) == [6, 7])
        }
        options.skipInvalid = true
        let log = try checked(fixture("warehouse-export.csv"), options)
        #expect(log.events.count == 3)
        let said =
            skipUnknown ? "1 row names a region the scenario does not have, skipped" : "1 row of ignored regions left out"
        #expect(log.warnings.contains { $0.contains(said) && $0.contains("\"store-9\": 1") }, "\(log.warnings)")
        #expect(log.warnings.contains { $0.contains("2 rows with a problem skipped") })
    }

    /// Numeric times in the unit given, keys mapped, uppercase kinds; without the unit they are refused
    /// with the unit's advice.
    @Test func epochMillisecondsWithMappedKeys() throws {
        var options = ObservedLog.ReadOptions()
        options.columns.givenOn = .commandLine
        #expect(
            options.columns.map("device=phone,region=fence,kind=type,time=ts,detectedAt=decided", values: .fieldLog) == nil)
        options.columns.timeUnit = .milliseconds
        let log = try checked(fixture("epoch-ms.jsonl"), options)
        #expect(log.events.map(\.kind) == [.enter, .exit])
        #expect(log.events.map(\.time) == ["2026-10-05T09:04:10Z", "2026-10-05T09:08:00Z"].map { Timestamp(iso8601: $0) })
        #expect(log.events[0].detectedAt == Timestamp(iso8601: "2026-10-05T09:03:58Z"))
        #expect(log.events[0].extra == ["os": "iOS 18.5"])
        options.columns.timeUnit = .seconds
        do {
            _ = try checked(fixture("epoch-ms.jsonl"), options)
            Issue.record("milliseconds read as seconds")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.map(\.line) == [1, 2])  // one problem a row: each row's ts
            #expect(errors.first.message.contains("it looks like milliseconds since 1970: give --time-unit ms"))
        }
    }

    /// A field-log mapping refuses a name that is no field log's value, and a fix table's refuses region.
    @Test func mappingNamesTheValues() {
        var columns = FixTableColumns()
        #expect(columns.map("speed=v", values: .fieldLog)?.contains("is not a field log's value") == true)
        #expect(columns.map("region=store") != nil)
        #expect(columns.map("region=store", values: .fieldLog) == nil && columns.region == "store")
    }

    /// A header of one column that `;` would split is refused at once, naming --delimiter.
    @Test func oneColumnHeaderNamesTheDelimiter() throws {
        do {
            _ = try checked(fixture("warehouse-export.csv"), ObservedLog.ReadOptions())
            Issue.record("read without an error")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.count == 1)
            #expect(errors.first.message.contains("separated by ';': give --delimiter ';'"), "\(errors)")
        }
    }

    /// Up to 20 problems are written, then how many more (hand-counted: 25 bad rows).
    @Test func problemsPastTheLimitAreCounted() throws {
        let rows = (1...25).map { _ in "walker-1,store-1,entr,2026-10-05T09:04:00Z" }
        let path = study.folder.appendingPathComponent("many-\(UUID().uuidString).csv").path
        try
            (["device,region,kind,time"]
            + rows.enumerated().map { "\($1)\($0 == 0 ? "" : String(repeating: " ", count: $0))" })
            .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try checked(path, ObservedLog.ReadOptions())
            Issue.record("read without an error")
        } catch let errors as ObservedLogErrors {
            #expect(errors.errors.count == 25)
            let lines = errors.description.split(separator: "\n")
            #expect(lines.count == 22)
            #expect(lines[20] == "and 5 more problems")
            #expect(lines[21].hasPrefix("25 problems in 25 rows"))
        }
    }
}
