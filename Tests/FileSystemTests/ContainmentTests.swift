import FileSystem
import Foundation
import TestSupport
import Testing

/// Whether a path written relative to a folder stays in it, as the system resolves it: the rule for a
/// scenario's own sinks. The folder holds `in/`, a link `up` to the folder above, a link `file` to a
/// file above, a link `loop` to `in/`, and a dangling link `gone`.
@Suite("A path inside its folder")
struct ContainmentTests {
    static let cases: [(path: String, escape: String?)] = [
        ("e.jsonl", nil), ("in/e.jsonl", nil), ("in/../e.jsonl", nil), ("./in/./e.jsonl", nil),
        ("new/e.jsonl", nil), ("loop/e.jsonl", nil), ("gone", "link ABOVE/missing"),
        ("/tmp/e.jsonl", "absolute"), ("../e.jsonl", "upward"), ("in/../../e.jsonl", "upward"), ("..", "upward"),
        ("up/e.jsonl", "link ABOVE/e.jsonl"), ("file", "link ABOVE/target"), ("in/../up/x/e.jsonl", "link ABOVE/x/e.jsonl"),
    ]

    @Test("absolute paths, .. and symbolic links leading out", arguments: cases)
    func escape(path: String, escape: String?) throws {
        let above = try TemporaryFolders.make("containment")
        let folder = above.appendingPathComponent("project")
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        try "x".write(to: above.appendingPathComponent("target"), atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("file").path, withDestinationPath: "../target")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "in")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("gone").path, withDestinationPath: "../missing")
        let real = above.resolvingSymlinksInPath().path
        let found: String? =
            switch FileCheck.escape(of: path, from: folder.path) {
            case nil: nil
            case .absolute: "absolute"
            case .upward: "upward"
            case let .link(target): "link " + target.replacingOccurrences(of: real, with: "ABOVE")
            }
        #expect(found == escape)
    }
}

/// Issue 37 G3: the folder a scenario's inputs are confined to, and what leaves it. `above/repo` holds
/// `.git` (a folder, or a worktree's file), `Scenarios/`, `Tracks/`, `.env` and a link `out` to `above/`.
@Suite("A scenario's input root")
struct InputRootTests {
    /// (a path as `Scenarios/s.yaml` writes it, why it is refused or nil)
    static let cases: [(written: String, refusal: String?)] = [
        ("s.gpx", nil), ("../Tracks/t.gpx", nil), ("missing.gpx", nil),
        ("../../secret", "leads to ABOVE/secret, outside ABOVE/repo"),
        ("out/secret", "leads to ABOVE/secret, outside ABOVE/repo"),
        ("/etc/passwd", "is an absolute path"), ("../../../../../../../../proc/self/environ", "lies in /proc"),
        ("../.env", "is or lies in .env, a hidden file or folder, which a scenario never reads"),
        ("../.git/config", "is or lies in .git, a hidden file or folder, which a scenario never reads"),
    ]

    static func repository(gitFile: Bool) throws -> (above: URL, repo: URL) {
        let above = try TemporaryFolders.make("input-root")
        let repo = above.appendingPathComponent("repo")
        let manager = FileManager.default
        for sub in ["Scenarios", "Tracks"] {
            try manager.createDirectory(at: repo.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        if gitFile {
            try "gitdir: /elsewhere\n".write(to: repo.appendingPathComponent(".git"), atomically: true, encoding: .utf8)
        } else {
            try manager.createDirectory(at: repo.appendingPathComponent(".git"), withIntermediateDirectories: true)
            try "[core]\n".write(to: repo.appendingPathComponent(".git/config"), atomically: true, encoding: .utf8)
        }
        for file in ["Scenarios/s.yaml", "Scenarios/s.gpx", "Tracks/t.gpx", ".env"] {
            try "x".write(to: repo.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try "x".write(to: above.appendingPathComponent("secret"), atomically: true, encoding: .utf8)
        try manager.createSymbolicLink(
            atPath: repo.appendingPathComponent("Scenarios/out").path, withDestinationPath: "../..")
        return (above, repo)
    }

    @Test("what leaves the repository", arguments: cases)
    func refusal(written: String, refusal: String?) throws {
        let (above, repo) = try Self.repository(gitFile: false)
        let scenario = repo.appendingPathComponent("Scenarios/s.yaml").path
        let root = try #require(FileCheck.inputRoot(of: scenario))
        let real = above.resolvingSymlinksInPath().path
        #expect(root == real + "/repo")
        let resolved = FileNames.resolve(written, besideFile: scenario)
        let found = FileCheck.outsideInputRoot(written, resolved: resolved, naming: scenario, root: root)
        #expect(found?.replacingOccurrences(of: real, with: "ABOVE") == refusal)
    }

    @Test("the root: .git (folder or file), else the folder given, else the scenario's own")
    func roots() throws {
        let (above, repo) = try Self.repository(gitFile: true)
        let real = above.resolvingSymlinksInPath().path
        let scenario = repo.appendingPathComponent("Scenarios/s.yaml").path
        #expect(FileCheck.inputRoot(of: scenario) == real + "/repo")
        try FileManager.default.removeItem(at: repo.appendingPathComponent(".git"))
        #expect(FileCheck.inputRoot(of: scenario) == real + "/repo/Scenarios")
        #expect(FileCheck.inputRoot(of: scenario, given: repo.path) == real + "/repo")
        #expect(
            FileCheck.inputRoot(of: scenario, given: repo.appendingPathComponent("Tracks").path) == real + "/repo/Scenarios")
    }
}
