import FileSystem
import Foundation
import Geofencing
import TestSupport
import Testing
import WireFormat

@testable import EventSinks

@Suite struct GeoJSONSinkTests {
    func write(_ events: [GeofenceEvent]) throws -> String {
        let directory = try temporaryDirectory()
        let path = directory + "/events.geojson"
        try run(GeoJSONSink(path: path), events)
        #expect(try files(in: directory) == ["events.geojson"])
        return try contents(path)
    }

    @Test(arguments: [0, 1, samples.count])
    func featureCollectionReadsBack(count: Int) throws {
        let events = samples.prefix(count).map(\.event)
        let text = try write(events)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == count)
        for (feature, event) in zip(features, events) {
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            let coordinates = try #require(geometry["coordinates"] as? [NSNumber]).map(\.doubleValue)
            #expect(coordinates.count == 2)
            #expect(abs(coordinates[0] - event.coordinate.longitude) <= 4 * event.coordinate.longitude.ulp)
            #expect(abs(coordinates[1] - event.coordinate.latitude) <= 4 * event.coordinate.latitude.ulp)
            let properties = try #require(feature["properties"] as? [String: Any])
            let expected = expectedFields(event).filter { $0.0 != "lat" && $0.0 != "lon" }
            #expect(Set(properties.keys) == Set(expected.map(\.0)))
            for (key, value) in expected {
                if let number = value as? Double {
                    let read = try #require((properties[key] as? NSNumber)?.doubleValue, "\(key)")
                    #expect(abs(read - number) <= 4 * number.ulp, "\(key)")
                } else {
                    #expect(properties[key] as? String == value as? String, "\(key)")
                }
            }
        }
    }

    @Test func python3ReadsExactCoordinatesAndPropertiesInOrder() throws {
        let text = try write(samples.map(\.event))
        let script = """
            import sys, json
            doc = json.loads(sys.stdin.read())
            out = [[[repr(c) for c in f["geometry"]["coordinates"]],
                    [[k, repr(v) if isinstance(v, float) else v] for k, v in f["properties"].items()]] for f in doc["features"]]
            print(json.dumps(out))
            """
        guard let output = try python(script, input: text) else { return }
        struct Row: Decodable, Equatable {
            let coordinates: [String]
            let properties: [[String]]
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                coordinates = try c.decode([String].self)
                properties = try c.decode([[String]].self)
            }
        }
        let rows = try JSONDecoder().decode([Row].self, from: Data(output.utf8))
        #expect(rows.count == samples.count)
        for (row, sample) in zip(rows, samples) {
            let c = sample.event.coordinate
            #expect(row.coordinates == [c.longitude.description, c.latitude.description], "\(sample.name)")
            #expect(
                row.properties == expectedPythonView(sample.event).filter { $0[0] != "lat" && $0[0] != "lon" },
                "\(sample.name)")
        }
    }

    @Test func zeroEventsIsAnEmptyCollection() throws {
        #expect(try write([]) == "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n")
    }

    @Test func oneFeaturePerLine() throws {
        let text = try write(Array(samples.prefix(2).map(\.event)))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines[1] == GeoJSONSink.feature(samples[0].event) + ",")
        #expect(lines[2] == GeoJSONSink.feature(samples[1].event))
        #expect(lines[3] == "]}")
        #expect(
            lines[1].hasPrefix(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-121.759735,37.703026]},"properties":{"time":"2016-01-10T12:00:00.000Z","device":"phone","region":"cafe","kind":"monitor-start","distance":512.25}"#
            ))
    }
}
