import Documents
import Geodesy
import Geofencing
import ReadableText

extension ScenarioLoader {
    /// Unmarked devices looked at for `warnAboutUnmarkedRecordings`, and fixes of each: enough to meet a
    /// stop, a bounded cost for a fleet.
    static let recordedCheckDevices = 10
    static let recordedCheckFixes = 2_000

    /// One warning when devices not marked `recorded` look recorded on a phone (SEMANTICS §9): their fixes
    /// scatter while they stop, and the truth (`ideal` on the tracks as exact paths) would count each
    /// flicker across a boundary as a crossing. Looks at the first `recordedCheckDevices` unmarked devices
    /// with timed tracks, `recordedCheckFixes` fixes of each: O(those fixes × w).
    func warnAboutUnmarkedRecordings(_ simulation: Simulation, at place: PlacedNode) {
        let start = simulation.clockStart
        let unmarked = simulation.devices.lazy.filter {
            guard !$0.recorded, case .timed = $0.track else { return false }
            return true
        }.prefix(Self.recordedCheckDevices)
        var looking: [(id: String, jitter: Meters)] = []
        for device in unmarked {
            let segments = device.track.fixes(start: start)
            guard
                let jitter = RecordedTrackRules.standard.jitter(of: segments, limit: Self.recordedCheckFixes),
                jitter > RecordedTrackRules.recordedJitter
            else { continue }
            looking.append((device.id, jitter))
        }
        guard let first = looking.first else { return }
        let who =
            looking.count > 1
            ? "devices \"\(first.id)\" and \(looking.count - 1) more look" : "device \"\(first.id)\" looks"
        place.warn(
            "\(who) recorded on a phone (the fixes scatter by \(Readable.distance(first.jitter)) "
                + "where \(looking.count > 1 ? "they stop" : "it stops")), yet not marked recorded: compare, report and Monte Carlo measure the phones against "
                + "ideal on the fixes as if they were the exact path, so each flicker of that scatter across a boundary counts "
                + "as a true crossing. Add recorded: true to the device, its fix table or the scenario (SEMANTICS §9)")
    }
}
