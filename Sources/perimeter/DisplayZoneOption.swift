import ArgumentParser
import Geodesy

/// `--timezone NAME`: whose clocks the times people read are shown on (the console, the summaries of
/// `compare` and of a Monte Carlo batch, the report page); files stay UTC (SEMANTICS §7).
struct DisplayZoneOption: ParsableArguments {
    @Option(
        name: .customLong("timezone"),
        help: ArgumentHelp(
            "Show the times people read on this IANA zone's clocks (such as Europe/Madrid); files stay UTC.",
            valueName: "name"))
    var name: String?

    /// The zone named, or nil for UTC.
    var zone: LocalTimeZone? { name.flatMap { LocalTimeZone(identifier: $0) } }

    func validate() throws {
        if let name { _ = try Self.zone(named: name) }
    }

    /// The zone `--timezone` names, or a usage error (exit code 64) saying what to give: the one check of
    /// every verb's `--timezone`.
    static func zone(named name: String) throws -> LocalTimeZone {
        guard let zone = LocalTimeZone(identifier: name) else {
            throw ValidationError(
                "--timezone: \"\(name)\" is not a zone of the tz database; give an IANA name such as Europe/Madrid, America/New_York or UTC."
            )
        }
        return zone
    }
}
