import ArgumentParser
import EventSinks
import EventSinksHTTP
import EventSinksSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `perimeter`: replays GPX tracks through phone-like geofence monitors. One command per verb;
/// each only wires the library modules together.
struct Perimeter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perimeter",
        abstract: "Replays location tracks through geofence monitors that behave like a phone's.",
        discussion: """
        Exit codes: 0 success; 1 a check failed; 2 bad input (the message names the file and the place); \
        3 a sink could not deliver (the message says where its events were kept); 64 a usage error (an \
        unknown option); 130 interrupted (Ctrl-C or SIGTERM; the sinks kept what was produced).
        """,
        version: "0.1.0",
        subcommands: [Run.self, Stream.self, Compare.self, ReportCommand.self, Check.self, Validate.self, Inspect.self, TrackCommand.self, Deliver.self]
    )

    /// Every kind of sink this program knows: the core ones, SQLite and HTTP.
    static let sinks = SinkRegistry.core.adding(SQLiteSink.kind, HTTPSink.kind)
}

// Before anything: a write past the file-size limit (`ulimit -f`) or into a pipe whose reader has gone
// (`perimeter run … | head -1`) fails with EFBIG or EPIPE, which a sink reports (exit 3, its events kept),
// instead of killing the process with SIGXFSZ or SIGPIPE and losing every sink's output.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)

Perimeter.main()
