import Draws
import Foundation
import Testing

/// One adversarial input for `perimeter`: the files it is made of, the command, and what must happen.
///
/// `peakMB` and `seconds` are bounds asserted on every run; the figures measured on the development
/// machine (debug build, 2 cores, tests running beside it) are in each case's comment.
struct HostileInput: CustomTestStringConvertible, Sendable {
    var id: String
    /// Writes the case's files into the folder; returns the arguments after `perimeter`.
    var make: @Sendable (URL) throws -> [String]
    /// The expected exit code.
    var status: Int32
    /// A text that standard error must contain (the error's sentence, or the run's summary).
    var message: String
    /// Bounds on the child's peak resident memory and its wall-clock time.
    var peakMB: Int = 150
    var seconds: Double = 30
    var testDescription: String { id }
}

/// Something at a path that should be a file: what makes it, and what the error says of it.
struct PathKind: Sendable {
    var name: String
    var make: @Sendable (_ folder: URL, _ name: String) throws -> Void
    var says: String
}

/// Builders of the files the cases are made of.
enum Inputs {
    /// A 300 m circle around the restaurant of the README's scenario.
    static let circle = "{id: cafe, circle: {lat: 37.703026, lon: -121.759735, radius: 300}}"

    /// A scenario of `regions` (YAML list items) and `devices`, written as scenario.yaml.
    static func scenario(
        in folder: URL, regions: [String] = [circle],
        devices: [String] = ["{id: phone, track: track.gpx}"], extra: String = ""
    ) throws -> [String] {
        let text =
            "name: hostile\n\(extra)regions:\n" + regions.map { "  - \($0)\n" }.joined()
            + "devices:\n" + devices.map { "  - \($0)\n" }.joined()
        try text.write(to: folder.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        return ["run", "scenario.yaml", "--sink", "jsonl:-"]
    }

    /// A GPX 1.1 document around `body`.
    static func gpx(_ body: String, doctype: String = "") -> String {
        "<?xml version=\"1.0\"?>\n\(doctype)<gpx version=\"1.1\" creator=\"tests\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            + body + "\n</gpx>\n"
    }

    /// A walk north through the circle: `count` points 1 s apart from `start` (a time of day and zone
    /// appended to a date, or a full time when `date` is nil).
    static func walk(count: Int = 120, date: String = "2016-01-10", latitudeStep: Double = 0.0001) -> String {
        let points = (0..<count).map { i in
            let time = String(format: "%@T12:%02d:%02dZ", date, i / 60, i % 60)
            return String(
                format: "<trkpt lat=\"%.6f\" lon=\"-121.759735\"><time>%@</time></trkpt>",
                37.7 + Double(i) * latitudeStep - 0.006, time)
        }
        return "<trk><trkseg>\n" + points.joined(separator: "\n") + "\n</trkseg></trk>"
    }

    /// Writes `text` as `name` in `folder`.
    static func write(_ text: String, _ name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// A track file and the scenario playing it.
    static func track(_ text: String, in folder: URL, extra: String = "", offset: String? = nil) throws -> [String] {
        try write(text, "track.gpx", in: folder)
        let device = offset.map { "{id: phone, track: track.gpx, offset: \($0)}" } ?? "{id: phone, track: track.gpx}"
        return try scenario(in: folder, devices: [device], extra: extra)
    }

    /// A square of `size`° with `holes` small square holes in a row along its middle, as YAML.
    static func polygonWithHoles(_ holes: Int) -> String {
        func ring(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> String {
            String(
                format: "[[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f]]",
                west, south, east, south, east, north, west, north, west, south)
        }
        let (west, east) = (-121.80, -121.72)
        var rings = [ring(west, 37.68, east, 37.72)]
        let width = (east - west) / Double(holes)
        for i in 0..<holes {
            let w = west + Double(i) * width
            rings.append(ring(w + width * 0.25, 37.699, w + width * 0.75, 37.707))
        }
        return "{id: holes, polygon: {type: Polygon, coordinates: [\(rings.joined(separator: ","))]}}"
    }

    /// `count` circles of 50–250 m scattered over 20 × 25 km around the restaurant, as a GeoJSON file.
    static func manyCircles(_ count: Int) -> String {
        var generator = SplitMix64(seed: 7)
        let features = (0..<count).map { i in
            String(
                format:
                    "{\"type\":\"Feature\",\"properties\":{\"id\":\"r%d\",\"radius\":%d},\"geometry\":{\"type\":\"Point\",\"coordinates\":[%.5f,%.5f]}}",
                i, 50 + Int(generator.next() % 200), -121.9 + generator.nextUnit() * 0.3, 37.6 + generator.nextUnit() * 0.2)
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    /// A scenario whose `expect:` list is one entry and `count` aliases of it (7 bytes and 7 nodes each).
    static func yamlAliasedExpectations(_ count: Int) -> String {
        let lines = [
            "name: aliases", "start: 2016-01-10T12:00:00Z", "regions:",
            "  - {id: cafe, circle: {lat: 37.7, lon: -121.76, radius: 300}}", "devices: []", "expect:",
            "  - &e {kind: enter, region: cafe, count: 1}",
        ]
        return (lines + Array(repeating: "  - *e", count: count)).joined(separator: "\n") + "\n"
    }

    /// YAML anchors nesting ten deep, ten wide: 10¹⁰ nodes if every alias were expanded.
    static func yamlLaughs() -> String {
        var lines = ["name: laughs", "x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for i in 1...9 {
            lines.append("x\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines += ["regions:", "  - {id: cafe, polygon: {type: MultiPolygon, coordinates: *a9}}", "devices: []"]
        return lines.joined(separator: "\n") + "\n"
    }
}
