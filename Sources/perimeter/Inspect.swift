import ArgumentParser
import FileSystem
import GPX

/// `perimeter inspect TRACK.gpx...`: what each GPX file holds (points, segments, span, gaps, speeds),
/// as text or JSON. A file that cannot be read is reported on stderr; the others are still shown, and
/// the command then exits with code 2 (bad input).
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the points, segments, time span, gaps and speeds of GPX tracks."
    )

    @Argument(help: ArgumentHelp("GPX files to inspect.", valueName: "TRACK.gpx"))
    var tracks: [String]

    @Flag(help: "Print one JSON object per file, one per line.")
    var json = false

    func run() throws {
        var failed = false
        for (index, path) in tracks.enumerated() {
            do {
                let summary = TrackSummary(try GPXTrack.load(path: path))
                if json {
                    print(summary.json)
                } else {
                    if index > 0 { print() }
                    print(summary.text)
                }
            } catch {
                failed = true
                StandardError.error("\(error)")
            }
        }
        if failed { throw ExitCode(Exit.badInput) }
    }
}
