import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import Time
import WireFormat

@testable import EventSinks

@Suite struct OutputFileTests {
    let directory: String
    let target: String
    var partial: String { directory + "/.events.jsonl.partial-\(getpid())" }

    init() throws {
        directory = try temporaryDirectory()
        target = directory + "/events.jsonl"
        try "old contents\n".write(toFile: target, atomically: false, encoding: .utf8)
    }

    @Test func existingFileIsUntouchedUntilFinish() throws {
        let sink = try JSONLinesSink(path: target)
        // Enough events to pass the 64 KiB buffer several times over.
        let events = (0..<2000).map { i in
            var event = samples[i % samples.count].event
            event.time = event.time + .seconds(Int64(i))
            return event
        }
        for event in events { try sink.send(event) }
        #expect(try contents(target) == "old contents\n")
        #expect(try files(in: directory) == [".events.jsonl.partial-\(getpid())", "events.jsonl"])
        let partialSize = try #require(FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int)
        #expect(partialSize >= OutputFile.bufferSize)
        try sink.finish()
        #expect(try contents(target) == events.map { JSONLines.encode($0) + "\n" }.joined())
        #expect(try files(in: directory) == ["events.jsonl"])
    }

    /// A record is formatted in the buffer's own memory, which holds 128 KiB: one larger than that (a
    /// 300,000-byte id, escaped at worst to six bytes a byte in the bound) grows it, between short ones,
    /// and every sink writes it whole.
    @Test func aRecordLargerThanTheBufferIsWrittenWhole() throws {
        var large = samples[0].event
        large.device = String(repeating: "d", count: 300_000)
        let events = [samples[0].event, large, samples[1].event, large, samples[2].event]
        let jsonl = try JSONLinesSink(path: target)
        let csvPath = directory + "/events.csv"
        let csv = try CSVSink(path: csvPath)
        for event in events {
            try jsonl.send(event)
            try csv.send(event)
        }
        try jsonl.finish()
        try csv.finish()
        #expect(try contents(target) == events.map { JSONLines.encode($0) + "\n" }.joined())
        #expect(try contents(csvPath) == CSVRecords.header + events.map { CSVRecords.encode($0) + "\r\n" }.joined())
    }

    @Test func cancelLeavesTheOldFileAndNoPartial() throws {
        let sink = try CSVSink(path: target)
        for sample in samples { try sink.send(sample.event) }
        sink.cancel()
        try sink.finish()  // after cancel: nothing
        #expect(try contents(target) == "old contents\n")
        #expect(try files(in: directory) == ["events.jsonl"])
    }

    @Test func droppingASinkWithoutFinishLeavesTheOldFileAndNoPartial() throws {
        do {
            let sink = try GeoJSONSink(path: target)
            for sample in samples { try sink.send(sample.event) }
            #expect(try files(in: directory).count == 2)
        }
        #expect(try contents(target) == "old contents\n")
        #expect(try files(in: directory) == ["events.jsonl"])
    }

    @Test func replacementKeepsThePermissions() throws {
        chmod(target, 0o640)
        try run(JSONLinesSink(path: target), [samples[0].event])
        let mode = try #require(FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
    }

    @Test func throughASymbolicLinkTheLinkedFileIsReplaced() throws {
        let link = directory + "/link.jsonl"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "events.jsonl")
        try run(JSONLinesSink(path: link), [samples[0].event])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "events.jsonl")
        #expect(try contents(target) == JSONLines.encode(samples[0].event) + "\n")
        #expect(try files(in: directory) == ["events.jsonl", "link.jsonl"])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/null")))
    func aDeviceIsWrittenInPlaceNotReplaced() throws {
        try run(CSVSink(path: "/dev/null"), samples.map(\.event))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(!FileManager.default.fileExists(atPath: "/dev/.null.partial-\(getpid())"))
    }

    @Test func newFileIsCreated() throws {
        let path = directory + "/new.csv"
        try run(CSVSink(path: path), [])
        #expect(try contents(path) == CSVRecords.header)
    }

    @Test func standardOutputDashCreatesNoFile() throws {
        let sink = try SinkRegistry.core.makeSink(
            for: SinkRegistry.core.spec(parsing: "jsonl:-"), context: SinkContext(directory: directory))
        try sink.finish()  // zero events: writes nothing to the test's standard output
        #expect(try files(in: directory) == ["events.jsonl"])
    }

    @Test func dashWritesToTheGivenDescriptor() throws {
        let pipe = Pipe()
        let sink = JSONLinesSink(
            output: OutputFile(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor, spec: "jsonl:-"))
        try run(sink, samples.map(\.event))
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(try JSONLines.decode(log: text) == samples.map { WireEvent($0.event) })
    }

    // MARK: Errors

    struct OpenFailure: CustomTestStringConvertible, Sendable {
        let name: String
        /// The path under the test directory `D`.
        let path: String
        let reason: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        OpenFailure(
            name: "missing directory", path: "D/missing/events.jsonl",
            reason: #"cannot create "D/missing/events.jsonl": the directory "D/missing" does not exist"#),
        OpenFailure(
            name: "a regular file as a directory (ENOTDIR)", path: "D/events.jsonl/x.jsonl",
            reason: #"cannot create "D/events.jsonl/x.jsonl": a part of the path "D/events.jsonl" is not a directory"#),
        OpenFailure(
            name: "target is a directory", path: "D",
            reason: #"cannot write "D": it is a directory; give a file name"#),
    ])
    func openErrors(failure: OpenFailure) throws {
        let path = failure.path.replacingOccurrences(of: "D", with: directory)
        let reason = failure.reason.replacingOccurrences(of: "\"D", with: "\"" + directory)
        let spec = "jsonl:" + path
        #expect(
            throws: SinkError(
                spec: spec, path: path, reason: reason,
                errorNumber: failure.name == "target is a directory"
                    ? EISDIR
                    : failure.name == "missing directory" ? ENOENT : ENOTDIR)
        ) {
            _ = try JSONLinesSink(path: path)
        }
        #expect(try files(in: directory) == ["events.jsonl"])
    }

    @Test func errorMessageNamesTheSpecAsWritten() throws {
        let spec = try SinkRegistry.core.spec(parsing: "csv:missing/out.csv")
        let error = try #require(throws: SinkError.self) {
            try SinkRegistry.core.makeSink(for: spec, context: SinkContext(directory: directory))
        }
        #expect(
            error.description
                == "sink csv:missing/out.csv: cannot create \"\(directory)/missing/out.csv\": the directory \"\(directory)/missing\" does not exist"
        )
    }

    // Permission denied is tested end to end in PerimeterTests ("a read-only output folder"), where the
    // command runs as an unprivileged user even when the tests run as root.

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func diskFullOnWriteIsReportedAgainByFinish() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let sink = JSONLinesSink(output: OutputFile(fileDescriptor: fd, name: "/dev/full", spec: "jsonl:/dev/full"))
        try sink.send(samples[0].event)  // buffered
        let expected = SinkError(
            spec: "jsonl:/dev/full", path: "/dev/full",
            reason: #"cannot write "/dev/full": the disk is full"#, errorNumber: ENOSPC)
        #expect(throws: expected) { try sink.finish() }
        #expect(throws: expected) { try sink.finish() }
        #expect(throws: expected) { try sink.send(samples[0].event) }
    }
}

@Suite struct FanOutSinkTests {
    final class Failing: LifecycleSink {
        struct Failure: Error, Equatable { let name: String }
        let name: String
        var finished = false
        init(_ name: String) { self.name = name }
        func send(_ event: GeofenceEvent) throws {}
        func finish() throws { finished = true; throw Failure(name: name) }
    }

    @Test func finishFinishesEverySinkAndReportsEveryFailure() throws {
        let first = EventLog(), bad1 = Failing("one"), bad2 = Failing("two"), last = EventLog()
        let fan = FanOutSink([first, bad1, bad2, last])
        try fan.send(samples[0].event)
        let failures = try #require(throws: SinkFailures.self) { try fan.finish() }
        #expect(failures.errors.map { ($0 as? Failing.Failure)?.name } == ["one", "two"])
        #expect(first.isFinished && bad1.finished && bad2.finished && last.isFinished)
        #expect(last.events == [samples[0].event])
    }

    @Test func finishRethrowsALoneFailureAsItIs() throws {
        let fan = FanOutSink([EventLog(), Failing("one")])
        #expect(throws: Failing.Failure(name: "one")) { try fan.finish() }
    }

    @Test func cancelReachesEveryFileSink() throws {
        let directory = try temporaryDirectory()
        let fan = FanOutSink([
            try JSONLinesSink(path: directory + "/a.jsonl"), EventLog(),
            try CSVSink(path: directory + "/b.csv"),
        ])
        try fan.send(samples[0].event)
        #expect(try files(in: directory).count == 2)
        fan.cancel()
        #expect(try files(in: directory).isEmpty)
    }
}

/// A scenario's own sink (`refusingLinks`) never writes through a symbolic link nor opens a FIFO or
/// device, even one put there after its policy looked (issue 37 G2, G10): bad input, the target untouched.
@Suite struct OutputFileRefusingLinksTests {
    @Test func aLinkAFIFOAndADeviceAreRefused() throws {
        let directory = try temporaryDirectory()
        try "#!/bin/sh\n".write(toFile: directory + "/hook", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/e.jsonl", withDestinationPath: "hook")
        #expect(mkfifo(directory + "/pipe.jsonl", 0o644) == 0)
        for (path, says) in [
            (directory + "/e.jsonl", "it is a symbolic link (to \"hook\")"),
            (directory + "/pipe.jsonl", "is a named pipe (FIFO)"), ("/dev/null", "is a device"),
        ] {
            do {
                _ = try OutputFile(path: path, spec: "jsonl:x", refusingLinks: true)
                Issue.record("\(path) was opened")
            } catch {
                #expect(error.isBadInput, "\(error)")
                #expect(error.reason.contains(says), "\(error)")
            }
        }
        #expect(try String(contentsOfFile: directory + "/hook", encoding: .utf8) == "#!/bin/sh\n")
        #expect(try files(in: directory) == ["e.jsonl", "hook", "pipe.jsonl"])
    }
}
