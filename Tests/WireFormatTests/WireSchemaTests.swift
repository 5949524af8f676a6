import Foundation
import Geofencing
import TestSupport
import Testing

@testable import WireFormat

/// Every format's fields in the order and for the kinds of the one table, `WireField` (SEMANTICS §7): CSV's
/// header and records, JSON Lines' keys on an event of each kind (delivered late or not), what the decoder
/// accepts, and the Spark stage's declared schema. (The SQLite sink's columns, read back from a file with
/// `PRAGMA table_info`, are held in `EventSinksSQLiteTests`; GeoJSON's properties in `EventSinksTests`; the
/// log diff's in `RegressionTests`.)
@Suite struct WireSchemaTests {
    static let events = schemaSamples

    @Test func everyKindHasASample() {
        let kinds = Set(Self.events.map(\.event.kind))
        #expect(kinds == Set(GeofenceEvent.Kind.allCases))
        #expect(Self.events.contains { $0.event.writtenDetectedAt != nil })
    }

    @Test("the table: names unique, the common fields first, detectedAt last and optional")
    func table() {
        #expect(Set(WireField.allCases.map(\.name)).count == WireField.allCases.count)
        #expect(WireField.all == WireField.allCases)
        let common = WireField.allCases.filter { field in GeofenceEvent.Kind.allCases.allSatisfy(field.isCarried(by:)) }
        #expect(common.map(\.name) == ["time", "device", "region", "kind", "lat", "lon", "distance"])
        #expect(Array(WireField.allCases.prefix(common.count)) == common)
        #expect(WireField.allCases.filter(\.isOptional) == [.detectedAt])
        #expect(WireField.allCases.last == .detectedAt)
        #expect(Set(WireField.keyOrder) == Set(WireField.allCases) && WireField.keyOrder.count == WireField.allCases.count)
    }

    @Test("JSON Lines: the kind's fields in key order", arguments: events)
    func jsonLinesKeys(sample: EventSample) throws {
        let event = sample.event
        var parser = FlatJSONParser(Array(JSONLines.encode(event).utf8))
        let keys = try parser.object().map(\.0)
        let expected = WireField.keys(of: event.kind).filter { !$0.isOptional || event.writtenDetectedAt != nil }
        #expect(keys == expected.map(\.name))
        // The engine's event and its wire copy give the same keys (the writers read either in place).
        var wireParser = FlatJSONParser(Array(JSONLines.encode(WireEvent(event)).utf8))
        #expect(try wireParser.object().map(\.0) == keys)
    }

    @Test("JSON Lines: the decoder accepts the kind's fields and no other", arguments: GeofenceEvent.Kind.allCases)
    func decoderKeys(kind: GeofenceEvent.Kind) throws {
        let sample = try #require(Self.events.last { $0.event.kind == kind })  // delivered late where it can be
        var parser = FlatJSONParser(Array(JSONLines.encode(sample.event).utf8))
        let members = try parser.object()
        #expect(try WireEvent(members: members) == WireEvent(sample.event))
        for field in WireField.allCases where !field.isCarried(by: kind) {
            #expect(throws: WireFormatError.self, "\(field)") { try WireEvent(members: members + [(field.name, .null)]) }
        }
        for field in WireField.keys(of: kind) where !field.isOptional {
            #expect(throws: WireFormatError.self, "\(field)") {
                try WireEvent(members: members.filter { $0.0 != field.name })
            }
        }
    }

    @Test(
        "CSV: the header is the table; a record's fields are set exactly where the kind carries them",
        arguments: events)
    func csv(sample: EventSample) throws {
        #expect(try readCSV(CSVRecords.header) == [WireField.allCases.map(\.name)])
        let record = try #require(try readCSV(CSVRecords.encode(sample.event) + "\r\n").first)
        try #require(record.count == WireField.allCases.count)
        for (field, text) in zip(WireField.allCases, record) {
            let written = field.value(of: WireEvent(sample.event)) != .absent
            if !text.isEmpty { #expect(written, "\(field)") }
            if written && field.type != .text { #expect(!text.isEmpty, "\(field)") }  // (an id may be empty)
            #expect(
                written
                    == (field.isCarried(by: sample.event.kind)
                        && (!field.isOptional || sample.event.writtenDetectedAt != nil)),
                "\(field)")
        }
    }

    /// `Integrations/spark/perimeter_spark/stage.py`'s `EVENT_FIELDS`: (name, Arrow type) in order.
    static func sparkFields() throws -> [(name: String, type: String)] {
        let path = PerimeterProcess.root.appendingPathComponent("Integrations/spark/perimeter_spark/stage.py").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(text.range(of: "EVENT_FIELDS"))
        let end = try #require(text.range(of: "\n)\n", range: start.upperBound..<text.endIndex))
        let block = text[start.upperBound..<end.lowerBound]
        let entry = /\(\s*"([A-Za-z]+)"\s*,\s*(pa\.[a-z0-9]+\([^()]*\))\s*\)/
        return block.matches(of: entry).map { (String($0.output.1), String($0.output.2)) }
    }

    @Test("Spark: the stage's EVENT_FIELDS are the table, with its types in Arrow")
    func spark() throws {
        let fields = try Self.sparkFields()
        #expect(fields.map(\.name) == WireField.allCases.map(\.name))
        for (field, (name, type)) in zip(WireField.allCases, fields) {
            let arrow: String
            switch field.type {
            case .time: arrow = #"pa.timestamp("us", tz="UTC")"#
            case .text: arrow = "pa.string()"
            case .number: arrow = "pa.float64()"
            }
            #expect(type == arrow, "\(name)")
        }
    }
}
