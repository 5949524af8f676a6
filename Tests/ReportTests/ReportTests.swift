import Foundation
import Geodesy
import Geofencing
import Runs
import ScenarioFormat
import TestSupport
import Testing

@testable import Report

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A scenario file written into a fresh folder, beside a copy of the restaurant's track (`visit.gpx`).
private func scenario(_ yaml: String) throws -> String {
    let folder = try TemporaryFolders.make("report")
    try FileManager.default.copyItem(
        at: root.appendingPathComponent("Tracks/lorrenzillos-visit.gpx"),
        to: folder.appendingPathComponent("visit.gpx"))
    let path = folder.appendingPathComponent("scenario.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

@Suite("perimeter report: the page")
struct ReportTests {
    /// `report --runs N` runs each profile once for the map, then each profile's batch once: its runs give
    /// both the bands and the comparison with ideal (they once ran twice, the comparison's and the bands').
    @Test func eachProfileBatchRunsOnce() throws {
        let run = try ScenarioRun(loading: root.appendingPathComponent("Scenarios/restaurant-welcome.yaml").path)
        let builder = try ReportBuilder(run, profiles: [.iosDocumented, .androidDocumented, .ideal], runs: 5)
        let counter = SimulationCounter()
        let model = try ProfileBatch.$counter.withValue(counter) { try builder.build(threads: 2) }
        #expect(counter.value == 3 + 3 * 5)
        #expect(model.hasCompare)
    }

    @Test func theRestaurantPageHasEveryShapeAndEvent() throws {
        let run = try ScenarioRun(loading: root.appendingPathComponent("Scenarios/lorrenzillos.yaml").path)
        let html = try ReportPage(try ReportBuilder(run, profiles: [.iosDocumented, .androidDocumented, .ideal])).html()
        #expect(count("<path class=\"region\"", in: html) == 1)
        #expect(count("<path class=\"track\"", in: html) == 1)
        #expect(count("<g class=\"layer ", in: html) == 3)
        // Four drawn events a profile: enter, dwell, exit, visit (monitor-start is not drawn).
        #expect(html.contains("data-regions=\"1\" data-tracks=\"1\" data-events=\"12\""))
        let data = try #require(
            html.components(separatedBy: "<script type=\"application/json\" id=\"report-data\">").last?
                .components(separatedBy: "</script>").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let events = try #require(object["events"] as? [[Any]])
        #expect(events.count == 12)
        // The iOS enter: 2016-01-10T12:01:57Z, crossed at 12:01:37 (in milliseconds since 1970).
        #expect(
            events.contains {
                ($0[0] as? Int) == 0 && ($0[5] as? Int) == 0 && ($0[6] as? Int) == 1_452_427_317_000
                    && ($0[8] as? Int) == 1_452_427_297_000
            })
        #expect(html.contains("<table id=\"compare\">"))
        // iOS's enter against ideal: 20 s late, 229 m inside (its own distance in the golden log
        // Scenarios/lorrenzillos.events.jsonl, -229.247 m: the track has no noise).
        #expect(
            html.contains(
                "<td>ios-documented</td><td>enter</td><td>1</td><td>0</td><td>0</td><td>20 s</td><td>20 s</td><td>20 s</td><td>-229 m</td><td>-229 m</td>"
            ))
        #expect(!html.contains("src=") && !html.contains(" href="), "nothing is fetched: no source or link in the page")
    }

    @Test func idsAreTextNeverMarkup() throws {
        let path = try scenario(
            """
            name: "<script>alert('name')</script> & co"
            start: 2016-01-10T12:00:00Z
            regions:
              - id: "<script>alert(\\"x\\")</script> café 'ü'"
                circle: {lat: 37.703026, lon: -121.759735, radius: 300}
            devices:
              - {id: "</script><b>phone\\"s</b>", track: visit.gpx, pace: 1}

            """)
        let html = try ReportPage(try ReportBuilder(try ScenarioRun(loading: path), profiles: [.ideal])).html()
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("</script><b>"))
        #expect(html.contains("data-region=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; café &#39;ü&#39;\""))
        #expect(html.contains("<h1>&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt; &amp; co</h1>"))
        #expect(html.contains("\\u003c/script>\\u003cb>phone\\\"s\\u003c/b>"), "in the JSON, < is escaped")
        #expect(count("<script", in: html) == 3, "the two JSON blocks and the page's script, nothing else")
    }

    @Test func theSamePageEveryTimeAndForAnyThreadCount() throws {
        let run = try ScenarioRun(loading: root.appendingPathComponent("Scenarios/courier-overview.yaml").path)
        let builder = try ReportBuilder(run, profiles: [.android, .ideal])
        let one = try ReportPage(builder).html(threads: 1)
        #expect(try ReportPage(builder).html(threads: 2) == one)
    }

    @Test func circlesAreRingsOfPointsOnTheGroundAndPolygonsKeepTheirHoles() throws {
        let projection = MapProjection(centre: Coordinate(latitude: 59.93, longitude: 30.31))
        let circle = Shape.circle(try Circle(center: Coordinate(latitude: 59.93, longitude: 30.31), radius: 1000))
        let path = ReportBuilder.path(of: circle, projection)
        #expect(count("L", in: path) == ReportBuilder.circlePoints - 1 && path.hasSuffix("Z"))
        // At 59.93° N a ground metre is 1/cos(59.93°) ≈ 2.0 Mercator units: the first point, 1 km north.
        let first = path.dropFirst().split(separator: "L")[0].split(separator: " ").compactMap { Double($0) }
        #expect(abs(first[0]) < 0.1 && abs(first[1] + 1000 / cos(59.93 * .pi / 180)) < 2)
        let square = [(0.0, 0.0), (0.01, 0.0), (0.01, 0.01), (0.0, 0.01), (0.0, 0.0)].map {
            Coordinate(latitude: $0.1, longitude: $0.0)
        }
        let hole = [(0.004, 0.004), (0.006, 0.004), (0.006, 0.006), (0.004, 0.006), (0.004, 0.004)].map {
            Coordinate(latitude: $0.1, longitude: $0.0)
        }
        let polygon = Shape.polygon(try MultiPolygon([try Polygon(rings: [square, hole])]))
        let rings = ReportBuilder.path(of: polygon, MapProjection(centre: Coordinate(latitude: 0.005, longitude: 0.005)))
        #expect(count("M", in: rings) == 2 && count("Z", in: rings) == 2)
    }

    struct SimplificationCase: Sendable, CustomTestStringConvertible {
        let id: String
        let points: [[Double]]
        let tolerance: Double
        let kept: Int
        var testDescription: String { id }
    }

    @Test(
        "Douglas–Peucker keeps the ends and the corners, drops the jitter",
        arguments: [
            SimplificationCase(
                id: "jitter under the tolerance", points: [[0, 0], [1, 0.2], [2, -0.2], [3, 0.1], [4, 0]], tolerance: 0.5,
                kept: 2),
            SimplificationCase(id: "a corner", points: [[0, 0], [5, 0], [5, 5]], tolerance: 0.5, kept: 3),
            SimplificationCase(
                id: "jitter over the tolerance", points: [[0, 0], [1, 0.2], [2, -0.2], [3, 0.1], [4, 0]], tolerance: 0.1,
                kept: 5),
            SimplificationCase(id: "one point", points: [[0, 0]], tolerance: 1, kept: 1),
            SimplificationCase(id: "standing still", points: [[1, 1], [1, 1], [1, 1]], tolerance: 0.5, kept: 2),
        ])
    func simplification(_ c: SimplificationCase) {
        let result = simplified(c.points.map { (x: $0[0], y: $0[1]) }, tolerance: c.tolerance)
        #expect(result.count == c.kept)
        #expect(result.first?.x == c.points.first?[0] && result.last?.x == c.points.last?[0])
    }
}
