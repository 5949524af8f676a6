import Documents
import FileSystem
import GPX
import Geodesy
import Geofencing
import ReadableText
import Time

extension ScenarioLoader {
    /// `devices:`, which must be there unless the devices come from elsewhere (`readsDevices`), with the
    /// scenario's `recorded:` (their default, read between the list and its entries). GPX files are read
    /// ahead from the load's start (`ScenarioDraft.tracks`); a fix table or a `tracks:` pattern gives many devices, a track entry one.
    /// Each id is the device's once. O(the devices' fixes).
    func readDevices(_ d: inout ScenarioDraft, _ key: String) {
        let diagnostics = d.diagnostics
        let before = diagnostics.errors.count
        let list = readsDevices ? d.top.required(key, "a list of devices")?.list("a list of devices") ?? [] : []
        let recordedByDefault = d.top["recorded"].map { $0.boolean(Self.recordedWhat) ?? false } ?? false
        var ids: [String: PlacedNode] = [:]
        for entry in list {
            let found: [(Device, id: PlacedNode, pace: PlacedNode?)]
            if entry.mappingHasKey("fixes") {
                found = fixTableDevices(
                    entry, diagnostics: diagnostics, localZone: d.zone, tables: &d.fixTables,
                    recordedByDefault: recordedByDefault)
            } else if entry.mappingHasKey("tracks") {
                found = trackFolderDevices(
                    entry, diagnostics: diagnostics, zone: d.zone, recordedByDefault: recordedByDefault)
            } else {
                found =
                    device(
                        entry, diagnostics: diagnostics, preloaded: d.tracks, zone: d.zone,
                        recordedByDefault: recordedByDefault
                    ).map { [$0] } ?? []
            }
            for (device, idCursor, paceCursor) in found {
                if let first = ids[device.id] {
                    idCursor.fail(
                        "device id \"\(device.id)\" is already used by \(first.path) at \(first.place); a device's fixes come from one source"
                    )
                } else {
                    ids[device.id] = idCursor
                    d.devices.append(device)
                    d.deviceCursors.append((idCursor, paceCursor))
                }
            }
        }
        d.devicesComplete = readsDevices && diagnostics.errors.count == before
    }

    /// One `devices[i]` entry: its id, its track read from GPX and converted (SEMANTICS §1), and the
    /// cursors of its id and pace (the run-size checks name them).
    /// Times its GPX writes without a zone are read in `zone` when all of them are (else as UTC, with a
    /// warning saying so).
    func device(
        _ c: PlacedNode, diagnostics: ProblemLog, preloaded: PreloadedTracks = PreloadedTracks(),
        zone: LocalTimeZone? = nil, recordedByDefault: Bool = false
    ) -> (Device, id: PlacedNode, pace: PlacedNode?)? {
        guard
            let fields = c.mapping(
                "a device: {id, track: PATH, offset, pace, accuracy, recorded}",
                allowed: ["id", "track", "offset", "pace", "accuracy", "recorded"])
        else { return nil }
        let recorded = fields["recorded"].map { $0.boolean(Self.recordedWhat) ?? false } ?? recordedByDefault
        let accuracy = fields["accuracy"]?.distance(.nonNegative)
        let idCursor = fields.required("id", "the device's id, a non-empty string")
        let id = idCursor?.text("the device's id, a non-empty string")
        let offset = fields["offset"].map { $0.duration(.any) } ?? .zero
        let paceCursor = fields["pace"]
        let pace = paceCursor.map { $0.duration(.positive) } ?? .seconds(1)
        guard let trackCursor = fields.required("track", "the path of a GPX file, relative to the scenario"),
            let trackPath = trackCursor.text("the path of a GPX file, relative to the scenario")
        else { return nil }
        if trackPath.contains("*") {
            trackCursor.fail(
                "track: names one GPX file; for one device per file write the pattern as a tracks: entry "
                    + "(- tracks: \(trackPath), each device's id its file's name)")
            return nil
        }
        return trackDevice(
            TrackSource(written: trackPath, cursor: trackCursor), id: id, idCursor: idCursor, offset: offset,
            offsetCursor: fields["offset"], pace: pace, paceCursor: paceCursor, accuracy: accuracy,
            recorded: recorded, diagnostics: diagnostics, preloaded: preloaded, zone: zone)
    }

    /// Where a device's GPX file is named: the path as written (relative to the scenario's file) and the
    /// key that wrote it, where its problems are placed.
    struct TrackSource {
        var written: String
        var cursor: PlacedNode
    }

    /// A device whose fixes come from the GPX file `source` names (confined to the scenario's root,
    /// `ProblemLog.refusal`), converted as SEMANTICS §1 says; nil with its problems recorded. An id,
    /// offset or pace that could not be read (nil) still lets the track's own problems be reported.
    /// O(the track's points).
    func trackDevice(
        _ source: TrackSource, id: String?, idCursor: PlacedNode?, offset: TimeSpan?, offsetCursor: PlacedNode?,
        pace: TimeSpan?, paceCursor: PlacedNode?, accuracy: Meters?, recorded: Bool, diagnostics: ProblemLog,
        preloaded: PreloadedTracks, zone: LocalTimeZone?
    ) -> (Device, id: PlacedNode, pace: PlacedNode?)? {
        let trackPath = source.written, trackCursor = source.cursor
        let resolved = FileNames.resolve(trackPath, besideFile: trackCursor.file)
        if let refusal = diagnostics.refusal(reading: trackPath, resolved: resolved, naming: trackCursor.file) {
            trackCursor.fail("cannot read the track: \(refusal)")
            return nil
        }
        diagnostics.reads(ScenarioInput(kind: .track, written: trackPath, resolved: resolved))
        if let problem = FileCheck.problemReading(resolved) {
            trackCursor.fail("cannot read the track: \(problem)")
            return nil
        }
        let gpx: GPXTrack
        do {
            gpx = try preloaded.track(at: resolved) ?? trackLoader(resolved)
        } catch {
            trackCursor.fail("cannot read the track \(resolved): \(error)")
            return nil
        }
        guard let id, let idCursor, let offset, let pace else { return nil }
        for warning in gpx.warnings {
            diagnostics.warning(
                "\(resolved):\(warning.line): \(warning.message) (device \"\(id)\")",
                repeated: RepeatedWarning(what: warning.reason.plural, file: resolved, files: "tracks"))
        }
        let timedPoints = gpx.timing == .timed ? gpx.segments.reduce(0) { $0 + $1.count } : 0
        let local = zone != nil && gpx.zonelessTimes > 0 && gpx.zonelessTimes >= timedPoints
        if gpx.zonelessTimes > 0 && !local {
            trackCursor.warn(
                "\(gpx.zonelessTimes) of the track's times have no zone, so they are read as UTC; "
                    + (zone == nil
                        ? "give the scenario timezone: NAME (such as Europe/Madrid) if they are local times"
                        : "timezone: applies to a track whose times all have no zone, and some of this one's have one"))
        }
        switch gpx.timing {
        case .timed:
            if let paceCursor, pace != .seconds(1) {
                diagnostics.warning(
                    "\(paceCursor.place): \(paceCursor.path): pace has no effect on a timed track: \(resolved) gives every point a time (SEMANTICS §1)"
                )
            }
            var segments: [[Fix]] = []
            var unclear = zone.map(ClockChangeTimes.init(zone:))
            for segment in gpx.segments {
                var fixes: [Fix] = []
                for point in segment {
                    guard var time = point.time else {
                        trackCursor.fail("\(resolved):\(point.line):\(point.column): the point has no time in a timed track")
                        return nil
                    }
                    if local, let zone {
                        let reading = zone.reading(fromLocal: time.microsecondsSince1970)
                        if reading.change != nil {
                            unclear?.add(String(time.iso8601.dropLast()), reading: reading, at: (point.line, point.column))
                        }
                        time = reading.instant
                    }
                    guard let shifted = time.adding(offset) else {
                        let moved = offset == .zero ? "" : " plus the offset of \(offset) s"
                        (offset == .zero ? trackCursor : offsetCursor ?? trackCursor).fail(
                            "\(resolved):\(point.line): the point's time \(time)\(moved) is outside \(Timestamp.writableRangeText), the times an event log can show"
                        )
                        return nil
                    }
                    // Times in a gap read as its end may meet (SEMANTICS §1: of equal times the later is kept).
                    if fixes.last?.time == shifted { fixes.removeLast() }
                    fixes.append(Fix(point.coordinate, at: shifted))
                }
                segments.append(fixes)
            }
            for warning in unclear?.warnings(file: resolved, of: "track") ?? [] {
                diagnostics.warning(
                    warning + " (device \"\(id)\")",
                    repeated: RepeatedWarning(what: "warnings of times in a clock change", file: resolved, files: "tracks"))
            }
            return (Device(id: id, track: .timed(segments), accuracy: accuracy, recorded: recorded), idCursor, paceCursor)
        case .untimed:
            let segments = gpx.segments.map { $0.map { PacedPoint($0.coordinate, ordinal: $0.ordinal) } }
            return (
                Device(id: id, track: .paced(segments, pace: pace, offset: offset), accuracy: accuracy, recorded: recorded),
                idCursor, paceCursor
            )
        }
    }
}

extension GPXWarning.Reason {
    /// What many such warnings are, for `WarningDigest`: `duplicate-time points dropped`.
    var plural: String {
        switch self {
        case .duplicateTime: return "duplicate-time points dropped"
        case .timeWentBack: return "points dropped for a time earlier than the point before"
        case .coordinateOutOfRange: return "points dropped for a coordinate out of range"
        }
    }
}
