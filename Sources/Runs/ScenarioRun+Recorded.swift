import Geodesy
import Geofencing
import ReadableText

extension ScenarioRun {
    /// Unmarked devices looked at for `unmarkedRecordingWarning`, and fixes of each segment: enough to meet
    /// a stop, a bounded cost for a fleet.
    static let recordedCheckDevices = 10
    static let recordedCheckFixes = 2_000

    /// A warning when devices not marked `recorded` look recorded on a phone (SEMANTICS §9: their fixes
    /// scatter where they stop), for the commands that compare the phones with `ideal` on the tracks as
    /// exact paths (compare, outcomes, report, run --runs), where each flicker of that scatter across a
    /// boundary would count as a true crossing; nil otherwise. Looks at the first `recordedCheckDevices`
    /// unmarked devices with timed tracks, `recordedCheckFixes` fixes of each segment: O(those fixes × w).
    public var unmarkedRecordingWarning: String? {
        let start = simulation.clockStart
        let unmarked = simulation.devices.lazy.filter {
            guard !$0.recorded, case .timed = $0.track else { return false }
            return true
        }.prefix(Self.recordedCheckDevices)
        var looking: [(id: String, jitter: Meters)] = []
        for device in unmarked {
            guard
                let jitter = RecordedTrackRules.standard.jitter(
                    of: device.track.fixes(start: start), limit: Self.recordedCheckFixes),
                jitter > RecordedTrackRules.recordedJitter
            else { continue }
            looking.append((device.id, jitter))
        }
        guard let first = looking.first else { return nil }
        let who =
            looking.count > 1
            ? "devices \"\(first.id)\" and \(looking.count - 1) more look" : "device \"\(first.id)\" looks"
        return "\(scenario.file): \(who) recorded on a phone (the fixes scatter by \(Readable.distance(first.jitter)) "
            + "where \(looking.count > 1 ? "they stop" : "it stops")), yet not marked recorded: the phones are measured "
            + "against ideal on the fixes as if they were the exact path, so each flicker of that scatter across a "
            + "boundary counts as a true crossing. If they were recorded on phones, add recorded: true to the device, "
            + "its fix table or the scenario (SEMANTICS §9)"
    }
}
