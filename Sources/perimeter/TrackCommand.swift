import ArgumentParser
import FileSystem
import GPX
import ScenarioFormat
import TrackSynthesis

/// `perimeter track …`: tools for tracks. `track synth` makes a GPX track from a journey file.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Tools for GPX tracks.",
        subcommands: [Synth.self]
    )

    /// `perimeter track synth JOURNEY.yaml -o TRACK.gpx [--untimed]`.
    struct Synth: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "synth",
            abstract: "Makes a GPX track from a journey file (a route of moves, stops and fix losses).",
            discussion: """
                A journey has start, seed, interval, noise and a route of steps: {at: [lat, lon]} first, then \
                {to: [lat, lon], speed: 12 | "40km/h"}, {stop: 5m} and {lost: 3m}. Moves follow the great circle \
                at constant speed; a fix is written every interval, with seeded Gaussian noise. The same file \
                gives byte-identical output. Each fix loss ends a <trkseg>. With --untimed, Xcode-style <wpt>s \
                without times, one per interval (a journey with a fix loss cannot be written so).
                """
        )

        @Argument(help: ArgumentHelp("The journey file (YAML or JSON).", valueName: "JOURNEY.yaml"))
        var journey: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The GPX file to write; '-' for standard output.", valueName: "TRACK.gpx"))
        var output: String

        @Flag(help: "Write untimed <wpt>s, as Xcode's location simulation plays them, instead of a timed <trk>.")
        var untimed = false

        func run() throws {
            let loaded: Journey
            do {
                loaded = try JourneyLoader.load(path: journey)
            } catch {
                throw error.reported
            }
            if untimed, loaded.steps.contains(where: { if case .lost = $0 { return true } else { return false } }) {
                StandardError.error(
                    "\(journey): --untimed cannot express a fix loss (lost:): untimed points play one per pace with no gaps; write a timed track instead"
                )
                throw ExitCode.badInput
            }
            let track = loaded.synthesize()
            do {
                let writer = try GPXWriter(path: output)
                if untimed {
                    for fix in track.fixes { try writer.waypoint(fix.coordinate) }
                } else {
                    try writer.beginTrack(name: loaded.name)
                    for segment in track.segments {
                        try writer.beginSegment()
                        for fix in segment { try writer.trackPoint(fix.coordinate, time: fix.time) }
                        writer.endSegment()
                    }
                }
                try writer.finish()
            } catch {
                StandardError.error(error.description)
                throw ExitCode.sinkFailed
            }
            if output != "-" {
                StandardError.note(
                    "perimeter: \(output): \(track.fixCount) fixes in \(untimed ? 1 : track.segments.count) segment\(track.segments.count == 1 || untimed ? "" : "s"), \(loaded.start.iso8601) – \(track.end.iso8601)"
                )
            }
        }
    }
}
