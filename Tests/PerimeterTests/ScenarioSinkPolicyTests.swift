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
    ]

    static let allowed: [Case] = [
        .init(id: "a file in a subfolder, by way of ..", sink: "jsonl:sub/../e.jsonl", status: 0, message: "1 device"),
        .init(id: "a URL with the flag", sink: "URL;batch=2", allowNetwork: true, status: 0, message: "1 device"),
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
