import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// G9 of issue 37: the run's journal had a predictable name in the temporary folder
/// (`perimeter-run-<UTC second>-<pid>.jsonl`) and followed a symbolic link planted there: a failed run
/// renamed its journal over the link's target, another user's file.
@Suite("The run's journal and a link planted at its old name")
struct JournalLinkTests {
    @Test("G9: a link planted at the journal's old name is not followed; the journal is private")
    func aPlantedLinkIsNotFollowed() throws {
        let folder = try PerimeterProcess.temporaryFolder()
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let victim = folder.appendingPathComponent("victim.txt")
        try "another user's file\n".write(to: victim, atomically: true, encoding: .utf8)
        // The shell plants links at the names the journal had for this second and the next two, with its own
        // pid, then becomes perimeter (exec keeps the pid), as an attacker predicting the name would.
        let script = """
            for s in 0 1 2; do ln -s "$VICTIM" "$TMPDIR/perimeter-run-$(date -u -d "+$s seconds" +%Y%m%dT%H%M%SZ)-$$.jsonl"; done
            exec "$0" "$@"
            """
        let run = try PerimeterProcess.run(
            ["run", DeliverTests.scenario, "--sink", "csv:/dev/full", "--sink", "jsonl:events.jsonl"], in: folder,
            executable: "/usr/bin/env",
            prefix: [
                "TMPDIR=" + temporary.path, "VICTIM=" + victim.path, "/bin/sh", "-c", script,
                PerimeterProcess.executable.path,
            ])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "another user's file\n", "the target is untouched")
        let links = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("perimeter-run-")
        }
        #expect(links.count == 3, "the planted links are left as they were: \(links)")
        let journal = try #require(
            run.stderr.firstMatch(of: /its 5 events were kept in "([^"]+)"/).map { String($0.1) }, "\(run.stderr)")
        let own = URL(fileURLWithPath: journal).deletingLastPathComponent()
        #expect(own.deletingLastPathComponent().path == temporary.path)
        var info = stat()
        #expect(lstat(journal, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_mode & 0o777 == 0o600)
        #expect(lstat(own.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_mode & 0o777 == 0o700)
        #expect(
            try String(contentsOfFile: journal, encoding: .utf8)
                == String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8))
    }
}
