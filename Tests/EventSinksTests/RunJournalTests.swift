import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

@Suite("The run's journal when it cannot be written, and its stale partial files")
struct RunJournalTests {
    /// A way for the journal to fail, made in a fresh folder; `cause` is the sentence it fails with.
    struct Unwritable: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (_ folder: String, _ warn: @escaping (String) -> Void) throws -> RunJournal
        let cause: @Sendable (_ folder: String, _ journal: RunJournal) -> String
        var testDescription: String { name }
    }

    static let unwritable = [
        Unwritable(
            name: "its folder does not exist (fails at open)",
            make: { folder, warn in RunJournal(folder: folder + "/missing", warn: warn) },
            cause: { folder, _ in
                "cannot create \"\(folder)/missing/perimeter-journal-\(getpid())-XXXXXX\": the directory \"\(folder)/missing\" does not exist"
            }),
        Unwritable(
            name: "its file is /dev/full (the disk fills mid-run)",
            make: { folder, warn in
                let journal = RunJournal(folder: folder, warn: warn)
                try FileManager.default.createSymbolicLink(atPath: journal.path, withDestinationPath: "/dev/full")
                return journal
            },
            cause: { _, journal in "cannot write \"\(journal.path)\": the disk is full" }),
    ]

    /// 5,000 events: several of the journal's batches, each more than the 64 KiB an output holds before
    /// it writes, so that the journal on /dev/full fails mid-run (and the sink after it, at event 4,000).
    static let events = (0..<5000).map { samples[$0 % samples.count].event }

    @Test(arguments: unwritable, [false, true])
    func theRunGoesOnAndAFailedSinkSaysItsEventsWereNotKept(_ way: Unwritable, sinkFails: Bool) throws {
        let folder = try temporaryDirectory()
        var warnings: [String] = []
        let journal = try way.make(folder) { warnings.append($0) }
        let log = EventLog()
        let failing = FailingSink(failAt: sinkFails ? 4000 : nil)
        let fan = FanOutSink(sinkFails ? [log, failing] : [log], journal: journal)
        let cause = way.cause(folder, journal)
        var sent = 0
        do {
            for event in Self.events {
                sent += 1
                try fan.send(event)
            }
            // The journal writes on its own thread: let it reach the full disk, as it does in a run that
            // goes on for a while, before the run ends (discarding the journal drops unwritten batches,
            // and with them the failure this test is about).
            let deadline = ContinuousClock.now + .seconds(30)
            while journal.failure == nil && ContinuousClock.now < deadline { usleep(1_000) }
            try fan.finish()
            #expect(!sinkFails)
        } catch {
            #expect(sinkFails)
            #expect(sent == 4000)
            let reported = try #require(throws: SinkError.self) { try fan.finish() }
            #expect(
                reported.description == failing.error.description
                    + "; its events could not be kept: the run's journal failed (\(cause))")
        }
        #expect(log.events.count == sent, "the other sink got every event")
        #expect(
            warnings == [
                "the run's journal cannot be written (\(cause)): the run goes on, but from here on the events of a sink that fails cannot be kept; set TMPDIR to a folder with room"
            ])
        #expect(journal.failure?.reason == cause)
        #expect(try files(in: folder).allSatisfy { !$0.contains(".partial-") })
        let own = FileNames.directory(of: journal.path)
        #expect((try? files(in: own))?.allSatisfy { !$0.contains(".partial-") } ?? true)
    }

    @Test func openingRemovesOnlyTheLeftoversOfDeadProcesses() throws {
        let folder = try temporaryDirectory()
        let dead: pid_t = 2_147_480_000  // above any pid_max: no such process
        let names = [
            ".perimeter-run-20260101T000000Z-\(dead).jsonl.partial-\(dead)",  // a killed run's, before G9: removed
            ".perimeter-run-20260101T000000Z-1.jsonl.partial-1",  // a live process's: kept
            "perimeter-run-20260101T000000Z-\(dead).jsonl",  // a kept journal: kept
            ".events.jsonl.partial-\(dead)",  // not a journal's: left to its own sink
        ]
        // Private folders (G9): a killed run's with its partial file (removed), a kept journal's (kept), a
        // live process's (kept, with its partial file).
        let folders = [
            ("perimeter-journal-\(dead)-a1B2c3", ".perimeter-run-20260101T000000Z-\(dead).jsonl.partial-\(dead)"),
            ("perimeter-journal-\(dead)-d4E5f6", "perimeter-run-20260101T000000Z-\(dead).jsonl"),
            ("perimeter-journal-1-g7H8i9", ".perimeter-run-20260101T000000Z-1.jsonl.partial-1"),
        ]
        func plant() throws {
            for name in names {
                #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x\n".utf8)))
            }
            for (name, file) in folders {
                try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: folder + "/" + name + "/" + file, contents: Data("x\n".utf8)))
            }
        }
        try plant()
        let left = Array(names.dropFirst()) + folders.dropFirst().map(\.0)
        let journal = RunJournal(folder: folder)
        journal.open()
        let own = URL(fileURLWithPath: journal.path).deletingLastPathComponent().lastPathComponent
        journal.record(samples[0].event)
        #expect(journal.keep() == keptSentence(1, in: journal.path))
        #expect(try files(in: folder) == (left + [own]).sorted(), "swept by the time the journal is kept")
        #expect(try files(in: folder + "/" + own) == [URL(fileURLWithPath: journal.path).lastPathComponent])
        for (name, file) in folders.dropFirst() { #expect(try files(in: folder + "/" + name) == [file]) }

        let second = RunJournal(folder: folder)
        try plant()
        second.open()
        second.discard()
        #expect(try files(in: folder) == (left + [own]).sorted(), "and by the time it is discarded, with its own folder")
    }

    @Test("G9: the journal is a regular file (0600) alone in a private folder (0700) of the temporary folder")
    func theJournalIsInAPrivateFolder() throws {
        let folder = try temporaryDirectory()
        let journal = RunJournal(folder: folder)
        journal.open()
        journal.record(samples[0].event)
        #expect(journal.keep() == keptSentence(1, in: journal.path))
        var info = stat()
        #expect(lstat(journal.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_mode & 0o777 == 0o600)
        let own = FileNames.directory(of: journal.path)
        #expect(lstat(own, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_mode & 0o777 == 0o700)
        #expect(FileNames.directory(of: own) == folder)
        #expect(FileNames.lastComponent(of: own).hasPrefix("perimeter-journal-\(getpid())-"))
    }

    @Test func theJournalIsForItsOwnerOnly() throws {
        let folder = try temporaryDirectory()
        let journal = RunJournal(folder: folder)
        journal.open()
        journal.record(samples[0].event)
        #expect(journal.keep() == keptSentence(1, in: journal.path))
        #expect(journal.keep() == keptSentence(1, in: journal.path), "the same again")
        let mode = try FileManager.default.attributesOfItem(atPath: journal.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "location data is nobody else's business")
        #expect(try contents(journal.path) == JSONLines.encode(samples[0].event) + "\n")
    }

    @Test func twoJournalsOfOneProcessNeverShareAFile() throws {
        let folder = try temporaryDirectory()
        let first = RunJournal(folder: folder), second = RunJournal(folder: folder)
        #expect(first.path != second.path)
        for path in [first.path, second.path] {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(name.firstMatch(of: /^perimeter-run-\d{8}T\d{6}Z-\d+(-\d+)?\.jsonl$/) != nil, "\(name)")
        }
    }

    @Test func aJournalWithNoEventsIsNotKept() throws {
        let folder = try temporaryDirectory()
        let journal = RunJournal(folder: folder)
        journal.open()
        #expect(journal.keep() == "the run had produced no events, so none were lost")
        #expect(try files(in: folder).isEmpty, "nor its private folder")
        _ = RunJournal(folder: folder)  // made, never opened, dropped
        #expect(try files(in: folder).isEmpty)
    }
}
