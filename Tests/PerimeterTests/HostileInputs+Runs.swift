import Foundation

/// Hostile inputs of issue 37's second campaign that are not scenario files' contents: a deep chain of
/// profile bases (G12), field logs without the events a fit needs (G8), and spools that would feed
/// deliver its own output or an endless line (G4, G5). Measured (debug build, 2 cores): each well under
/// 1 s and 60 MB, but the 2,200-file chain (about 3 s, most of it writing the files).
extension HostileInputTests {
    /// `count` profile files, each based on the next, the last on `android`; the scenario uses the first.
    static func chain(_ count: Int, in folder: URL) throws -> [String] {
        for n in 1...count {
            let base = n == count ? "android" : "p\(n + 1).profile.yaml"
            try Inputs.write("base: \(base)\nhysteresis: \(n % 100)m\n", "p\(n).profile.yaml", in: folder)
        }
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: folder)
        return try Inputs.scenario(in: folder, extra: "profile: p1.profile.yaml\n")
    }

    /// `calibrate` of the walk's scenario against `log` (a CSV field log).
    static func calibrate(_ log: String, in folder: URL) throws -> [String] {
        try Inputs.write(log, "field.csv", in: folder)
        _ = try Inputs.track(Inputs.gpx(Inputs.walk()), in: folder)
        return ["calibrate", "scenario.yaml", "--observed", "field.csv", "--runs", "2", "--bootstrap", "10"]
    }

    /// Five events of the walk, as `jsonl:` writes them (a spool without keys).
    static func spool(in folder: URL, extra: String = "") throws {
        let line =
            "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3}\n"
        try Inputs.write(String(repeating: line, count: 5) + extra, "spool.jsonl", in: folder)
    }

    static let runs: [HostileInput] = [
        .init(
            id: "a chain of 40 profile bases",
            make: { folder in try chain(40, in: folder) }, status: 2,
            message: "base: the bases form a chain of more than 32 profile files: p1.profile.yaml → p2.profile.yaml"),
        // It crashed with SIGSEGV, the stack exhausted by the recursion through the bases.
        .init(
            id: "a chain of 2,200 profile bases",
            make: { folder in try chain(2200, in: folder) }, status: 2,
            message: "p32.profile.yaml:1:7: base: the bases form a chain of more than 32 profile files"),
        .init(
            id: "calibrate on an empty field log",
            make: { folder in try calibrate("", in: folder) }, status: 2,
            message: "field.csv: the field log holds no events: it has no exit events, which hysteresis, missExit need"),
        .init(
            id: "calibrate on a field log of visit rows only",
            make: { folder in
                try calibrate("device,region,kind,time\nphone,cafe,visit,2016-01-10T12:01:00Z\n", in: folder)
            }, status: 2,
            message: "field.csv: the field log holds 0 enter, exit or dwell events (and 1 row of other kinds, skipped)"),
        .init(
            id: "deliver to a sink whose spool= is the spool itself",
            make: { folder in
                try spool(in: folder)
                return ["deliver", "spool.jsonl", "--sink", "http://127.0.0.1:9/x;retries=0;spool=./spool.jsonl"]
            }, status: 2, message: "spool=./spool.jsonl names the file being delivered"),
        .init(
            id: "deliver a spool whose last line is 2 MB with no line end",
            make: { folder in
                try spool(in: folder, extra: String(repeating: "x", count: 2 << 20))
                return ["deliver", "spool.jsonl", "--sink", "http://127.0.0.1:9/x;retries=0"]
            }, status: 2, message: "spool.jsonl:6: the line is over 1 MiB; a spool line is one event"),
    ]
}
