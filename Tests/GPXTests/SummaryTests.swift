import Foundation
import GPX
import Geodesy
import Testing
import Time

@Suite("TrackSummary")
struct SummaryTests {
    let track: GPXTrack

    init() throws {
        track = try GPXTrack.load(
            path: temporaryFile(
                gpx(
                    """
                    <trk><trkseg>
                    <trkpt lat="0" lon="0"><time>2024-01-01T00:00:00Z</time></trkpt>
                    <trkpt lat="0" lon="0.001"><time>2024-01-01T00:00:10Z</time></trkpt>
                    <trkpt lat="0" lon="0.002"><time>2024-01-01T00:00:15Z</time></trkpt>
                    <trkpt lat="95" lon="0"><time>2024-01-01T00:00:16Z</time></trkpt>
                    </trkseg><trkseg>
                    <trkpt lat="0.001" lon="0.002"><time>2024-01-01T00:02:15Z</time></trkpt>
                    </trkseg></trk>
                    """)))
    }

    @Test("counts, span, length, speeds, gaps, drops and bounds")
    func figures() throws {
        let s = TrackSummary(track)
        let step = Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 0.001))
        #expect(s.points == 4)
        #expect(s.segments == 2)
        #expect(s.kind == .trackPoint)
        #expect(s.timing == .timed)
        #expect(s.duration == .seconds(135))
        #expect(abs(s.length - 2 * step) < 1e-9)  // the segment break is not walked
        #expect(abs(try #require(s.averageSpeed) - 2 * step / 15) < 1e-9)
        #expect(abs(try #require(s.maximumSpeed) - step / 5) < 1e-9)
        #expect(s.gaps.count == 1)
        #expect(s.gaps.first?.duration == .seconds(120))
        #expect(s.gaps.first?.betweenSegments == true)
        #expect(s.gaps.first?.line == 9)
        #expect(s.dropped == [.coordinateOutOfRange: 1])
        #expect(s.bounds == BoundingBox(minLatitude: 0, maxLatitude: 0.001, minLongitude: 0, maxLongitude: 0.002))
    }

    @Test("Smoothing: a clean straight walk keeps its length; standing still with GPS scatter adds almost nothing")
    func smoothing() throws {
        func points(_ offsets: [(north: Double, east: Double)]) -> [TrackPoint] {
            offsets.enumerated().map { i, o in
                TrackPoint(
                    coordinate: Coordinate(latitude: 52.5, longitude: 13.4).offset(northMeters: o.north, eastMeters: o.east),
                    time: Timestamp(microsecondsSince1970: 1_700_000_000_000_000 + Int64(i) * 1_000_000), elevation: nil,
                    ordinal: i, line: i + 1, column: 1)
            }
        }
        // 300 m east at 1.5 m/s, no error: the smoothed length is the raw one but for the median's reach at each
        // end (the first and last 7 points: 2 × 3.5 × 1.5 m).
        let straight = TrackSummary(
            GPXTrack(
                file: "s", kind: .trackPoint, timing: .timed,
                segments: [points((0...200).map { (0, Double($0) * 1.5) })], warnings: []))
        #expect(abs(straight.smoothedLength - (straight.length - 10.5)) < 0.5, "\(straight.smoothedLength)")
        #expect(!straight.noiseInflatesLength && !straight.noiseInflatesSpeed)
        // Standing still for 5 minutes, the fixes jumping 12 m back and forth every second.
        let still = TrackSummary(
            GPXTrack(
                file: "t", kind: .trackPoint, timing: .timed,
                segments: [points((0..<300).map { ($0 % 2 == 0 ? 12 : -12, 0) })], warnings: []))
        #expect(abs(still.length - 299 * 24) < 1)
        #expect(still.smoothedLength < 25 && still.noiseInflatesLength && still.noiseInflatesSpeed)
    }

    @Test("JSON has stable sorted keys and parses back")
    func json() throws {
        let text = TrackSummary(track).json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["points"] as? Int == 4)
        #expect(object["start"] as? String == "2024-01-01T00:00:00.000Z")
        #expect(object["dropped"] as? [String: Int] == ["coordinate-out-of-range": 1])
        let keys = [
            "averageSpeed", "bounds", "dropped", "duration", "end", "file", "gaps", "kind", "length",
            "maximumSpeed", "noiseInflatesLength", "noiseInflatesSpeed", "points", "segments", "smoothedLength",
            "smoothedMaximumSpeed", "start", "timing",
        ]
        #expect(Set(object.keys) == Set(keys))
        let positions = keys.map { text.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test("the text rendering names what a person looks for")
    func text() {
        let text = TrackSummary(track).text
        #expect(text.contains("4 <trkpt> in 2 segments"))
        #expect(text.contains("2024-01-01T00:00:00.000Z – 2024-01-01T00:02:15.000Z (0:02:15)"))
        #expect(text.contains("1 over 60 s"))
        #expect(text.contains("1 coordinate-out-of-range"))
    }

    @Test("an untimed or empty track has no span or speeds")
    func untimed() throws {
        let empty = TrackSummary(try GPXTrack.load(path: Fixtures.conformance("togeojson__empty_trk.gpx")))
        #expect(empty.points == 0 && empty.bounds == nil && empty.start == nil && empty.averageSpeed == nil)
        let paced = TrackSummary(try GPXTrack.load(path: Fixtures.conformance("gpxpy__route.gpx")))
        #expect(paced.timing == .untimed && paced.points == 55 && paced.duration == nil && paced.length > 0)
        #expect(paced.text.contains("paced"))
    }
}
