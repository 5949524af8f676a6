import Foundation
import GPX
import Testing

/// One conformance file and what loading it must give. Expectations come from
/// /work/shared/conformance/MANIFEST.md's GPX table, cross-checked with an independent expat-based
/// script (see Fixtures/conformance/README.md for the two places they disagree).
struct ConformanceCase: CustomTestStringConvertible, Sendable {
    enum Outcome: Sendable {
        /// kind, kept points, segments (empty trksegs included), timing, dropped (out of range, went back, duplicate).
        case track(PointKind, points: Int, segments: Int, GPXTrack.Timing, dropped: (Int, Int, Int))
        /// The error's line and a substring of its message.
        case error(line: Int, String)
    }
    var file: String
    var outcome: Outcome
    var testDescription: String { file }

    static func track(
        _ file: String, _ kind: PointKind, points: Int, segments: Int, _ timing: GPXTrack.Timing,
        dropped: (Int, Int, Int)
    ) -> ConformanceCase {
        ConformanceCase(file: file, outcome: .track(kind, points: points, segments: segments, timing, dropped: dropped))
    }
    static func error(_ file: String, line: Int, _ message: String) -> ConformanceCase {
        ConformanceCase(file: file, outcome: .error(line: line, message))
    }
}

@Suite("Conformance corpus")
struct ConformanceTests {
    static let cases: [ConformanceCase] = [
        .track("CoreGPX__GPXTest-DualLinks.gpx", .trackPoint, points: 2, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("CoreGPX__GPXTest-TrackPointOnly.gpx", .trackPoint, points: 4015, segments: 1, .timed, dropped: (0, 0, 127)),
        .track("CoreGPX__wptError.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (1, 0, 0)),
        .track(
            "OpenTracks__gpx11_with_speed_no_namespace.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("OpenTracks__gpx11_without_speed.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("OpenTracks__gpx_timezone.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("OpenTracks__legacy_gpx_pause_resume.gpx", .trackPoint, points: 4, segments: 1, .timed, dropped: (2, 0, 0)),
        .track(
            "OpenTracks__legacy_gpx_trackpointextensions_incorrect.gpx", .trackPoint, points: 5, segments: 3, .timed,
            dropped: (0, 0, 0)),
        .track("dougfales-gpx__arches.gpx", .trackPoint, points: 182, segments: 8, .timed, dropped: (0, 0, 0)),
        .track("dougfales-gpx__gpx10.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .error("dougfales-gpx__one_segment_mixed_times.gpx", line: 285, "has no <time>, but 4 of"),
        .track(
            "dougfales-gpx__one_segment_no_time.gpx", .trackPoint, points: 189, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("dougfales-gpx__routes.gpx", .routePoint, points: 4, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("dougfales-gpx__routes_without_names.gpx", .routePoint, points: 4, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("dougfales-gpx__tracks.gpx", .trackPoint, points: 411, segments: 45, .timed, dropped: (0, 1137, 1)),
        .error("dougfales-gpx__waypoints.gpx", line: 3, "has no <time>, but 1 of"),
        .track("dougfales-gpx__with_empty_tracks.gpx", .trackPoint, points: 14, segments: 3, .timed, dropped: (0, 0, 0)),
        .error("dougfales-gpx__with_or_without_elev.gpx", line: 25, "has no <time>, but 1 of"),
        .track("gdal__test.gpx", .trackPoint, points: 4, segments: 3, .untimed, dropped: (0, 0, 0)),
        .error("georust-gpx__badcharacter.xml", line: 1, "malformed XML"),
        .track("georust-gpx__caltopo-export.gpx", .trackPoint, points: 3, segments: 2, .timed, dropped: (0, 0, 3)),
        .track(
            "georust-gpx__ecology-trail-and-lovers-lane-loop.gpx", .routePoint, points: 139, segments: 1, .untimed,
            dropped: (0, 0, 0)),
        .track("georust-gpx__empty_name_tag.gpx", .trackPoint, points: 0, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("georust-gpx__garmin-activity.gpx", .trackPoint, points: 988, segments: 1, .timed, dropped: (0, 0, 0)),
        .track(
            "georust-gpx__garmin_with_extensions.gpx", .trackPoint, points: 3540, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("georust-gpx__gpsies_example.gpx", .trackPoint, points: 41, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("georust-gpx__mousehole_to_paul.gpx", .trackPoint, points: 111, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("georust-gpx__outdooractive-export.gpx", .trackPoint, points: 9, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("georust-gpx__strava_route_example.gpx", .trackPoint, points: 113, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track(
            "georust-gpx__viking_with_route_extensions.gpx", .trackPoint, points: 5, segments: 1, .untimed,
            dropped: (0, 0, 0)),
        .track("georust-gpx__wahoo_example.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("georust-gpx__wikipedia_example.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("georust-gpx__with_accuracy.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_hr.gpx", .trackPoint, points: 80, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_power_1.gpx", .trackPoint, points: 80, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_power_2.gpx", .trackPoint, points: 80, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_routes.gpx", .routePoint, points: 77, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_style.gpx", .trackPoint, points: 80, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_tracks_and_segments.gpx", .trackPoint, points: 79, segments: 4, .timed, dropped: (0, 0, 0)),
        .track("gpx.studio__with_waypoint.gpx", .trackPoint, points: 80, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxgo__Mojstrovka.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 183)),
        .track("gpxgo__file.gpx", .trackPoint, points: 4, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxgo__gpx-without-root-attributes.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxgo__gpx-without-xml-declaration.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxgo__gpx1.1_with_all_fields.gpx", .trackPoint, points: 1, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("gpxgo__gpx1.1_with_extensions.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .error("gpxgo__graphhopper.gpx", line: 29, "has no <time>, but 22 of"),
        .track("gpxgo__iso8859-1encoded.gpx", .waypoint, points: 8, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxgo__visnjan.gpx", .trackPoint, points: 413, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxjs__test.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 204)),
        .track("gpxpy__Mojstrovka.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 1, 182)),
        .track("gpxpy__around-visnjan-with-car.gpx", .trackPoint, points: 104, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__cerknicko-jezero-no-creator.gpx", .trackPoint, points: 296, segments: 8, .timed, dropped: (0, 0, 0)),
        .track(
            "gpxpy__cerknicko-jezero-with-elevations-zero.gpx", .trackPoint, points: 296, segments: 8, .timed,
            dropped: (0, 0, 0)),
        .error("gpxpy__cerknicko-jezero-without-elevations.gpx", line: 982, "has no <time>, but 295 of"),
        .track("gpxpy__cerknicko-jezero.gpx", .trackPoint, points: 296, segments: 8, .timed, dropped: (0, 0, 0)),
        .error("gpxpy__cerknicko-without-times.gpx", line: 67, "has no <time>, but 5 of"),
        .track("gpxpy__custom_schema_locations.gpx", .trackPoint, points: 0, segments: 0, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__default_schema_locations.gpx", .trackPoint, points: 0, segments: 0, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__first_and_last_elevation.gpx", .trackPoint, points: 9, segments: 1, .timed, dropped: (0, 1, 0)),
        .track("gpxpy__gpx-with-node-with-comments.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__gpx1.0_with_all_fields.gpx", .trackPoint, points: 1, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__gpx1.1_with_all_fields.gpx", .trackPoint, points: 1, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__gpx1.1_with_extensions.gpx", .waypoint, points: 1, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track(
            "gpxpy__gpx1.1_with_extensions_without_namespaces.gpx", .waypoint, points: 1, segments: 1, .untimed,
            dropped: (0, 0, 0)),
        .track("gpxpy__gpx_with_garmin_extension.gpx", .waypoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .error("gpxpy__korita-zbevnica.gpx", line: 33, "has no <time>, but 513 of"),
        .track("gpxpy__route.gpx", .routePoint, points: 55, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__track-with-empty-segment.gpx", .trackPoint, points: 9, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__track-with-extremes.gpx", .trackPoint, points: 25, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__track-with-less-sec-time.gpx", .trackPoint, points: 2, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__track-with-small-floats.gpx", .trackPoint, points: 3, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__track_with_dilution_errors.gpx", .trackPoint, points: 1, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__track_with_speed.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__unicode.gpx", .waypoint, points: 6, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__unicode2.gpx", .trackPoint, points: 0, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("gpxpy__unicode_with_bom.gpx", .waypoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("gpxpy__unicode_with_bom_noencoding.gpx", .waypoint, points: 1, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("organicmaps__color.gpx", .trackPoint, points: 4, segments: 2, .untimed, dropped: (0, 0, 0)),
        .track("organicmaps__go_map.gpx", .trackPoint, points: 124, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("organicmaps__osmand1.gpx", .trackPoint, points: 72, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("phpGPX__gps-track.gpx", .trackPoint, points: 5, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("phpGPX__route.gpx", .routePoint, points: 8, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("phpGPX__timezero.gpx", .trackPoint, points: 6, segments: 2, .timed, dropped: (0, 0, 0)),
        .track("phpGPX__waypoint_test.gpx", .waypoint, points: 4, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("togeojson__Friday-Evening-Run.gpx", .trackPoint, points: 17, segments: 3, .timed, dropped: (0, 0, 0)),
        .track("togeojson__apple_watch_route.gpx", .trackPoint, points: 44, segments: 1, .timed, dropped: (0, 0, 0)),
        .error("togeojson__bad.gpx", line: 5, #"lat="undefined", which is not a number"#),
        .track("togeojson__blue_hills.gpx", .trackPoint, points: 807, segments: 14, .timed, dropped: (0, 436, 0)),
        .track("togeojson__empty_ele.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 1)),
        .track("togeojson__empty_trk.gpx", .trackPoint, points: 0, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__garmin_extensions.gpx", .trackPoint, points: 4, segments: 3, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__gdal.gpx", .trackPoint, points: 4, segments: 3, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__missing_hr.gpx", .trackPoint, points: 16, segments: 3, .timed, dropped: (0, 0, 0)),
        .track("togeojson__multitrackgpx.gpx", .trackPoint, points: 117, segments: 3, .timed, dropped: (0, 0, 0)),
        .track("togeojson__north_core.gpx", .trackPoint, points: 34, segments: 15, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__opencpn.gpx", .routePoint, points: 16, segments: 1, .timed, dropped: (0, 0, 0)),
        .error("togeojson__osm.gpx", line: 544, "has no <time>, but 175 of"),
        .track("togeojson__run.gpx", .trackPoint, points: 205, segments: 1, .timed, dropped: (0, 0, 1)),
        .track("togeojson__run_gpxtpx.gpx", .trackPoint, points: 42, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("togeojson__strava.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("togeojson__style.gpx", .trackPoint, points: 362, segments: 21, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__trek.gpx", .routePoint, points: 120, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__trek_no_rtept.gpx", .trackPoint, points: 0, segments: 0, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__unique_trkpt.gpx", .trackPoint, points: 1, segments: 1, .timed, dropped: (0, 0, 0)),
        .track("togeojson__wpt.gpx", .waypoint, points: 40, segments: 1, .untimed, dropped: (0, 0, 0)),
        .track("togeojson__zero_elevation.gpx", .trackPoint, points: 3, segments: 1, .timed, dropped: (0, 0, 0)),
    ]

    @Test("every conformance file loads as expected", arguments: cases)
    func load(_ c: ConformanceCase) throws {
        let result = loadResult(Fixtures.conformance(c.file))
        switch (c.outcome, result) {
        case let (.track(kind, points, segments, timing, dropped), .success(track)):
            #expect(track.kind == kind)
            #expect(track.segments.reduce(0) { $0 + $1.count } == points)
            #expect(track.segments.count == segments)
            #expect(track.timing == timing)
            let count = { (reason: GPXWarning.Reason) in track.warnings.filter { $0.reason == reason }.count }
            #expect(count(.coordinateOutOfRange) == dropped.0)
            #expect(count(.timeWentBack) == dropped.1)
            #expect(count(.duplicateTime) == dropped.2)
            #expect(track.file == Fixtures.conformance(c.file))
        case let (.error(line, message), .failure(error)):
            #expect(error.line == line)
            #expect(error.column > 0)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.file == Fixtures.conformance(c.file))
        case (.track, .failure(let error)):
            Issue.record("expected a track, got \(error)")
        case (.error, .success(let track)):
            Issue.record("expected an error, got \(track.segments.reduce(0) { $0 + $1.count }) points")
        }
    }

    @Test("the table covers every file of the corpus")
    func coversEveryFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/conformance")
            .filter { $0.hasSuffix(".gpx") || $0.hasSuffix(".xml") }
        #expect(Set(names) == Set(Self.cases.map(\.file)))
        #expect(names.count == 107)
    }

    @Test("kept points stay in document order, with ordinals counted before drops")
    func ordinalsBeforeDrops() throws {
        let track = try GPXTrack.load(path: Fixtures.conformance("OpenTracks__legacy_gpx_pause_resume.gpx"))
        let ordinals = track.segments.flatMap { $0 }.map(\.ordinal)
        #expect(ordinals == [0, 1, 2, 5])
        #expect(track.warnings.map(\.line) == [42, 46])
    }

    @Test("undeclared namespace prefixes are recovered from: the points are read")
    func namespaceErrorsRecovered() throws {
        let track = try GPXTrack.load(path: Fixtures.conformance("gpxjs__test.gpx"))
        #expect(track.segments[0].count == 1)
        #expect(track.warnings.count == 204)
        #expect(track.segments[0][0].ordinal == 204)
    }

    @Test("ISO-8859-1, BOM and CR-only files are decoded")
    func encodings() throws {
        let latin = try GPXTrack.load(path: Fixtures.conformance("gpxgo__iso8859-1encoded.gpx"))
        #expect(latin.kind == .waypoint)
        #expect(latin.segments[0].count == 8)
        let bom = try GPXTrack.load(path: Fixtures.conformance("gpxpy__unicode_with_bom.gpx"))
        #expect(bom.segments[0][0].time?.iso8601 == "2016-05-27T10:08:47.800Z")
    }

    @Test("a <time> inside <extensions> or in a foreign namespace is not the point's time")
    func extensionTimesIgnored() throws {
        let style = try GPXTrack.load(path: Fixtures.conformance("togeojson__style.gpx"))
        #expect(style.timing == .untimed)
    }
}
