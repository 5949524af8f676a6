import Foundation
import TestSupport
import Testing

@testable import WireFormat

@Suite struct SpoolLinesTests {
    @Test("an event's line with its batch's key reads back as the event and the key", arguments: formatSamples)
    func roundTrip(sample: EventSample) throws {
        let line = SpoolLines.line(JSONLines.encode(sample.event), key: "0f3a-7")
        #expect(line.hasSuffix(",\"idempotencyKey\":\"0f3a-7\"}"))
        let read = try SpoolLines.decode(line: line)
        #expect(read.event == WireEvent(sample.event))
        #expect(read.key == "0f3a-7")
        #expect(JSONLines.encode(read.event) == JSONLines.encode(sample.event))  // the bytes sent again
    }

    @Test(
        "a line without a key is an event with none; a bad key is refused with its line",
        arguments: [
            (
                "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3}",
                nil as String?
            ),
            (
                "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3,\"idempotencyKey\":7}",
                "line 1: \"idempotencyKey\" must be a non-empty string"
            ),
            (
                "{\"time\":\"2016-01-10T12:00:00.000Z\",\"device\":\"p\",\"region\":\"r\",\"kind\":\"monitor-start\",\"lat\":1,\"lon\":2,\"distance\":3,\"idempotencyKey\":\"\"}",
                "line 1: \"idempotencyKey\" must be a non-empty string"
            ),
        ])
    func keysAndRefusals(line: String, refusal: String?) throws {
        do {
            let records = try SpoolLines.decode(log: line + "\n")
            #expect(refusal == nil)
            #expect(records.map(\.key) == [nil])
        } catch {
            #expect(refusal.map { error.description.hasPrefix($0) } == true, "\(error)")
        }
    }

    @Test("a plain event log refuses the key: only a spool carries one")
    func plainLogsRefuseTheKey() throws {
        let line = SpoolLines.line(JSONLines.encode(formatSamples[0].event), key: "k-0")
        #expect(throws: WireFormatError.self) { try JSONLines.decode(log: line) }
    }
}
