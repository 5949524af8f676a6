import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

@Suite struct JSONLinesSinkTests {
    @Test func fileHoldsOneLinePerEvent() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/events.jsonl"
        try run(JSONLinesSink(path: path), samples.map(\.event))
        let text = try contents(path)
        #expect(text == samples.map { JSONLines.encode($0.event) + "\n" }.joined())
        #expect(try JSONLines.decode(log: text) == samples.map { WireEvent($0.event) })
        #expect(try files(in: directory) == ["events.jsonl"])
    }
}
