import Documents
import Foundation
import Geofencing
import TestSupport
import Testing
import Yams

@testable import ScenarioFormat

/// Region files are read as JSON (`JSONReader`), not composed as YAML: the same regions and the same
/// messages for what is wrong inside a valid document, and a sentence with the line and column for what
/// is not JSON.
@Suite struct JSONRegionFileTests {
    struct Malformed: Sendable, CustomTestStringConvertible {
        let id: String
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { id }

        init(_ id: String, _ text: String, line: Int, column: Int, _ message: String) {
            self.init(id, Array(text.utf8), line: line, column: column, message)
        }

        init(_ id: String, _ bytes: [UInt8], line: Int, column: Int, _ message: String) {
            self.id = id
            self.bytes = bytes
            self.line = line
            self.column = column
            self.message = message
        }
    }

    static let malformed: [Malformed] = [
        Malformed(
            "truncated inside the features", "{\"type\": \"FeatureCollection\",\n \"features\": [", line: 2, column: 15,
            "JSON syntax error: expected a value, got the end of the file"),
        Malformed(
            "a missing comma", "{\"type\": \"Feature\" \"id\": 1}", line: 1, column: 20,
            "JSON syntax error: expected ',' or '}' after the value of \"type\", got '\"'"),
        Malformed(
            "a bad escape", "{\"type\": \"Fe\\qature\"}", line: 1, column: 13, "JSON syntax error: a bad escape in a string"),
        Malformed(
            "a lone surrogate", "{\"type\": \"\\ud800\"}", line: 1, column: 11,
            "JSON syntax error: a lone surrogate in a string"),
        Malformed(
            "a raw tab in a string", "{\"type\": \"Fea\tture\"}", line: 1, column: 14,
            "JSON syntax error: a string holds the control character 0x9"),
        Malformed(
            "a leading zero", "{\"type\": \"Polygon\", \"coordinates\": [[[01, 2]]]}", line: 1, column: 39,
            "JSON syntax error: a number may not start with 0 followed by digits"),
        Malformed(
            "NaN", "[NaN]", line: 1, column: 2,
            "JSON syntax error: expected a value (an object, a list, a string, a number, true, false or null), got 'N'"),
        Malformed(
            "a trailing comma", "{\"type\": \"Polygon\", \"coordinates\": [1,]}", line: 1, column: 39,
            "JSON syntax error: expected a value (an object, a list, a string, a number, true, false or null), got ']'"),
        Malformed(
            "a repeated key, placed at its first", "{\n  \"type\": \"Feature\",\n  \"type\": \"Feature\"}", line: 2,
            column: 3,
            "a key appears more than once in one mapping: \"type\" (first given here); each key may be given once"),
        Malformed(
            "a repeated root key in a FeatureCollection",
            "{\"type\": \"FeatureCollection\", \"features\": [], \"features\": []}",
            line: 1, column: 31, "a key appears more than once in one mapping: \"features\""),
        Malformed(
            "text after the document", "{\"type\": \"Polygon\", \"coordinates\": []} x", line: 1, column: 40,
            "JSON syntax error: expected the end of the file after the document's value, got 'x'"),
        Malformed(
            "text after a FeatureCollection", "{\"type\": \"FeatureCollection\", \"features\": []}\n]", line: 2, column: 1,
            "JSON syntax error: expected the end of the file after the document's value, got ']'"),
        Malformed(
            "100,000 nested lists", String(repeating: "[", count: 100_000), line: 1, column: 257,
            "JSON syntax error: objects and lists nested deeper than 256 levels are refused"),
        Malformed("an empty file", "  \n", line: 0, column: 0, "the file is empty; expected GeoJSON"),
        Malformed(
            "a string that is not UTF-8", [0x7B, 0x22, 0x74, 0xFF, 0x22, 0x3A, 0x31, 0x7D], line: 1, column: 3,
            "JSON syntax error: a string that is not UTF-8 text"),
        Malformed(
            "a column counted in characters", "{\"id\": \"café\", \"type\": 1 2}", line: 1, column: 26,
            "JSON syntax error: expected ',' or '}' after the value of \"type\", got '2'"),
        Malformed(
            "a YAML region file", "type: Polygon\ncoordinates: []\n", line: 1, column: 1,
            "JSON syntax error: expected a value (an object, a list, a string, a number, true, false or null), got 't'"),
    ]

    @Test(arguments: malformed)
    func malformedJSONIsRefusedWithItsPlace(c: Malformed) throws {
        let path = try write(c.bytes)
        do {
            _ = try RegionFile.load(path: path)
            Issue.record("loaded")
        } catch {
            let first = try #require(error.errors.first)
            #expect(error.errors.count == 1, "\(error.errors)")
            #expect(first.file == path && first.line == c.line && first.column == c.column, "\(first)")
            #expect(first.message.hasPrefix(c.message), "\(first.message)")
        }
    }

    /// Valid GeoJSON read directly gives exactly the regions that composing it as YAML (through Yams, as
    /// before) and walking the same tree gives.
    @Test(arguments: [
        #"{"features": [{"type": "Feature", "properties": {"id": "caf\u00e9 \"1\"", "radius": 1e2}, "geometry": {"type": "Point", "coordinates": [-0.0, 51.5]}}], "type": "FeatureCollection"}"#,
        #"{"type": "FeatureCollection", "bbox": [0, 0, 1, 1], "crs": {"x": [1, {"y": null}]}, "features": [{"type": "Feature", "id": 7, "properties": {"hysteresis": 20, "confirmation": "5s", "enterConfidence": 0.9}, "geometry": {"type": "Polygon", "coordinates": [[[13.0, 52.0], [13.01, 52.0], [13.01, 52.01], [13.0, 52.0]]]}}, {"type": "Feature", "properties": {"id": "b", "radius": "300m"}, "geometry": {"type": "Point", "coordinates": [13.2, 52.2, 30]}}]}"#,
        #"{"type": "Feature", "properties": {"id": "one"}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]], [[0.002, 0.002], [0.004, 0.002], [0.004, 0.004], [0.002, 0.002]]], [[[1, 1], [1.01, 1], [1.01, 1.01], [1, 1]]]]}}"#,
        #"{"type": "Polygon", "coordinates": [[[-122.4194, 37.7749], [-122.4094, 37.7749], [-122.4094, 37.7849], [-122.4194, 37.7749]]]}"#,
    ])
    func validGeoJSONGivesTheRegionsYAMLGave(text: String) throws {
        let path = try write(Array(text.utf8))
        let direct = try RegionFile.load(path: path)
        let log = ProblemLog()
        let root = try #require(try Yams.compose(yaml: text))
        let viaYAML = GeoJSON.regions(
            root: PlacedNode(node: DocumentNode(root), path: "", file: path, diagnostics: log),
            defaults: MonitorOverrides(), bareID: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        #expect(!log.hasErrors, "\(log.errors)")
        #expect(direct == viaYAML.map(\.region))
        #expect(!direct.isEmpty)
    }

    /// What is wrong inside valid JSON keeps its key path, line and column, as composed YAML gave them.
    @Test func problemsInsideAFeatureKeepTheirKeyPath() throws {
        let text =
            "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"id\": \"a\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}, \"properties\": {\"radius\": 5}},\n{\"type\": \"Feature\", \"id\": \"b\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 95]}, \"properties\": {\"radius\": 5}}]}"
        let path = try write(Array(text.utf8))
        #expect(throws: ScenarioErrors.self) { try RegionFile.load(path: path) }
        do {
            _ = try RegionFile.load(path: path)
        } catch {
            #expect(error.errors.map(\.keyPath) == ["features[1].geometry.coordinates"])
            #expect(error.errors.first?.line == 3 && error.errors.first?.column == 77)
        }
    }

    private func write(_ bytes: [UInt8]) throws -> String {
        let folder = try TemporaryFolders.make("json-regions")
        let path = folder.appendingPathComponent("zones.geojson").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
