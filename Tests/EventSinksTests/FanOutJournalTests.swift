import FileSystem
import Foundation
import Geodesy
import Geofencing
import TestSupport
import Testing
import Time
import WireFormat

@testable import EventSinks

/// A walker going east through five cafés and back: 35 events under the `ideal` profile (5 starts, then
/// enter, exit and visit at every café, twice).
let cafeWalk: Simulation = {
    func east(_ metres: Double) -> Coordinate { Coordinate(latitude: 0, longitude: metres / 111_195.08) }
    let regions = (0..<5).map { index in
        Region(id: "cafe-\(index)", shape: .circle(try! Circle(center: east(Double(index) * 300 + 200), radius: 80)))
    }
    let start = at("2024-05-01T09:00:00Z")
    let fixes = [
        Fix(east(0), at: start), Fix(east(1600), at: start + .seconds(160)), Fix(east(0), at: start + .seconds(320)),
    ]
    return Simulation(regions: regions, profile: .ideal, devices: [Device(id: "walker", track: .timed([fixes]))])
}()

/// The events of a good run of `cafeWalk`.
let cafeWalkEvents: [GeofenceEvent] = {
    let log = EventLog()
    try! cafeWalk.run(into: log)
    return log.events
}()

/// A sink that fails as a full disk would, at its `failAt`-th event (1-based) or, when nil, at `finish()`;
/// `spools` makes it a sink that keeps its own undelivered events (as an HTTP sink does).
final class FailingSink: LifecycleSink {
    let failAt: Int?
    let error: SinkError
    let spoolsItself: Bool
    private(set) var received: [GeofenceEvent] = []
    private(set) var cancelled = false

    init(failAt: Int?, name: String = "full", spools: Bool = false) {
        self.failAt = failAt
        error = SinkError(
            spec: "jsonl:/\(name)/e.jsonl", path: "/\(name)/e.jsonl",
            reason: "cannot write \"/\(name)/e.jsonl\": the disk is full", errorNumber: ENOSPC)
        spoolsItself = spools
    }

    func send(_ event: GeofenceEvent) throws {
        received.append(event)
        if received.count == failAt { throw error }
    }

    func finish() throws { if failAt == nil { throw error } }
    func cancel() { cancelled = true }
}

/// The sentence a failed sink's message ends with when the journal kept `count` events.
func keptSentence(_ count: Int, in path: String) -> String {
    "its \(count) event\(count == 1 ? " was" : "s were") kept in \"\(path)\" (JSON Lines, as jsonl: writes them; 'perimeter deliver' can send them to an HTTP sink)"
}

@Suite("A sink that fails beside others: the others finish, the run's journal keeps its events")
struct FanOutJournalTests {
    struct Failure: CustomTestStringConvertible, Sendable {
        let name: String
        /// The event the sink fails at (1-based), or nil for `finish()`.
        let at: Int?
        var testDescription: String { name }
    }

    @Test(arguments: [
        Failure(name: "at the first event", at: 1),
        Failure(name: "at event 17 of 35", at: 17),
        Failure(name: "at the last event", at: cafeWalkEvents.count),
        Failure(name: "at finish, after every event", at: nil),
    ])
    func failingSinkLosesNothing(_ failure: Failure) throws {
        let folder = try temporaryDirectory(), journalFolder = try temporaryDirectory()
        var warnings: [String] = []
        let journal = RunJournal(folder: journalFolder, warn: { warnings.append($0) })
        let failing = FailingSink(failAt: failure.at)
        let jsonl = try JSONLinesSink(path: folder + "/e.jsonl")
        // The failing sink comes first: the JSON Lines sink must still get the event it failed at.
        let fan = FanOutSink([failing, jsonl], journal: journal)
        let options = RunOptions(threads: 1)
        let error: SinkError
        if failure.at != nil {
            #expect(throws: failing.error) { try cafeWalk.run(into: fan, options: options) }
            error = try #require(throws: SinkError.self) { try fan.finish() }
        } else {
            error = try #require(throws: SinkError.self) { try cafeWalk.run(into: fan, options: options) }
        }
        let count = failure.at ?? cafeWalkEvents.count
        let expected = cafeWalkEvents.prefix(count).map(WireEvent.init)
        #expect(error.description == failing.error.description + "; " + keptSentence(count, in: journal.path))
        #expect(throws: error) { try fan.finish() }  // reported again, the same

        #expect(try JSONLines.decode(log: contents(folder + "/e.jsonl")) == expected)
        let spool = try EventLogFile(path: journal.path)
        #expect(spool.events == expected)
        #expect(String(decoding: spool.contents, as: UTF8.self) == (try contents(folder + "/e.jsonl")))
        #expect(failing.received == Array(cafeWalkEvents.prefix(count)), "no event after the one it failed at")
        #expect(failing.cancelled == (failure.at != nil), "a sink that failed in send is cancelled, not finished")
        #expect(try files(in: folder) == ["e.jsonl"])
        // G9: the journal is alone in its private folder, the only thing the run left in the temporary folder.
        let own = URL(fileURLWithPath: journal.path).deletingLastPathComponent()
        #expect(try files(in: journalFolder) == [own.lastPathComponent])
        #expect(try files(in: own.path) == [URL(fileURLWithPath: journal.path).lastPathComponent])
        #expect(warnings.isEmpty)
    }

    @Test func everySinkFineLeavesNoJournal() throws {
        let folder = try temporaryDirectory(), journalFolder = try temporaryDirectory()
        let journal = RunJournal(folder: journalFolder)
        let log = EventLog()
        let fan = FanOutSink([try CSVSink(path: folder + "/e.csv"), log], journal: journal)
        #expect(try files(in: journalFolder).count == 1, "the partial file while the run goes")
        try cafeWalk.run(into: fan)
        #expect(journal.count == cafeWalkEvents.count)
        #expect(try files(in: journalFolder).isEmpty)
        #expect(log.events == cafeWalkEvents)
        #expect(try files(in: folder) == ["e.csv"])
    }

    @Test func sinksThatSpoolThemselvesNeedNoJournal() throws {
        let journalFolder = try temporaryDirectory()
        // Only sinks that keep their own undelivered events: no journal at all.
        let alone = FanOutSink([FailingSink(failAt: nil, spools: true)], journal: RunJournal(folder: journalFolder))
        #expect(alone.journal == nil && alone.spoolsItself)
        #expect(try files(in: journalFolder).isEmpty)
        // Beside an event log the journal is written; a failure of the spooling sink alone does not keep it.
        let spooling = FailingSink(failAt: nil, spools: true)
        let fan = FanOutSink([spooling, EventLog()], journal: RunJournal(folder: journalFolder))
        #expect(fan.journal != nil && fan.spoolsItself)
        #expect(throws: spooling.error) { try cafeWalk.run(into: fan) }
        #expect(try files(in: journalFolder).isEmpty)
    }

    @Test func severalFailuresEachSayWhatWasKept() throws {
        let journalFolder = try temporaryDirectory()
        let journal = RunJournal(folder: journalFolder)
        let disk = FailingSink(failAt: 3, name: "disk"), spooling = FailingSink(failAt: 3, name: "spooling", spools: true)
        let log = EventLog()
        let fan = FanOutSink([disk, spooling, log], journal: journal)
        let thrown = try #require(throws: SinkFailures.self) { try cafeWalk.run(into: fan) }
        #expect(thrown.errors.map { "\($0)" } == [disk.error.description, spooling.error.description])
        let reported = try #require(throws: SinkFailures.self) { try fan.finish() }
        #expect(
            reported.errors.map { "\($0)" } == [
                disk.error.description + "; " + keptSentence(3, in: journal.path),
                spooling.error.description,  // it said itself where its events are
            ])
        #expect(log.events == Array(cafeWalkEvents.prefix(3)) && log.isFinished)
        #expect(try EventLogFile(path: journal.path).events == cafeWalkEvents.prefix(3).map(WireEvent.init))
    }

    @Test func aSinkThatIsNotOurs() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "the server said no" } }
        final class Refusing: LifecycleSink {
            func send(_ event: GeofenceEvent) throws { throw Refused() }
            func finish() throws {}
        }
        let journal = RunJournal(folder: try temporaryDirectory())
        let fan = FanOutSink([Refusing()], journal: journal)
        #expect(throws: Refused.self) { try cafeWalk.run(into: fan) }
        let error = try #require(throws: SinkError.self) { try fan.finish() }
        #expect(error.description == "sink Refusing: the server said no; " + keptSentence(1, in: journal.path))
    }
}
