import ArgumentParser
import FixTables
import Geodesy

extension FixTimeUnit: ExpressibleByArgument {}

/// How `inspect` and `stream` read a fix table whose export differs from Perimeter's own: the options
/// a scenario's fix-table entry gives as `columns:`, `timeUnit:`, `delimiter:`, `decimal:` (and its `timezone:`,
/// here `--input-timezone`).
struct FixTableOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Your column names for the fix table's values (as a scenario's columns: mapping).",
            valueName: "device=van_id,time=ts,lat=y,lon=x,accuracy=acc"))
    var columns: String?

    @Option(help: ArgumentHelp("The unit of numeric times since 1970.", valueName: "unit"))
    var timeUnit: FixTimeUnit = .seconds

    @Option(help: ArgumentHelp("The CSV delimiter: ',', ';', '|' or tab.", valueName: "char"))
    var delimiter: String = ","

    @Option(help: ArgumentHelp("The decimal mark of the table's numbers: '.' or ','.", valueName: "char"))
    var decimal: String = "."

    @Option(
        name: .customLong("input-timezone"),
        help: ArgumentHelp(
            "The IANA zone (Europe/Madrid) in which the table's ISO times without a zone are read; default UTC.",
            valueName: "name"))
    var inputTimezone: String?

    func validate() throws {
        _ = try readingColumns()
    }

    /// The columns, unit, delimiter and zone given, as the fix-table readers take them; a usage error
    /// (exit code 64) saying what to write otherwise. `legacyZone`: the name `--timezone` gave on
    /// `inspect` and `stream`, which read zone-less times there before `--input-timezone` came (README
    /// "Fleets in a table" documents that spelling), used when `--input-timezone` is not given.
    func readingColumns(legacyZone: String? = nil) throws -> FixTableColumns {
        var mapping = FixTableColumns()
        mapping.givenOn = .commandLine
        if let columns, let problem = mapping.map(columns) {
            throw ValidationError("--columns: \(problem).")
        }
        mapping.timeUnit = timeUnit
        guard let delimiter = FixTableColumns.delimiter(named: self.delimiter) else {
            throw ValidationError("--delimiter is \"\(self.delimiter)\"; give ',', ';', '|' or tab.")
        }
        mapping.delimiter = delimiter
        guard let comma = FixTableColumns.decimalComma(named: decimal) else {
            throw ValidationError("--decimal is \"\(decimal)\"; give '.' or ','.")
        }
        mapping.decimalComma = comma
        if let inputTimezone {
            mapping.localZone = try DisplayZoneOption.zone(named: inputTimezone, option: "--input-timezone")
        } else if let legacyZone {
            mapping.localZone = try DisplayZoneOption.zone(named: legacyZone)
        }
        return mapping
    }

    /// The warning of a command whose `--timezone` also reads the table's zone-less times (the spelling
    /// of before `--input-timezone`), or nil when `--input-timezone` is given or `--timezone` is not.
    func legacyZoneWarning(_ legacyZone: String?) -> String? {
        guard inputTimezone == nil, let legacyZone else { return nil }
        return "--timezone \(legacyZone) also reads the table's times written without a zone, as it did before "
            + "--input-timezone; give --input-timezone \(legacyZone) for that (--timezone is the zone times are shown on)"
    }
}
