import Geofencing
import TestSupport
import Testing

@testable import EventSinks
@testable import WireFormat

/// GeoJSON's properties are the wire schema (`WireField`) without `lat` and `lon` (the feature's point):
/// the event's kind's fields, in table order, `detectedAt` only for an event delivered late.
@Suite struct GeoJSONSchemaTests {
    static let events = schemaSamples

    @Test("properties in table order", arguments: events)
    func properties(sample: EventSample) throws {
        let feature = GeoJSONSink.feature(sample.event)
        let start = try #require(feature.range(of: #""properties":"#)).upperBound
        try #require(feature.hasSuffix("}}"))
        var parser = FlatJSONParser(Array(feature[start...].dropLast().utf8))
        let keys = try parser.object().map(\.0)
        let expected = WireField.keys(of: sample.event.kind)
            .filter { $0 != .lat && $0 != .lon && (!$0.isOptional || sample.event.writtenDetectedAt != nil) }
        #expect(keys == expected.map(\.name))
    }
}
