import EventSinks
import FileSystem
import Foundation
import TestSupport
import Testing
import WireFormat

@testable import EventSinksHTTP

/// An HTTP sink's spool is never written through a symbolic link (issue 49 H9, after G9 for the other
/// sinks): a `spool=` path that is a link is refused when the sink opens, a spool swapped for a link
/// during the run is not appended through (its events are kept beside it), and a spool and what is kept
/// beside it are their owner's alone (0600).
@Suite("An HTTP sink's spool never goes through a symbolic link")
struct SpoolLinkTests {
    /// A folder with `secret.txt` (`old`) outside the spool's name, and a sink to a port nothing listens on.
    static func setUp() throws -> (directory: String, secret: String, configuration: HTTPSinkConfiguration) {
        let directory = try temporaryDirectory()
        let secret = directory + "/secret.txt"
        try "old\n".write(toFile: secret, atomically: false, encoding: .utf8)
        let port = try LoopbackServer.reservePort()
        let configuration = try httpConfiguration("http://127.0.0.1:\(port)/x", retries: 0, directory: directory)
        return (directory, secret, configuration)
    }

    static func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    @Test func aSpoolPathThatIsALinkIsRefusedWhenTheSinkOpens() throws {
        let (directory, secret, configuration) = try Self.setUp()
        try FileManager.default.createSymbolicLink(atPath: directory + "/spool.jsonl", withDestinationPath: "secret.txt")
        let error = #expect(throws: SinkError.self) { _ = try HTTPSink(configuration: configuration) }
        #expect(
            error?.description.contains("spool.jsonl\": it is a symbolic link (to \"secret.txt\")") == true,
            "\(String(describing: error))")
        #expect(try contents(secret) == "old\n")
    }

    @Test func aSpoolSwappedForALinkDuringTheRunIsNotAppendedThrough() throws {
        let (directory, secret, configuration) = try Self.setUp()
        let spool = directory + "/spool.jsonl"
        let sink = try HTTPSink(configuration: configuration)
        let events = httpEvents(3)
        for event in events { try sink.send(event) }
        try FileManager.default.createSymbolicLink(atPath: spool, withDestinationPath: "secret.txt")
        let error = #expect(throws: SinkError.self) { try sink.finish() }
        #expect(try contents(secret) == "old\n")
        let kept = AtomicFile.keptPath(for: spool)
        #expect(error?.description.contains("it is a symbolic link") == true, "\(String(describing: error))")
        #expect(error?.description.contains(kept) == true, "\(String(describing: error))")
        #expect(try SpoolLines.decode(log: contents(kept)).map(\.event) == events.map(WireEvent.init))
        #expect(try Self.mode(kept) == 0o600)
    }

    @Test func aSpoolAndItsPartialFileAreTheOwnersAlone() throws {
        let (directory, _, configuration) = try Self.setUp()
        let sink = try HTTPSink(configuration: configuration)
        let partial = try #require(try files(in: directory).first { $0.hasPrefix(".spool.jsonl.partial-") })
        #expect(try Self.mode(directory + "/" + partial) == 0o600)
        try sink.send(httpEvents(1)[0])
        #expect(throws: SinkError.self) { try sink.finish() }
        #expect(try Self.mode(directory + "/spool.jsonl") == 0o600)
    }
}
