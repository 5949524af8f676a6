import Foundation
import TestSupport
import Testing

/// Issue 37 G3: a scenario reads only inside its repository, and a file of the wrong kind is quoted by
/// its first 6 characters and its length (issue 49 H5: 40 were a whole AWS key). Each case is a real `git` repository `repo/` with the scenario in
/// `repo/Scenarios/`, beside `outside/` holding secrets; nothing may print "do-not-print".
extension HostileInputTests {
    struct ReadOutside: CustomTestStringConvertible, Sendable {
        var id: String
        /// The scenario's `profile:` line, or empty.
        var profile = ""
        /// The scenario's device entries (YAML flow mappings).
        var devices: [String] = ["{id: phone, track: track.gpx}"]
        /// The scenario's region entries.
        var regions: [String] = [Inputs.circle]
        /// Arguments after the command and before the scenario.
        var flags: [String] = []
        var command = "validate"
        /// What standard output and standard error must contain.
        var message: String
        var testDescription: String { id }
    }

    /// A secret whose first characters say nothing: what follows them must never be printed.
    static let secret = "SECRET_ACCESS_KEY=" + String(repeating: "a", count: 30) + "do-not-print\nmore=do-not-print\n"

    static let readsOutside: [ReadOutside] = [
        .init(
            id: "a fix table up and out of the repository",
            devices: ["{fixes: ../../outside/credentials, format: csv}"],
            message: "devices[0].fixes: cannot read the fix table: ../../outside/credentials leads to "),
        .init(
            id: "a profile file up and out", profile: "profile: ../../outside/credentials",
            message: "profile: the profile file cannot be read: ../../outside/credentials leads to "),
        .init(
            id: "a region file by absolute path", regions: ["{geojson: OUTSIDE/zones.geojson}"],
            message: "cannot read the GeoJSON file: OUTSIDE/zones.geojson is an absolute path"),
        .init(
            id: "a track from /dev/zero", devices: ["{id: phone, track: /dev/zero}"],
            message: "cannot read the track: /dev/zero is an absolute path"),
        .init(
            id: "a fix table from /proc by way of ..",
            devices: ["{fixes: ../../../../../../../../../../proc/self/environ, format: csv}"],
            message: "lies in /proc"),
        .init(
            id: "a link inside the repository to a secret outside", devices: ["{fixes: link.csv}"],
            message: "devices[0].fixes: cannot read the fix table: link.csv leads to "),
        .init(
            id: "the repository's own .env", devices: ["{fixes: ../.env, format: csv}"],
            message: "../.env is or lies in .env, a hidden file or folder, which a scenario never reads"),
        .init(
            id: "the repository's git config", profile: "profile: ../.git/config",
            message: "../.git/config is or lies in .git, a hidden file or folder"),
        .init(
            id: "check --junit, a profile up and out", profile: "profile: ../../outside/credentials",
            flags: ["--junit", "junit.xml"], command: "check", message: "leads to "),
        // Allowed by the operator: the file is read, and quoted by its first 6 characters and length only.
        .init(
            id: "allowed: a secrets file as a profile", profile: "profile: ../../outside/credentials",
            flags: ["--allow-inputs-outside"], message: "got \"SECRET…\" (78 characters)"),
        .init(
            id: "allowed: a secrets file as a fix table's header",
            devices: ["{fixes: ../../outside/credentials, format: csv}"], flags: ["--allow-inputs-outside"],
            message: "the header has no \"device\" column (it has \"SECRET…\" (60 characters))"),
        .init(
            id: "allowed: check --junit, a secrets file as a profile", profile: "profile: ../../outside/credentials",
            flags: ["--allow-inputs-outside", "--junit", "junit.xml"], command: "check",
            message: "got \"SECRET…\" (78 characters)"),
    ]

    @Test("a scenario reads nothing outside its repository, and quotes no secret", arguments: readsOutside)
    func readOutside(_ c: ReadOutside) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repo = folder.appendingPathComponent("repo"), outside = folder.appendingPathComponent("outside")
        let scenarios = repo.appendingPathComponent("Scenarios")
        for sub in [scenarios, outside] {
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        }
        try shell("git init -q .", in: repo)
        try Self.secret.write(to: outside.appendingPathComponent("credentials"), atomically: true, encoding: .utf8)
        try Self.secret.write(to: repo.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try "{\"type\":\"FeatureCollection\",\"features\":[]}".write(
            to: outside.appendingPathComponent("zones.geojson"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: scenarios.appendingPathComponent("link.csv").path, withDestinationPath: "../../outside/credentials")
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: scenarios)
        let regions = c.regions.map { $0.replacingOccurrences(of: "OUTSIDE", with: outside.path) }
        _ = try Inputs.scenario(
            in: scenarios, regions: regions, devices: c.devices, extra: c.profile.isEmpty ? "" : c.profile + "\n")

        let run = try MeasuredProcess.run(
            [c.command] + c.flags + ["Scenarios/scenario.yaml"], in: repo, timeout: .seconds(30))
        let text = run.result.stdout + run.result.stderr
        #expect(!run.timedOut)
        #expect(run.result.status == 2, "\(text)")
        #expect(text.contains(c.message.replacingOccurrences(of: "OUTSIDE", with: outside.path)), "\(text)")
        #expect(!text.contains("do-not-print"), "\(text)")
        if c.flags.contains("--junit") {
            let junit = try String(contentsOf: repo.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(!junit.contains("do-not-print"), "\(junit)")
            #expect(junit.contains("<failure") || junit.contains("<error"))
        }
    }

    /// The root when no repository holds the scenario: the folder given to `check`, else its own folder.
    @Test("outside a repository, the folder given to check is the root; else the scenario's folder")
    func rootWithoutRepository() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let project = folder.appendingPathComponent("project"), sub = project.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: project)
        _ = try Inputs.scenario(in: sub, devices: ["{id: phone, track: ../track.gpx}"])

        let given = try PerimeterProcess.run(["validate", "project"], in: folder)
        #expect(given.status == 0, "\(given.stderr)")
        let alone = try PerimeterProcess.run(["validate", "project/sub/scenario.yaml"], in: folder)
        #expect(alone.status == 2, "\(alone.stderr)")
        #expect(alone.stderr.contains("cannot read the track: ../track.gpx leads to "), "\(alone.stderr)")
        let allowed = try PerimeterProcess.run(
            ["validate", "--allow-inputs-outside", "project/sub/scenario.yaml"], in: folder)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
