import FileSystem
import Foundation
import SystemPackage
import TestSupport
import Testing

@Suite("Atomic replacement")
struct AtomicFileTests {
    @Test(
        "the partial file is beside the target",
        arguments: [
            ("events.jsonl", ".events.jsonl.partial-PID"), ("out/events.jsonl", "out/.events.jsonl.partial-PID"),
            ("/events.jsonl", "/.events.jsonl.partial-PID"), ("/a/b/e.csv", "/a/b/.e.csv.partial-PID"),
        ])
    func partialPath(path: String, partial: String) {
        #expect(AtomicFile.partialPath(for: path) == partial.replacingOccurrences(of: "PID", with: "\(getpid())"))
    }

    @Test func theTargetIsUntouchedUntilCommit() throws {
        let folder = try temporaryDirectory()
        let target = folder + "/golden.jsonl"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        let file = try AtomicFile(replacing: target)
        try Array("new\n".utf8).withUnsafeBytes { try file.write($0) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n")
        #expect(try files(in: folder) == [".golden.jsonl.partial-\(getpid())", "golden.jsonl"])
        try file.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        #expect(try files(in: folder) == ["golden.jsonl"])
    }

    @Test func discardLeavesTheTargetAndNoPartial() throws {
        let folder = try temporaryDirectory()
        let target = folder + "/report.xml"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        do {
            let file = try AtomicFile(replacing: target)
            try Array("new".utf8).withUnsafeBytes { try file.write($0) }
        }  // dropped without commit
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(try files(in: folder) == ["report.xml"])
    }

    @Test func writeReplacesWholeAndKeepsThePermissions() throws {
        let folder = try temporaryDirectory()
        let target = folder + "/junit.xml"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        try AtomicFile.write(Array("<testsuite/>".utf8), to: target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "<testsuite/>")
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o640)
    }

    @Test func throughASymbolicLinkTheLinkedFileIsReplaced() throws {
        let folder = try temporaryDirectory()
        try "old".write(toFile: folder + "/real.txt", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.txt", withDestinationPath: folder + "/real.txt")
        try AtomicFile.write(Array("new".utf8), to: folder + "/link.txt")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.txt") == folder + "/real.txt")
        #expect(try String(contentsOfFile: folder + "/real.txt", encoding: .utf8) == "new")
    }

    @Test func aMissingFolderIsAnErrorNamingIt() throws {
        let folder = try temporaryDirectory()
        let error = #expect(throws: FileError.self) { try AtomicFile(replacing: folder + "/missing/e.csv") }
        #expect(
            error?.description
                == "cannot create \"\(folder)/missing/e.csv\": the directory \"\(folder)/missing\" does not exist")
        #expect(error?.errno == .noSuchFileOrDirectory)
    }

    @Test func partialFilesOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let folder = try temporaryDirectory()
        // A process that has exited: its partial file is what a SIGKILLed run leaves behind.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let stale = ".e.csv.partial-\(finished.processIdentifier)"
        let live = ".e.csv.partial-\(getppid())"  // the test runner's parent is alive
        let other = ".other.csv.partial-\(finished.processIdentifier)"  // another target's
        for name in [stale, live, other] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: nil))
        }
        try AtomicFile.write(Array("x".utf8), to: folder + "/e.csv")
        #expect(try files(in: folder) == [live, other, "e.csv"].sorted())
    }
}

/// Issue 37 G1, G2: a replaced file never keeps execute or set-id bits, and `refusingLinks` refuses a
/// symbolic link, leaving what it points to untouched.
@Suite("Atomic replacement of scripts and links")
struct AtomicFileModeTests {
    /// (the old file's mode, the new file's)
    @Test(
        "a replaced file keeps its read and write bits only",
        arguments: [(0o755, 0o644), (0o4755, 0o644), (0o600, 0o600), (0o664, 0o664)])
    func mode(old: Int, new: Int) throws {
        let target = try temporaryDirectory() + "/pre-commit"
        try "#!/bin/sh\n".write(toFile: target, atomically: false, encoding: .utf8)
        #expect(chmod(target, mode_t(old)) == 0)
        try AtomicFile.write(Array("{}\n".utf8), to: target)
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(mode == new, "\(String(mode ?? -1, radix: 8))")
    }

    @Test func aLinkIsRefusedWhenAsked() throws {
        let folder = try temporaryDirectory()
        try "#!/bin/sh\n".write(toFile: folder + "/hook", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/e.events.jsonl", withDestinationPath: "hook")
        #expect(throws: FileError.self) {
            try AtomicFile.write(Array("{}\n".utf8), to: folder + "/e.events.jsonl", refusingLinks: true)
        }
        do {
            try AtomicFile.write(Array("{}\n".utf8), to: folder + "/e.events.jsonl", refusingLinks: true)
        } catch {
            #expect(error.description.contains("it is a symbolic link (to \"hook\")"), "\(error)")
        }
        #expect(try String(contentsOfFile: folder + "/hook", encoding: .utf8) == "#!/bin/sh\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["e.events.jsonl", "hook"])
    }
}
