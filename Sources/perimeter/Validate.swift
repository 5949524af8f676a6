import ArgumentParser
import FileSystem
import ScenarioFormat

/// `perimeter validate PATH...`: checks scenarios, region files and tracks without running them.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks scenarios, GeoJSON region files and GPX tracks without running them.",
        discussion: """
        Files are told apart by their extension: .yaml, .yml and .json are scenarios (with their region \
        files and tracks), or journeys for 'perimeter track synth' when they have a top-level 'route'; \
        .geojson region files, .gpx tracks, .csv, .jsonl and .ndjson fix tables (a fleet's fixes). A folder is \
        searched for all of them. \
        Every problem is listed, each with its file and place; the exit code is 2 if there was any.
        """
    )

    @Argument(help: "Files or folders to check.")
    var paths: [String]

    func run() throws {
        let (files, unreachable) = FileValidation.files(in: paths)
        if let first = unreachable.first {
            StandardError.error((FileCheck.unreachable(first) ?? "no such file: \(first)") + ".")
            throw ExitCode(Exit.badInput)
        }
        var problems = 0
        for file in files {
            let (found, warnings) = FileValidation.check(file)
            for problem in found { StandardError.error(problem) }
            for warning in warnings { StandardError.warning(warning) }
            if found.isEmpty { print("ok: \(file)") }
            problems += found.count
        }
        if problems > 0 {
            StandardError.note("\(problems) problem\(problems == 1 ? "" : "s") found.")
            throw ExitCode(Exit.badInput)
        }
    }
}
