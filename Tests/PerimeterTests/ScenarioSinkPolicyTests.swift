import Foundation
import TestSupport
import Testing

/// A scenario file is data (it arrives in pull requests): its own `sinks:` may write files inside its
/// folder and print on standard output, nothing else. Network sinks need `--allow-scenario-network-sinks`
/// from the person running it, `auth-env=` is never taken from a scenario, and a path leaving the
/// scenario's folder (absolute, `..`, a symbolic link) is refused at `sinks[i]` with exit 2, before
/// anything is written or sent. `validate` says the same, and what the accepted sinks would do.
@Suite("A scenario's own sinks stay inside its folder", .serialized)
struct ScenarioSinkPolicyTests {
    /// One scenario sink and what `run` must do with it.
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        /// The sink spec as the scenario writes it (`URL` stands for the loopback server's).
        var sink: String
        /// Prepares the folders (`outside` is beside `project`, the scenario's folder).
        var prepare: @Sendable (_ project: URL, _ outside: URL) throws -> Void = { _, _ in }
        var allowNetwork = false
        var status: Int32
        /// What standard error must contain.
        var message: String
        /// Files in `project/` whose bytes and mode must be the same after the refusal.
        var untouched: [String] = []
        var testDescription: String { id }
    }

    static let refusals: [Case] = [
        .init(
            id: "auth-env sends a secret", sink: "URL;auth-env=SECRET_FOR_TEST", status: 2,
            message: "sinks[0]: \"URL;auth-env=SECRET_FOR_TEST\" takes auth-env= from the scenario file"),
        .init(
            id: "auth-env even with the flag", sink: "URL;auth-env=SECRET_FOR_TEST", allowNetwork: true, status: 2,
            message: "sinks[0]: \"URL;auth-env=SECRET_FOR_TEST\" takes auth-env= from the scenario file"),
        .init(
            id: "a URL without the flag", sink: "URL", status: 2,
            message: "pass --allow-scenario-network-sinks"),
        .init(
            id: "a spool file outside, with the flag", sink: "URL;spool=../outside/spool.jsonl", allowNetwork: true,
            status: 2,
            message:
                "sinks[0]: \"URL;spool=../outside/spool.jsonl\" writes ../outside/spool.jsonl, which leads out of the scenario's folder"
        ),
        .init(
            id: "a path up and out", sink: "jsonl:../outside/e.jsonl", status: 2,
            message:
                "sinks[0]: \"jsonl:../outside/e.jsonl\" writes ../outside/e.jsonl, which leads out of the scenario's folder"),
        .init(id: "an absolute path", sink: "csv:ABSOLUTE/e.csv", status: 2, message: "is an absolute path"),
        .init(
            id: "a symbolic link to a folder outside", sink: "sqlite:link/e.sqlite",
            prepare: { project, outside in
                try FileManager.default.createSymbolicLink(
                    at: project.appendingPathComponent("link"), withDestinationURL: outside)
            }, status: 2, message: "through a symbolic link"),
        .init(
            id: "a symbolic link as the file", sink: "geojson:e.geojson",
            prepare: { project, outside in
                try "old".write(to: outside.appendingPathComponent("e.geojson"), atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(
                    at: project.appendingPathComponent("e.geojson"),
                    withDestinationURL: outside.appendingPathComponent("e.geojson"))
            }, status: 2, message: "through a symbolic link"),
        // Issue 37 G2: files inside the folder a scenario's sinks may not replace.
        .init(
            id: "a git hook, the scenario at the repository's root", sink: "csv:.git/hooks/pre-commit",
            prepare: { project, _ in try gitRepository(project) }, status: 2,
            message: "writes .git/hooks/pre-commit, which is in or is a dot-folder or dot-file (.git)",
            untouched: [".git/hooks/pre-commit"]),
        .init(
            id: "a dot-file", sink: "jsonl:.envrc",
            prepare: { project, _ in
                try "export A=1\n".write(to: project.appendingPathComponent(".envrc"), atomically: true, encoding: .utf8)
            },
            status: 2, message: "dot-folder or dot-file (.envrc)", untouched: [".envrc"]),
        .init(
            id: "the scenario itself", sink: "jsonl:scenario.yaml", status: 2, message: "which is the scenario file itself",
            untouched: ["scenario.yaml"]),
        .init(
            id: "its track", sink: "geojson:sub/../track.gpx", status: 2,
            message: "which is a file the scenario reads (its track track.gpx)", untouched: ["track.gpx"]),
        .init(
            id: "a golden log", sink: "jsonl:other.events.jsonl", status: 2, message: "which is named as a golden log"),
        .init(
            id: "an inputs record", sink: "jsonl:other.events.inputs.json", status: 2,
            message: "which is named as a golden log or its inputs record"),
        .init(
            id: "an executable script", sink: "jsonl:run.sh",
            prepare: { project, _ in try script(project.appendingPathComponent("run.sh")) }, status: 2,
            message: "which is an executable file", untouched: ["run.sh"]),
        .init(
            id: "a spool over an executable script", sink: "URL;spool=run.sh",
            prepare: { project, _ in try script(project.appendingPathComponent("run.sh")) }, allowNetwork: true, status: 2,
            message: "which is an executable file", untouched: ["run.sh"]),
        .init(
            id: "a CSV file Perimeter did not write", sink: "csv:people.csv",
            prepare: { project, _ in
                try "name,email\r\nada,ada@example.org\r\n".write(
                    to: project.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
            }, status: 2, message: "which exists and is not csv output Perimeter wrote", untouched: ["people.csv"]),
        // Issue 49 H4: its name is refused first (not .jsonl); its text was before.
        .init(
            id: "a JSON file Perimeter did not write", sink: "jsonl:package.json",
            prepare: { project, _ in
                try "{\"name\": \"app\", \"scripts\": {\"test\": \"make\"}}\n".write(
                    to: project.appendingPathComponent("package.json"), atomically: true, encoding: .utf8)
            }, status: 2, message: "which does not end in .jsonl", untouched: ["package.json"]),
        .init(
            id: "a link that stays inside", sink: "jsonl:latest.jsonl",
            prepare: { project, _ in
                try "".write(to: project.appendingPathComponent("e.jsonl"), atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(
                    atPath: project.appendingPathComponent("latest.jsonl").path, withDestinationPath: "e.jsonl")
            }, status: 2, message: "which goes through the symbolic link latest.jsonl"),
        // Issue 49 H3: events kept for later are never replaced by a scenario's `jsonl:` sink.
        .init(
            id: "an HTTP spool", sink: "jsonl:spool.jsonl",
            prepare: { project, _ in try write(spoolLines, "spool.jsonl", in: project) }, status: 2,
            message:
                "sinks[0]: \"jsonl:spool.jsonl\" writes spool.jsonl, which exists and is not jsonl output Perimeter wrote",
            untouched: ["spool.jsonl"]),
        .init(
            id: "a spool's events kept beside it", sink: "jsonl:spool.jsonl.unappended-4242",
            prepare: { project, _ in try write(spoolLines, "spool.jsonl.unappended-4242", in: project) }, status: 2,
            message: "which is named as events kept for later", untouched: ["spool.jsonl.unappended-4242"]),
        .init(
            id: "a field log", sink: "jsonl:observed.jsonl",
            prepare: { project, _ in try write(fieldLog, "observed.jsonl", in: project) }, status: 2,
            message: "which exists and is not jsonl output Perimeter wrote", untouched: ["observed.jsonl"]),
        // Issue 49 H4: only names of the sink's own kind, and never an empty file.
        .init(
            id: "an empty shell script, by a CSV sink", sink: "csv:sub/env.sh",
            prepare: { project, _ in try write("", "sub/env.sh", in: project) }, status: 2,
            message: "sinks[0]: \"csv:sub/env.sh\" writes sub/env.sh, which does not end in .csv", untouched: ["sub/env.sh"]),
        .init(
            id: "a new name of another kind", sink: "jsonl:tools.sh", status: 2, message: "which does not end in .jsonl"),
        .init(
            id: "an SQLite database named as a script", sink: "sqlite:run.sh", status: 2,
            message: "which does not end in .db, .sqlite or .sqlite3"),
        .init(
            id: "an empty file (replaced before issue 49)", sink: "jsonl:e.jsonl",
            prepare: { project, _ in try write("", "e.jsonl", in: project) }, status: 2,
            message: "which is an empty file", untouched: ["e.jsonl"]),
        .init(
            id: "a FIFO", sink: "jsonl:pipe.jsonl",
            prepare: { project, _ in
                guard mkfifo(project.appendingPathComponent("pipe.jsonl").path, 0o644) == 0 else {
                    throw POSIXError(.EEXIST)
                }
            }, status: 2, message: "which is a named pipe (FIFO)"),
    ]

    /// `git init` in `folder`, with an executable pre-commit hook.
    static func gitRepository(_ folder: URL) throws {
        try shell("git init -q .", in: folder)
        try script(folder.appendingPathComponent(".git/hooks/pre-commit"))
    }

    /// An executable shell script at `file`.
    static func script(_ file: URL) throws {
        try "#!/bin/sh\nexit 0\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    /// `text` written to `name` in `folder`.
    static func write(_ text: String, _ name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// An event line as the `jsonl:` sink writes it.
    static let eventLine =
        "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"phone\",\"region\":\"cafe\",\"kind\":\"exit\","
        + "\"lat\":37.7,\"lon\":-121.7,\"distance\":12.5,\"crossedAt\":\"2016-01-10T11:59:58.000Z\"}\n"

    /// An HTTP sink's spool: events with their batch's `idempotencyKey` last.
    static let spoolLines = String(repeating: eventLine.dropLast(2) + ",\"idempotencyKey\":\"9c0f-3\"}\n", count: 3)

    /// A field log's lines (`Examples/field-study/observed.jsonl`): an event's keys among others.
    static let fieldLog =
        "{\"time\":\"2026-10-14T08:05:02.097Z\",\"detectedAt\":\"2026-10-14T08:04:58.000Z\",\"device\":\"tester-1\","
        + "\"region\":\"cafe-tejo\",\"kind\":\"enter\",\"lat\":38.708994,\"lon\":-9.1407,\"platform\":\"ios\"}\n"

    /// The bytes and mode of `file`, to compare before and after.
    static func snapshot(_ file: URL) throws -> (Data, Int) {
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int ?? -1
        return (try Data(contentsOf: file), mode)
    }

    static let allowed: [Case] = [
        .init(id: "a file in a subfolder, by way of ..", sink: "jsonl:sub/../e.jsonl", status: 0, message: "1 device"),
        .init(id: "a URL with the flag", sink: "URL;batch=2", allowNetwork: true, status: 0, message: "1 device"),
        .init(
            id: "its own earlier output", sink: "jsonl:e.jsonl",
            prepare: { project, _ in try write(eventLine + eventLine, "e.jsonl", in: project) }, status: 0,
            message: "1 device"),
    ]

    /// A scenario with `sink` in `project/`, beside an `outside/` folder, and a server for URLs.
    private static func setUp(_ c: Case, server: LoopbackServer) throws -> (folder: URL, sink: String) {
        let folder = try TemporaryFolders.make("scenario-sinks")
        let project = folder.appendingPathComponent("project"), outside = folder.appendingPathComponent("outside")
        for sub in [project, outside, project.appendingPathComponent("sub")] {
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        }
        try c.prepare(project, outside)
        let sink = c.sink.replacingOccurrences(of: "URL", with: server.url)
            .replacingOccurrences(of: "ABSOLUTE", with: outside.path)
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: project)
        _ = try Inputs.scenario(in: project, extra: "sinks: [\"\(sink)\"]\n")
        return (folder, sink)
    }

    private static func run(_ c: Case, in folder: URL, command: String = "run") throws -> PerimeterProcess.Result {
        let launched = try LaunchedPerimeter(
            [command, "project/scenario.yaml"] + (c.allowNetwork ? ["--allow-scenario-network-sinks"] : []),
            in: folder, environment: ["SECRET_FOR_TEST": "Bearer do-not-send"])
        return launched.finish()
    }

    @Test("run refuses a scenario's sink that leaves its folder or reaches the network", arguments: refusals)
    func refused(_ c: Case) throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let (folder, _) = try Self.setUp(c, server: server)
        let outside = folder.appendingPathComponent("outside")
        let before = try FileManager.default.contentsOfDirectory(atPath: outside.path)
        let project = folder.appendingPathComponent("project")
        let kept = try c.untouched.map { try Self.snapshot(project.appendingPathComponent($0)) }
        let result = try Self.run(c, in: folder)
        let message = c.message.replacingOccurrences(of: "URL", with: server.url)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(result.stderr.contains("project/scenario.yaml:2:"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(server.requests.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == before)
        if before.contains("e.geojson") {
            #expect(try String(contentsOf: outside.appendingPathComponent("e.geojson"), encoding: .utf8) == "old")
        }
        #expect(!result.stderr.contains("do-not-send"))
        for (name, old) in zip(c.untouched, kept) {
            let now = try Self.snapshot(project.appendingPathComponent(name))
            #expect(now.0 == old.0 && now.1 == old.1, "\(name) changed")
        }
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("other.events.jsonl").path))

        let validate = try Self.run(c, in: folder, command: "validate")
        #expect(validate.status == 2, "\(validate.stderr)")
        #expect(validate.stderr.contains(message), "\(validate.stderr)")
        #expect(!validate.stdout.contains("ok:"))
    }

    @Test("run takes a scenario's sink inside its folder, and a URL when allowed", arguments: allowed)
    func accepted(_ c: Case) throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let (folder, _) = try Self.setUp(c, server: server)
        let result = try Self.run(c, in: folder)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(result.stderr.contains(c.message), "\(result.stderr)")
        if c.allowNetwork {
            #expect(server.acceptedLines.count == 4)
            #expect(server.requests.allSatisfy { $0.headers["authorization"] == nil })
        } else {
            let written = try String(contentsOf: folder.appendingPathComponent("project/e.jsonl"), encoding: .utf8)
            #expect(written.split(separator: "\n").count == 4)
            // An event file: no execute bit, not writable by others (0644 less the umask).
            let mode = try Self.snapshot(folder.appendingPathComponent("project/e.jsonl")).1
            #expect(mode & 0o7133 == 0, "mode \(String(mode, radix: 8))")
        }
        let validate = try Self.run(c, in: folder, command: "validate")
        #expect(validate.status == 0, "\(validate.stderr)")
        let said = c.allowNetwork ? "sends events to \(server.url)" : "writes project/e.jsonl"
        #expect(validate.stdout.contains("ok: project/scenario.yaml\n    sinks[0]: "), "\(validate.stdout)")
        #expect(validate.stdout.contains(said), "\(validate.stdout)")
    }

    @Test("--sink on the command line replaces the scenario's sinks, refused or not")
    func commandLineReplaces() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let c = Self.refusals[0]
        let (folder, _) = try Self.setUp(c, server: server)
        let result = try LaunchedPerimeter(
            ["run", "project/scenario.yaml", "--sink", "jsonl:-"], in: folder,
            environment: ["SECRET_FOR_TEST": "Bearer do-not-send"]
        ).finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 4)
        #expect(server.requests.isEmpty)
    }
}
