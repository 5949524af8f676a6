import Foundation
import TestSupport
import Testing

/// Issue 37: a pull request's files against the maintainer who runs them, in a real `git` repository
/// with real symbolic links, FIFOs and hooks. Each case failed before its fix.
extension HostileInputTests {
    /// A golden log or its inputs record planted as a symbolic link, and the command run on it.
    struct PlantedLink: CustomTestStringConvertible, Sendable {
        var id: String
        /// The link's name beside `Scenarios/evil.yaml`.
        var link: String
        /// Where it points, relative to `Scenarios/`: the repository's pre-commit hook, or a file outside.
        var target: String
        var arguments: [String]
        var testDescription: String { id }
    }

    static let plantedLinks: [PlantedLink] = [
        .init(
            id: "check --update, golden log linked to the pre-commit hook", link: "evil.events.jsonl",
            target: "../.git/hooks/pre-commit", arguments: ["check", "--update", "Scenarios/evil.yaml"]),
        .init(
            id: "check, golden log linked to the pre-commit hook", link: "evil.events.jsonl",
            target: "../.git/hooks/pre-commit", arguments: ["check", "Scenarios/evil.yaml"]),
        .init(
            id: "check --update, inputs record linked outside the repository", link: "evil.events.inputs.json",
            target: "../../outside/secret.txt", arguments: ["check", "--update", "Scenarios/evil.yaml"]),
        .init(
            id: "check --update --junit, inputs record linked to the hook", link: "evil.events.inputs.json",
            target: "../.git/hooks/pre-commit",
            arguments: ["check", "--update", "--junit", "junit.xml", "Scenarios/evil.yaml"]),
    ]

    /// `folder/repo`, a git repository with an executable pre-commit hook and `Scenarios/evil.yaml`
    /// (whose region id would run `touch PWNED` in a shell), and `folder/outside/secret.txt`.
    static func plantedRepository(in folder: URL) throws -> URL {
        let repo = folder.appendingPathComponent("repo")
        let scenarios = repo.appendingPathComponent("Scenarios")
        let outside = folder.appendingPathComponent("outside")
        for sub in [scenarios, outside] {
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        }
        try shell("git init -q .", in: repo)
        try ScenarioSinkPolicyTests.script(repo.appendingPathComponent(".git/hooks/pre-commit"))
        try "token=do-not-print\n".write(to: outside.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try Inputs.write(Inputs.gpx(Inputs.walk()), "track.gpx", in: scenarios)
        let region = "{id: \"lunch$(touch PWNED)\", circle: {lat: 37.703026, lon: -121.759735, radius: 300}}"
        _ = try Inputs.scenario(in: scenarios, regions: [region])
        try FileManager.default.moveItem(
            at: scenarios.appendingPathComponent("scenario.yaml"), to: scenarios.appendingPathComponent("evil.yaml"))
        return repo
    }

    @Test("check never reads or writes a golden log or its inputs record through a link", arguments: plantedLinks)
    func plantedLink(_ c: PlantedLink) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repo = try Self.plantedRepository(in: folder)
        try FileManager.default.createSymbolicLink(
            atPath: repo.appendingPathComponent("Scenarios/\(c.link)").path, withDestinationPath: c.target)
        let hook = repo.appendingPathComponent(".git/hooks/pre-commit")
        let secret = folder.appendingPathComponent("outside/secret.txt")
        let before = try [hook, secret].map(ScenarioSinkPolicyTests.snapshot)

        let run = try MeasuredProcess.run(c.arguments, in: repo, timeout: .seconds(60))
        #expect(!run.timedOut)
        #expect(run.result.status == 2, "\(run.result.stdout)\(run.result.stderr)")
        #expect(
            run.result.stdout.contains(
                "Scenarios/\(c.link) (the \(c.link.hasSuffix("inputs.json") ? "inputs record" : "golden log")) is a symbolic link (to \"\(c.target)\")"
            ),
            "\(run.result.stdout)")
        for (file, old) in zip([hook, secret], before) {
            let now = try ScenarioSinkPolicyTests.snapshot(file)
            #expect(now.0 == old.0 && now.1 == old.1, "\(file.lastPathComponent) changed")
        }
        #expect(!run.result.stdout.contains("do-not-print"))
        if c.arguments.contains("--junit") {
            let junit = try String(contentsOf: repo.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(junit.contains("is a symbolic link"))
        }
        // The hook still runs what it ran: a commit makes no PWNED.
        try shell("git -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m test", in: repo)
        #expect(!FileManager.default.fileExists(atPath: repo.appendingPathComponent("PWNED").path))
    }

    /// A FIFO that nothing reads, given as `--sink`: refused at once (exit 2, naming it), where open(2)
    /// used to wait until SIGKILL.
    @Test("a FIFO sink without a reader is refused at once", arguments: ["jsonl", "csv", "geojson"])
    func fifoSinkWithoutReader(_ scheme: String) throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Inputs.track(Inputs.gpx(Inputs.walk()), in: folder)
        #expect(mkfifo(folder.appendingPathComponent("pipe").path, 0o644) == 0)
        let run = try MeasuredProcess.run(
            ["run", "scenario.yaml", "--sink", "\(scheme):pipe"], in: folder, timeout: .seconds(20))
        #expect(!run.timedOut, "open(2) waited for a reader")
        #expect(run.result.status == 2, "\(run.result.stderr)")
        #expect(
            run.result.stderr.contains("cannot open \"pipe\": it is a named pipe (FIFO) that no process is reading"),
            "\(run.result.stderr)")
    }

    /// Event output never keeps the execute bits of the file it replaces, even one the operator names.
    @Test("an event file replacing an executable is not executable")
    func replacedExecutable() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Inputs.track(Inputs.gpx(Inputs.walk()), in: folder)
        for name in ["tool.sh", "tool.csv"] { try ScenarioSinkPolicyTests.script(folder.appendingPathComponent(name)) }
        let run = try PerimeterProcess.run(
            ["run", "scenario.yaml", "--sink", "jsonl:tool.sh", "--sink", "csv:tool.csv"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        for name in ["tool.sh", "tool.csv"] {
            let (bytes, mode) = try ScenarioSinkPolicyTests.snapshot(folder.appendingPathComponent(name))
            #expect(mode & 0o7111 == 0, "\(name): mode \(String(mode, radix: 8))")
            #expect(!bytes.starts(with: Data("#!".utf8)))
        }
    }
}
