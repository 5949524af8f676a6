import Documents
import Foundation
import GPX
import Geodesy
import ScenarioFormat
import Time

/// The folder of the copied fixtures.
let fixtures: String = {
    guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
        fatalError("The Fixtures resource folder is missing from the test bundle.")
    }
    return url.path
}()

func fixture(_ name: String) -> String { fixtures + "/" + name }

func time(_ text: String) -> Timestamp {
    guard let t = Timestamp(iso8601: text) else { fatalError("bad test time \(text)") }
    return t
}

/// GPX tracks built in code, standing in for the GPX reader (the test seam of `ScenarioLoader`).
let fakeTracks: ScenarioLoader.TrackLoader = { path in
    func point(_ lat: Double, _ lon: Double, _ t: String?, _ ordinal: Int, line: Int) -> TrackPoint {
        TrackPoint(
            coordinate: Coordinate(latitude: lat, longitude: lon), time: t.map(time), elevation: nil,
            ordinal: ordinal, line: line, column: 5)
    }
    switch (path as NSString).lastPathComponent {
    case "walk.gpx":
        return GPXTrack(
            file: path, kind: .trackPoint, timing: .timed,
            segments: [
                [
                    point(37.7000, -121.7600, "2016-01-10T12:00:00Z", 0, line: 4),
                    point(37.7030, -121.7597, "2016-01-10T12:01:00.250Z", 1, line: 5),
                ]
            ], warnings: [])
    case "untimed.gpx":
        return GPXTrack(
            file: path, kind: .waypoint, timing: .untimed,
            segments: [
                [
                    point(37.7000, -121.7600, nil, 0, line: 3),
                    point(37.7010, -121.7590, nil, 1, line: 4),
                    point(37.7020, -121.7580, nil, 2, line: 5),
                ]
            ],
            warnings: [
                GPXWarning(
                    reason: .coordinateOutOfRange, line: 6, message: "latitude 91 is out of range; the point is dropped")
            ])
    default:
        throw GPXError(file: path, line: 0, column: 0, message: "no fake track for this file")
    }
}

/// Loads a fixture with the fake tracks, returning its errors (empty when it loaded).
func errors(loading name: String) -> [ScenarioError] {
    do {
        _ = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture(name))
        return []
    } catch {
        return error.errors
    }
}
