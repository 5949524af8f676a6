import ArgumentParser
import FixTables
import Geodesy

extension FixTimeUnit: ExpressibleByArgument {}

/// How `inspect` and `stream` read a fix table whose export differs from Perimeter's own: the options
/// a scenario's fix-table entry gives as `columns:`, `timeUnit:`, `delimiter:`, `decimal:` (and its `timezone:`).
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
        help: ArgumentHelp(
            "The IANA zone (Europe/Madrid) in which ISO times without a zone are read, and people's times are shown (the console); default UTC.",
            valueName: "name"))
    var timezone: String?

    func validate() throws {
        _ = try readingColumns()
    }

    /// The columns, unit, delimiter and zone given, as the fix-table readers take them; a usage error
    /// (exit code 64) saying what to write otherwise.
    func readingColumns() throws -> FixTableColumns {
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
        if let timezone { mapping.localZone = try DisplayZoneOption.zone(named: timezone) }
        return mapping
    }
}
