import ArgumentParser
import FileSystem
import Geofencing
import Report
import Runs
import ScenarioFormat

/// `perimeter report SCENARIO -o report.html`: one self-contained HTML page with the map and the timeline.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Writes one self-contained HTML page: the map, each device's timeline, the comparison.",
        discussion: """
            The page needs nothing but a browser: its style and script are inside it, and it makes no request \
            (unless --tiles adds a base map). The map shows the regions (circles as true circles, polygons with \
            their holes), each device's track (simplified for drawing), and a marker per enter (green), exit \
            (red), dwell (gold) and visit (blue), one layer per profile; hover a marker for its event; drag to \
            pan, the wheel to zoom. The timeline shows, per device, region and profile, the inside periods and \
            the events on one time axis, with --runs the p5–p95 spread of each event's time (by crossing of the \
            exact track, as run --runs groups them); the table compares each profile with ideal on the exact \
            track, without the scenario's noise (as perimeter compare), with the true distance from the \
            boundary at which the profile's events fired; the outcomes table counts the devices that got each \
            dwell rule, enter and visit, in the truth and per profile (as perimeter outcomes). The file is \
            replaced only once it is complete.
            """
    )

    @Argument(help: "The scenario file (YAML, or JSON).")
    var scenario: String

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The HTML file to write.", valueName: "file"))
    var output: String

    @Option(
        help: ArgumentHelp("The profiles to draw, separated by commas: built-in names or profile files.", valueName: "names")
    )
    var profiles = "ios,android,ideal"

    @OptionGroup var monteCarlo: MonteCarloOptions

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var inputs: InputOptions
    var runs: Int? { monteCarlo.runs }
    var seed: UInt64? { monteCarlo.seed }

    @Option(
        help: ArgumentHelp(
            "An XYZ tile URL for a base map, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png (the page then fetches tiles).",
            valueName: "url"))
    var tiles: String?

    @OptionGroup var threads: ThreadsOption

    @OptionGroup var skipping: SkipInvalidOption

    func validate() throws {
        _ = try perimeter.profiles(profiles)
        if let tiles, !(tiles.contains("{z}") && tiles.contains("{x}") && tiles.contains("{y}")) {
            throw ValidationError(
                "--tiles: expected an XYZ URL template with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png, got \"\(tiles)\"."
            )
        }
    }

    func run() throws {
        let list = try perimeter.profiles(profiles)
        let page: ReportPage
        do {
            let base = try ScenarioRun(loading: scenario, inputs: skipping.reading(inputs.confinement()))
            for warning in base.warnings(under: list) { StandardError.warning(warning) }
            if let warning = base.unmarkedRecordingWarning { StandardError.warning(warning) }
            page = ReportPage(
                try ReportBuilder(
                    base, profiles: list, runs: runs, seed: seed, tiles: tiles,
                    timeZone: display.zone(showing: base.scenario)))
        } catch {
            throw error.reported
        }
        let html: String
        do {
            html = try page.html(threads: threads.count)
        } catch {
            throw error.reported
        }
        do {
            try AtomicFile.write(html.utf8, to: output)
        } catch {
            StandardError.error("cannot write the report \(output): \(error.cause)")
            throw ExitCode.sinkFailed
        }
    }
}
