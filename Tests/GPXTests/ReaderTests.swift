import Foundation
import GPX
import Geodesy
import Testing

@Suite("GPXReader")
struct ReaderTests {
    /// All items of `text`, read through a `GPXReader`.
    func items(_ text: String) throws -> [GPXItem] {
        let reader = try GPXReader(path: temporaryFile(text))
        var out: [GPXItem] = []
        while let item = try reader.next() { out.append(item) }
        return out
    }

    @Test("segment starts and points come in document order, with places and ordinals")
    func itemsInOrder() throws {
        let found = try items(
            gpx(
                """
                <wpt lat="5" lon="6"><ele>12.5</ele></wpt>
                <trk><trkseg>
                  <trkpt lon="2" lat="1"><time>2024-01-01T00:00:00Z</time></trkpt>
                </trkseg></trk>
                """))
        #expect(found.count == 3)
        guard found.count == 3, case .point(.waypoint, let w) = found[0],
            case .segmentStart(.trackPoint, let line) = found[1],
            case .point(.trackPoint, let t) = found[2]
        else { Issue.record("\(found)"); return }
        #expect(w.coordinate == Coordinate(latitude: 5, longitude: 6))
        #expect(w.elevation == 12.5)
        #expect(w.time == nil)
        #expect((w.line, w.column, w.ordinal) == (3, 1, 0))
        #expect(line == 4)
        #expect((t.line, t.column, t.ordinal) == (5, 3, 0))
        #expect(t.coordinate == Coordinate(latitude: 1, longitude: 2))
    }

    @Test("a multi-line start tag is placed at its '<'")
    func multiLineStartTag() throws {
        let found = try items(gpx("<wpt\n  lat=\"1\"\n  lon=\"2\"/>"))
        guard case .point(_, let p) = found.first else { Issue.record("\(found)"); return }
        #expect((p.line, p.column) == (3, 1))
    }

    @Test("trkpts directly in a trk form one segment per trk")
    func looseTrackPoints() throws {
        let track = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <trk><trkpt lat="1" lon="1"/><trkpt lat="1" lon="2"/></trk>
                    <trk><trkpt lat="2" lon="1"/></trk>
                    <trk><trkseg><trkpt lat="3" lon="1"/></trkseg><trkseg/></trk>
                    """)))
        #expect(track.segments.map(\.count) == [2, 1, 1, 0])
        #expect(track.segments.flatMap { $0 }.map(\.ordinal) == [0, 1, 2, 3])
    }

    @Test("trkpt wins over rtept and wpt; rtepts of several routes form one segment")
    func kindPriority() throws {
        let both = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <wpt lat="0" lon="0"/><rte><rtept lat="1" lon="1"/></rte><trk><trkseg><trkpt lat="2" lon="2"/></trkseg></trk>
                    """)))
        #expect(both.kind == .trackPoint)
        #expect(both.segments.flatMap { $0 }.map(\.coordinate.latitude) == [2])
        let routes = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <wpt lat="0" lon="0"/>
                    <rte><rtept lat="1" lon="1"/></rte><rte><rtept lat="2" lon="2"/><rtept lat="3" lon="3"/></rte>
                    <trk><trkseg/></trk>
                    """)))
        #expect(routes.kind == .routePoint)
        #expect(routes.segments.map(\.count) == [3])
    }

    @Test("<time> and <ele> of metadata, trk, extensions or foreign namespaces are not the point's")
    func foreignTimes() throws {
        let track = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <metadata><time>2020-01-01T00:00:00Z</time></metadata>
                    <trk><time>2020-01-01T00:00:00Z</time><trkseg>
                    <trkpt lat="1" lon="2">
                      <extensions><time>2030-01-01T00:00:00Z</time><ele>999</ele></extensions>
                      <x:time xmlns:x="urn:other">2031-01-01T00:00:00Z</x:time>
                      <name><time>2032-01-01T00:00:00Z</time></name>
                    </trkpt>
                    </trkseg></trk>
                    """)))
        #expect(track.timing == .untimed)
        #expect(track.segments[0][0].elevation == nil)
    }

    @Test("GPX 1.0, 1.1 and no namespace are read alike")
    func namespaces() throws {
        for ns in [
            "", " xmlns=\"http://www.topografix.com/GPX/1/0\"", " xmlns=\"http://www.topografix.com/GPX/1/1\"",
            " xmlns=\"urn:typo\"",
        ] {
            let path = temporaryFile("<gpx\(ns)><wpt lat=\"1\" lon=\"2\"><ele>3</ele></wpt></gpx>")
            let track = try GPXTrack.load(path: path)
            #expect(track.segments[0].map(\.elevation) == [3], "\(ns)")
        }
    }

    @Test(
        "out-of-range coordinates, a decimal too large for a Double among them, are dropped with a warning naming their line"
    )
    func outOfRange() throws {
        let track = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <wpt lat="90" lon="-180"/>
                    <wpt lat="90.0001" lon="0"/>
                    <wpt lat="0" lon="180.5"/>
                    <wpt lat="1e999" lon="0"/>
                    """)))
        #expect(track.segments[0].count == 1)
        #expect(track.warnings.map(\.reason) == Array(repeating: .coordinateOutOfRange, count: 3))
        #expect(track.warnings.map(\.line) == [4, 5, 6])
    }

    @Test("times going back are dropped against the last kept point, across segments; of equal times the later is kept")
    func ordering() throws {
        let track = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <trk><trkseg>
                    <trkpt lat="0" lon="0"><time>2024-01-01T00:00:10Z</time></trkpt>
                    <trkpt lat="0" lon="1"><time>2024-01-01T00:00:05Z</time></trkpt>
                    <trkpt lat="0" lon="2"><time>2024-01-01T00:00:20Z</time></trkpt>
                    </trkseg><trkseg>
                    <trkpt lat="0" lon="3"><time>2024-01-01T00:00:20Z</time></trkpt>
                    <trkpt lat="0" lon="4"><time>2024-01-01T00:00:15Z</time></trkpt>
                    <trkpt lat="0" lon="5"><time>2024-01-01T00:00:30Z</time></trkpt>
                    </trkseg></trk>
                    """)))
        #expect(track.segments.map { $0.map(\.coordinate.longitude) } == [[0], [3, 5]])
        #expect(track.warnings.map(\.reason) == [.timeWentBack, .duplicateTime, .timeWentBack])
        #expect(track.warnings.map(\.line) == [5, 6, 9])
        #expect(track.warnings[1].message.contains("line 8"))
    }

    @Test("an error is thrown again on every later call")
    func stickyError() throws {
        let reader = try GPXReader(path: Fixtures.hostile("mismatched-tags.gpx"))
        var first: GPXError?
        do { while try reader.next() != nil {} } catch { first = error }
        #expect(first != nil)
        #expect(throws: first!) { try reader.next() }
    }
}
