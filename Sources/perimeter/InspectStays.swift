import FixTables
import GPX
import Geodesy
import Geofencing
import ReadableText
import TextEscaping
import Time

/// `perimeter inspect --stays`: where each track stopped and how much its fixes scatter there (SEMANTICS §9),
/// for a GPX track or each device of a fix table: the stays the truth of a recorded device holds still, the
/// jitter, and whether the track looks recorded on a phone. O(fixes × w) per track.
enum InspectStays {
    /// The text and JSON (one object per file) of the stays of the file at `path`.
    static func summary(of path: String, columns: FixTableColumns) throws -> (text: String, json: String) {
        var tracks: [(device: String?, segments: [[Fix]])] = []
        if let format = FixTableFormat(extensionOf: path) {
            let table = try FixTableReader(path: path, format: format, columns: columns).read()
            for (index, device) in table.devices.enumerated() {
                let fixes = table.fixes(ofDevice: index).map {
                    Fix(Coordinate(latitude: $0.latitude, longitude: $0.longitude), at: $0.time)
                }
                tracks.append((device, [fixes]))
            }
        } else {
            let gpx = try GPXTrack.load(path: path)
            let segments = gpx.segments.map { segment in
                segment.compactMap { point in point.time.map { Fix(point.coordinate, at: $0) } }
            }
            tracks.append((nil, Device(id: path, track: .timed(segments)).track.fixes(start: .epoch)))
        }
        var lines = [path], objects: [[(String, String?)]] = []
        let rules = RecordedTrackRules.standard
        for (device, segments) in tracks {
            let stays = segments.flatMap { rules.stays(in: $0) }
            let jitter = rules.jitter(of: segments)
            let looksRecorded = (jitter ?? 0) > RecordedTrackRules.recordedJitter
            let name = device.map { "device \($0): " } ?? ""
            let scatter =
                jitter.map {
                    "jitter \(Readable.distance($0)) (the median scatter of fixes about where it stopped)"
                        + (looksRecorded ? ": looks recorded on a phone (recorded: true)" : ": looks exact")
                } ?? "no stop to measure its jitter"
            lines.append("\(name)\(stays.count) stays; \(scatter)")
            for stay in stays {
                lines.append(
                    "  \(stay.arrival.iso8601) to \(stay.departure.iso8601) (\((stay.departure - stay.arrival).readable)) "
                        + "at \(stay.coordinate.latitude), \(stay.coordinate.longitude) (\(stay.near) fixes)")
            }
            let list = stays.map {
                JSONText.object([
                    "arrival": JSONText.string($0.arrival.iso8601), "departure": JSONText.string($0.departure.iso8601),
                    "fixes": JSONText.integer($0.near), "lat": JSONText.number($0.coordinate.latitude),
                    "lon": JSONText.number($0.coordinate.longitude),
                ])
            }
            objects.append([
                ("device", device.map(JSONText.string)), ("jitter", JSONText.number(jitter)),
                ("looksRecorded", JSONText.bool(looksRecorded)), ("stays", JSONText.array(list)),
            ])
        }
        // One GPX track's members stand beside the file's; a table's devices are listed.
        let file: (String, String?) = ("file", JSONText.string(path))
        let json =
            tracks.count == 1 && tracks[0].device == nil
            ? JSONText.object([file] + objects[0])
            : JSONText.object([file, ("devices", JSONText.array(objects.map { JSONText.object($0) }))])
        return (TerminalText.lines(lines), json)
    }
}
