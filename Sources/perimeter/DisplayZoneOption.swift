import ArgumentParser
import ScenarioFormat
import Time

/// `--timezone NAME`: whose clocks the times people read are shown on (the console, the summaries of
/// `compare`, `outcomes` and of a Monte Carlo batch, the report page, and the hours and days `summarize`
/// groups by), else the scenario's `timezone:`;
/// files stay UTC (SEMANTICS §7). Its one meaning: `--input-timezone` reads a fix table's zone-less times.
struct DisplayZoneOption: ParsableArguments {
    @Option(
        name: .customLong("timezone"),
        help: ArgumentHelp(
            "Show the times people read on this IANA zone's clocks (such as Europe/Madrid; default: the scenario's timezone:, else UTC); files stay UTC.",
            valueName: "name"))
    var name: String?

    /// The zone named, or nil for UTC.
    var zone: LocalTimeZone? { name.flatMap { LocalTimeZone(identifier: $0) } }

    func validate() throws {
        if let name { _ = try Self.zone(named: name) }
    }

    /// The zone `option` (`--timezone`, `--input-timezone`) names, or a usage error (exit code 64) saying
    /// what to give: the one check of every verb's zone options.
    static func zone(named name: String, option: String = "--timezone") throws -> LocalTimeZone {
        guard let zone = LocalTimeZone(identifier: name) else {
            throw ValidationError(
                "\(option): \"\(name)\" is not a zone of the tz database; give an IANA name such as Europe/Madrid, America/New_York or UTC."
            )
        }
        return zone
    }

    /// Whose clocks a command shows the times of `scenario` on: the zone `--timezone` names, else the
    /// scenario's own `timezone:` (the zone its times are written in), else nil for UTC.
    func zone(showing scenario: Scenario) -> LocalTimeZone? { zone ?? scenario.timeZone }
}
