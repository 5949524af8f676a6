import ArgumentParser
import FileSystem
import Runs
import ScenarioFormat
import TextEscaping

/// `perimeter validate PATH...`: checks scenarios, region files and tracks without running them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks scenarios, GeoJSON region files and GPX tracks without running them.",
        discussion: """
            Files are told apart by their extension: .yaml, .yml and .json are scenarios (with their region \
            files and tracks), or journeys for 'perimeter track synth' when they have a top-level 'route'; \
            .geojson region files, .gpx tracks, .csv, .jsonl and .ndjson fix tables (a fleet's fixes). A folder is \
            searched for all of them. \
            Every problem is listed, each with its file and place; the exit code is 2 if there was any. A \
            scenario's own sinks are checked as 'perimeter run' would (files inside its folder; http:// and \
            https:// only with --allow-scenario-network-sinks; never auth-env=), and what each accepted one \
            would do is listed under its 'ok:' line: the files it writes, the URLs it sends events to.
            """
    )

    @Argument(help: "Files or folders to check.")
    var paths: [String]

    @Flag(help: "Check scenarios as 'perimeter run --allow-scenario-network-sinks' would take them.")
    var allowScenarioNetworkSinks = false

    @Option(
        help: ArgumentHelp(
            "Also check the fences under these profiles, separated by commas (built-in names or profile files): the regions that can never get an enter under one, or an exit from the scenario's tracks, as 'run --profile' warns.",
            valueName: "names"))
    var profile: String?

    @Option(
        name: .customLong("id-property"),
        help: ArgumentHelp(
            "The property of each GeoJSON feature of a region file given that holds its region id (store_code), as a scenario's geojson: entry's idProperty: (default: properties.id, else the feature's id).",
            valueName: "name"))
    var idProperty: String?

    @OptionGroup var warningOptions: WarningOptions

    @OptionGroup var inputs: InputOptions

    @OptionGroup var skipping: SkipInvalidOption

    func run() throws {
        let (files, unreachable) = FileValidation.files(in: paths)
        if let first = unreachable.first {
            StandardError.error((FileCheck.unreachable(first) ?? "no such file: \(first)") + ".")
            throw ExitCode.badInput
        }
        let chosen = try profile.map { try profiles($0, option: "--profile") } ?? []
        var problems = 0
        let policy = ScenarioSinkPolicy(allowsNetwork: allowScenarioNetworkSinks)
        for file in files {
            let (found, warnings, notes) = FileValidation.check(
                file, inputs: skipping.reading(inputs.confinement(givenFolders: paths)), profiles: chosen,
                allWarnings: warningOptions.allWarnings, idProperty: idProperty
            ) {
                [policy] scenario in
                let checked = policy.check(scenario, registry: Perimeter.sinks)
                return (checked.problems.map(\.description), checked.effects)
            }
            for problem in found { StandardError.error(problem) }
            for warning in warnings { StandardError.warning(warning) }
            if found.isEmpty { print(TerminalText.lines(["ok: \(file)"] + notes.map { "    " + $0 })) }
            problems += found.count
        }
        if problems > 0 {
            StandardError.note("\(problems) problem\(problems == 1 ? "" : "s") found.")
            throw ExitCode.badInput
        }
    }
}
