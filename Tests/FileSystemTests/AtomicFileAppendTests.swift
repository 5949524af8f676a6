import FileSystem
import Foundation
import TestSupport
import Testing

@Suite("Appending a partial file to its target")
struct AtomicFileAppendTests {
    /// A partial file for `target` holding `text`.
    func partial(_ text: String, for target: String) throws -> AtomicFile {
        let file = try AtomicFile(replacing: target)
        try Array(text.utf8).withUnsafeBytes { try file.write($0) }
        return file
    }

    @Test(
        "what the target held stays, each append lands whole after it, no partial file is left",
        arguments: [
            (existing: "run 1\n" as String?, appended: ["run 2\n", "run 3\n"]),
            (existing: nil, appended: ["run 1\n"]),  // a missing target is created
            (existing: "", appended: ["a\n", "", "b\n"]),
        ])
    func appends(existing: String?, appended: [String]) throws {
        let folder = try temporaryDirectory()
        let target = folder + "/spool.jsonl"
        if let existing { try existing.write(toFile: target, atomically: false, encoding: .utf8) }
        func mode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int }
        let before = existing == nil ? nil : try mode()
        for text in appended { try partial(text, for: target).commitAppending() }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == (existing ?? "") + appended.joined())
        #expect(try files(in: folder) == ["spool.jsonl"])
        // A spool it creates is its owner's alone (issue 37, G2); one that existed keeps its mode.
        let after = try #require(try mode())
        #expect(after == before ?? 0o600, "\(String(after, radix: 8))")
    }

    @Test("an append that fails keeps the bytes beside the target, named in the error")
    func aFailedAppendKeepsTheBytes() throws {
        let folder = try temporaryDirectory()
        let target = folder + "/spool.jsonl"
        let file = try partial("kept\n", for: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)  // not appendable
        let error = #expect(throws: FileError.self) { try file.commitAppending() }
        let kept = AtomicFile.keptPath(for: target)
        #expect(error?.description.contains("kept in \"\(kept)\"") == true, "\(String(describing: error))")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "kept\n")
    }

    @Test("the partial file of a killed run is kept beside its target, never swept, when a file is appended to")
    func aKilledRunsPartialIsKept() throws {
        let folder = try temporaryDirectory()
        let target = folder + "/spool.jsonl"
        // A process that has ended: its id names the partial file a SIGKILL would have left behind.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let pid = ended.processIdentifier
        let left = folder + "/.spool.jsonl.partial-\(pid)"
        try "undelivered\n".write(toFile: left, atomically: false, encoding: .utf8)
        let kept = AtomicFile.rescueStalePartials(of: target)
        #expect(kept == [AtomicFile.keptPath(for: target, pid: pid)])
        #expect(try String(contentsOfFile: kept[0], encoding: .utf8) == "undelivered\n")
        #expect(!FileManager.default.fileExists(atPath: left))
        // A replaced file's partial files, by contrast, are swept: they hold nothing a later run needs.
        try "stale\n".write(toFile: folder + "/.e.jsonl.partial-\(pid)", atomically: false, encoding: .utf8)
        try AtomicFile(replacing: folder + "/e.jsonl").discard()  // opening it sweeps
        #expect(try files(in: folder).sorted() == ["spool.jsonl.unappended-\(pid)"])
    }
}
