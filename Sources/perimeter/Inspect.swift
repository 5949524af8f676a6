import ArgumentParser
import FileSystem
import FixTables
import GPX
import Geofencing
import ScenarioFormat
import TextEscaping

/// `perimeter inspect FILE...`: what each GPX track holds (points, segments, span, gaps, speeds), or each
/// fix table (devices, rows, span, drops), as text or JSON. A file that cannot be read is reported on
/// stderr; the others are still shown, and the command then exits with code 2 (bad input).
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract:
            "Show what GPX tracks (points, segments, span, gaps, speeds), fix tables (devices, rows, span, drops) and GeoJSON region files (each fence's size and what each profile can do with it) hold.",
        discussion: """
            Files ending in .csv, .jsonl or .ndjson are fix tables (a fleet's fixes, one row each); .geojson files \
            regions (per fence: area, inside depth, smallest enclosing radius, the fences nearer than a profile's \
            exit distance, and whether each --profile can enter it and how far outside it exits); the others GPX. \
            --columns, --time-unit, --delimiter, --decimal and --input-timezone say how to read a table exported otherwise. \
            A table's bad rows are listed all at once (20, then how many more; exit 2); --skip-invalid skips them, \
            counted in a warning.
            """
    )

    @Argument(help: ArgumentHelp("GPX tracks, fix tables or GeoJSON region files to inspect.", valueName: "file"))
    var tracks: [String]

    @Flag(help: "Print one JSON object per file, one per line.")
    var json = false

    @OptionGroup var table: FixTableOptions

    @OptionGroup var skipping: SkipInvalidOption

    /// `--timezone NAME`: the zone `inspect` read a table's zone-less times in before `--input-timezone`
    /// (README "Fleets in a table" documents it); still read so, with a warning. `inspect` shows no
    /// times on a zone's clocks, so it has no display zone.
    @Option(name: .customLong("timezone"), help: ArgumentHelp(visibility: .hidden))
    var legacyTimezone: String?

    @Option(
        help: ArgumentHelp(
            "The profiles a GeoJSON file's fences are measured against, separated by commas: built-in names or profile files.",
            valueName: "names"))
    var profile = "ios,android,android-background"

    @Option(
        name: .customLong("id-property"),
        help: ArgumentHelp(
            "The property of each GeoJSON feature that holds its region id (store_code), as a scenario's geojson: entry's idProperty: (default: properties.id, else the feature's id).",
            valueName: "name"))
    var idProperty: String?

    @Flag(
        help:
            "Show where each track stopped and how much its fixes scatter there (the jitter), and whether it looks recorded on a phone (SEMANTICS §9), instead of the summary."
    )
    var stays = false

    func validate() throws {
        _ = try table.readingColumns(legacyZone: legacyTimezone)
    }

    func run() throws {
        var failed = false
        let columns = skipping.reading(try table.readingColumns(legacyZone: legacyTimezone))
        if let warning = table.legacyZoneWarning(legacyTimezone) { StandardError.warning(warning) }
        let fenceProfiles = try tracks.contains(where: Self.isRegionFile) ? profiles(profile, option: "--profile") : []
        for (index, path) in tracks.enumerated() {
            do {
                let (text, json) =
                    try Self.isRegionFile(path)
                    ? Self.fences(of: path, profiles: fenceProfiles, idProperty: idProperty)
                    : stays
                        ? InspectStays.summary(of: path, columns: columns) : Self.summary(of: path, columns: columns)
                if self.json {
                    print(json)
                } else {
                    if index > 0 { print() }
                    print(TerminalText.message(text))
                }
            } catch let error as FixTableError {
                failed = true
                for line in error.lines { StandardError.error(line) }  // every problem of its rows, one a line
            } catch {
                failed = true
                StandardError.error("\(error)")
            }
        }
        if failed { throw ExitCode.badInput }
    }

    /// Whether `path` is a GeoJSON region file, by its extension.
    static func isRegionFile(_ path: String) -> Bool { FileValidation.kind(of: path) == .regions }

    /// The text and JSON of a region file's fences under `profiles` (`FenceInspection`), its warnings on
    /// standard error; its problems, each at its place, thrown.
    static func fences(
        of path: String, profiles: [Profile], idProperty: String? = nil
    ) throws -> (
        text: String, json: String
    ) {
        var warnings: [String] = []
        let regions = try RegionFile.load(
            path: path, idProperty: idProperty, option: "--id-property", warnings: &warnings)
        for warning in warnings { StandardError.warning(warning) }
        let inspection = FenceInspection(file: path, regions: regions, profiles: profiles)
        return (inspection.text, inspection.json)
    }

    /// The text and JSON summaries of a GPX track or a fix table (read with `columns`, its warnings
    /// about the whole table on standard error).
    static func summary(of path: String, columns: FixTableColumns = FixTableColumns()) throws -> (text: String, json: String)
    {
        if ParquetFile.isParquet(path: path) {
            throw FixTableError(file: path, line: 0, column: 0, message: ParquetFile.advice(for: path))
        }
        if let format = FixTableFormat(extensionOf: path) {
            let table = try FixTableReader(path: path, format: format, columns: columns).read()
            for warning in table.tableWarnings { StandardError.warning(warning) }
            let summary = FixTableSummary(table, format: format)
            return (summary.text(), summary.json)
        }
        let summary = TrackSummary(try GPXTrack.load(path: path))
        return (summary.text, summary.json)
    }
}
