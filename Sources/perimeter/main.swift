import ArgumentParser
import EventSinks
import EventSinksHTTP
import EventSinksSQLite
import FileSystem

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
        subcommands: [
            Run.self, Stream.self, Compare.self, Calibrate.self, ReportCommand.self, Check.self, Validate.self, Inspect.self,
            TrackCommand.self, ProfileCommand.self, Deliver.self, Outcomes.self, Summarize.self,
        ]
    )

    /// Every kind of sink this program knows: the core ones, SQLite and HTTP.
    static let sinks = SinkRegistry.core.adding(SQLiteSink.kind, HTTPSink.kind)
}

// First of all, before anything is opened: what standard input is (closed, descriptor 0 would be the
// first file opened; `stream` refuses that rather than read it).
StandardInput.recordAtLaunch()

// Before anything: a write past the file-size limit (`ulimit -f`) or into a pipe whose reader has gone
// (`perimeter run … | head -1`) fails with EFBIG or EPIPE, which a sink reports (exit 3, its events kept),
// instead of killing the process with SIGXFSZ or SIGPIPE and losing every sink's output.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)

// A run allocates and frees tens of megabytes at a time (a fix table's pieces, then the devices' tracks):
// memory freed is kept for the next allocation instead of being given back to the system and faulted in
// again page by page. With glibc's `mallopt` (looked up, so that another C library simply goes without):
// blocks up to 32 MiB come from the heap (M_MMAP_THRESHOLD, -3), whose top is kept up to 1 GiB
// (M_TRIM_THRESHOLD, -1).
#if os(Linux)
    if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {  // RTLD_DEFAULT
        let set = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = set(-3, 32 << 20)
        _ = set(-1, 1 << 30)
    }
#endif

Perimeter.main()
