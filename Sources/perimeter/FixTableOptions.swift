import ArgumentParser
import FixTables
import ScenarioFormat

extension FixTimeUnit: ExpressibleByArgument {}

/// The values a table's `--columns` may map: a fix table's (`inspect`, `stream`) or a field log's
/// (`calibrate --observed`).
protocol TableValues {
    static var values: FixTableColumns.Values { get }
}

/// A fix table's values: device, time, lat, lon, accuracy.
enum FixTableValues: TableValues {
    static let values = FixTableColumns.Values.fixes
}

/// A field log's values: a fix table's and region, kind, detectedAt.
enum FieldLogValues: TableValues {
    static let values = FixTableColumns.Values.fieldLog
}

/// How `inspect` and `stream` read a fix table whose export differs from Perimeter's own: the options
/// a scenario's fix-table entry gives as `columns:`, `timeUnit:`, `delimiter:`, `decimal:` (and its `timezone:`,
/// here `--input-timezone`).
typealias FixTableOptions = TableOptions<FixTableValues>

/// How a table whose export differs from Perimeter's own is read, one group of options for each kind of
/// table (`FixTableOptions`; `calibrate`'s field logs, `TableOptions<FieldLogValues>`): its columns, the
/// unit of numeric times, the delimiter, the decimal mark and the zone of times without one.
struct TableOptions<Values: TableValues>: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Your column names for the table's values (as a scenario's columns: mapping).",
            valueName: Values.values.example))
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
        if let columns, let problem = mapping.map(columns, values: Values.values) {
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

/// `--skip-invalid`, for every command that reads fix tables (`inspect`, `stream`, and those that load a
/// scenario: its fix-table entries, as each entry's `skip: invalid`): a table's rows that have a problem
/// are skipped and counted in a warning, rather than the table refused with every problem listed.
/// (`calibrate`'s own `--skip-invalid` is of its field logs.)
struct SkipInvalidOption: ParsableArguments {
    @Flag(
        name: .customLong("skip-invalid"),
        help: """
            Skip the rows of a fix table that have a problem (a value missing or unreadable), counted in a \
            warning with the first of them, rather than refuse the table with every problem listed.
            """)
    var skipInvalid = false

    /// `columns` skipping the rows that have a problem when asked.
    func reading(_ columns: FixTableColumns) -> FixTableColumns {
        var columns = columns
        columns.skipInvalid = columns.skipInvalid || skipInvalid
        return columns
    }

    /// `inputs` whose fix tables skip the rows that have a problem when asked.
    func reading(_ inputs: InputConfinement) -> InputConfinement {
        var inputs = inputs
        inputs.skipsInvalidRows = inputs.skipsInvalidRows || skipInvalid
        return inputs
    }
}
