import Analysis
import ArgumentParser
import EventSinksSQLite
import FileSystem
import Runs
import TextEscaping
import WireFormat

extension SummaryKey: ExpressibleByArgument {}

/// `perimeter summarize EVENTS_OR_SCENARIO`: per group (`--by`), the counts of enter, exit, dwell and
/// visit events and the visit durations' p50, p90 and max, from an event log or a scenario run first.
struct Summarize: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Counts enter, exit, dwell and visit events per group, with the visits' p50, p90 and max durations.",
        discussion: """
            The input is an event log Perimeter wrote (JSON Lines from jsonl:, CSV from csv:, an SQLite \
            database from sqlite:; told by its first bytes), or a scenario (.yaml, .yml or .json), which is \
            run first under its own profile, its events kept in memory. A Monte Carlo batch's runs, and every \
            run of an SQLite database, are counted together.

            Each --by (region, device, hour, day; repeatable, in the order given) adds a key to the groups; \
            without one, every event is one group. An event belongs to the group of its own time (the time \
            it was delivered: a visit's is its exit's); hour and day floor it on the clocks of --timezone \
            (default UTC; for a scenario, its timezone:), which the header names. A visit's duration is its \
            duration field (departure minus arrival); p50 and p90 are nearest-rank percentiles of the group's \
            visits, and every value is empty without visits. monitor-start, monitor-stop and monitor-failed \
            events are not counted. Groups are sorted by their keys: ids by their bytes, times ascending.

            Output: a table for people (durations for people); --csv, RFC 4180 with a header row and a row a \
            group; --json, one object. In CSV and JSON durations are in seconds, hours are ISO 8601 with the \
            clocks' offset (2024-05-01T09:00:00Z) and days are dates (2024-05-01).

            Exit codes: 0 the summary was written; 2 the input cannot be read (missing, not an event log nor \
            a scenario, a bad line or row: the message names the file and the place); 64 a usage error.
            """
    )

    @Argument(help: ArgumentHelp("An event log (JSON Lines, CSV, SQLite) or a scenario.", valueName: "events-or-scenario"))
    var input: String

    @Option(
        name: .customLong("by"),
        help: ArgumentHelp("Group by region, device, hour or day; repeat it for several, in order.", valueName: "key"))
    var keys: [SummaryKey] = []

    @Flag(help: "Print CSV (RFC 4180: a header row, a row a group, durations in seconds) instead of the table.")
    var csv = false

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    @OptionGroup var display: DisplayZoneOption

    @OptionGroup var threads: ThreadsOption

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json each choose the output: give one of them.") }
        if let twice = keys.first(where: { key in keys.filter { $0 == key }.count > 1 }) {
            throw ValidationError("--by \(twice) is given twice; each key groups once.")
        }
    }

    func run() throws {
        let events: [WireEvent]
        var zone = display.zone
        do {
            switch try SummaryInput.of(input) {
            case .eventLog(.sqlite): events = try SQLiteEventLog.read(input)
            case let .eventLog(format): events = try EventLogFile(path: input, format: format, poolingRuns: true).events
            case .scenario:
                let scenarioRun: ScenarioRun
                do {
                    scenarioRun = try ScenarioRun(loading: input, threads: threads.count)
                } catch {
                    throw error.reported
                }
                for warning in scenarioRun.warnings { StandardError.warning(warning) }
                zone = display.zone(showing: scenarioRun.scenario)
                events = scenarioRun.events(threads: threads.count).events.map(WireEvent.init)
            }
        } catch let error as EventLogFile.ReadError {
            StandardError.error(error.description)
            throw ExitCode.badInput
        }
        let summary = EventSummary(events, by: keys, zone: zone)
        let source = FileNames.lastComponent(of: input)
        print(
            csv ? summary.csv : json ? summary.json(source: source) : summary.readable(source: source),
            terminator: json ? "\n" : "")
    }
}
