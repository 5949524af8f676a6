import Draws
import Time

/// A device's draws for its monitor's reports (SEMANTICS §5 "Misses" and §7 "Delivery", revision 3): whether
/// a confirmed enter or exit is never reported, and how late the app hears each enter, exit and dwell.
/// The stream names' keys are hashed once a device; a draw is a few mixes, only where a crossing or a dwell
/// happened. Nothing allocated.
struct ReportDraws: Sendable {
    enum Transition { case enter, exit }

    /// mix(key_D ⊕ fnv1a(W)) of the streams `miss-enter`, `miss-exit`, `delay-enter`, `delay-exit`, `delay-dwell`.
    private let enterMisses, exitMisses, delayEnter, delayExit, delayDwell: UInt64
    let delivery: Delivery?
    /// The device's last delivered time: an app hears one device's events in the order the phone decided.
    private var lastDelivered = Timestamp(microsecondsSince1970: .min)

    init(deviceKey: UInt64, delivery: Delivery?) {
        func key(_ name: String) -> UInt64 { DrawStream.nameKey(deviceKey: deviceKey, name: name) }
        enterMisses = key("miss-enter")
        exitMisses = key("miss-exit")
        delayEnter = key("delay-enter")
        delayExit = key("delay-exit")
        delayDwell = key("delay-dwell")
        self.delivery = delivery
    }

    /// Whether the phone never reports the `transition` confirmed in `region` at the sample of tick `k`:
    /// u_1 of draw k of stream `miss-enter` or `miss-exit` (r = the region index) ≤ `probability`. No draw
    /// when the probability is 0 (u_1 > 0).
    @inline(__always)
    func misses(_ transition: Transition, region: Int, tickIndex k: Int64, probability: Double) -> Bool {
        guard probability > 0 else { return false }
        let name = transition == .enter ? enterMisses : exitMisses
        return DrawStream(nameKey: name, r: UInt64(region)).u(k) <= probability
    }

    /// Delays the events that one sample (tick `k`) appended to `events` from `first` on (SEMANTICS §7): in
    /// the order kind, region, rule, each enter, exit and dwell gets `time = max(t_d + δ, the last delivered
    /// time)` and `detectedAt = t_d`; a visit goes with its exit; `monitor-*` events stay. O(e log e) in the
    /// sample's events.
    mutating func deliver(_ events: inout [GeofenceEvent], from first: Int, tickIndex k: Int64) {
        guard let delivery, first < events.count else { return }
        events[first...].sort { a, b in
            (a.kind.rawValue, a.regionIndex, a.ruleIndex) < (b.kind.rawValue, b.regionIndex, b.ruleIndex)
        }
        for i in first..<events.count {
            let stream: DrawStream
            let region = UInt64(events[i].regionIndex)
            switch events[i].kind {
            case .enter: stream = DrawStream(nameKey: delayEnter, r: region)
            case .exit: stream = DrawStream(nameKey: delayExit, r: region)
            case .dwell: stream = DrawStream(nameKey: delayDwell, r: region &+ (UInt64(events[i].ruleIndex + 1) << 32))
            case .visit:
                if let exit = events[first..<i].firstIndex(where: {
                    $0.kind == .exit && $0.regionIndex == events[i].regionIndex
                }) {
                    events[i].detectedAt = events[exit].detectedAt
                    events[i].time = events[exit].time
                }
                continue
            case .monitorStop, .monitorFailed, .monitorStart: continue
            }
            var draw = stream.draw(k)
            let decided = events[i].time
            let delivered = max(decided + delivery.delay(z: draw.standardNormal()), lastDelivered)
            lastDelivered = delivered
            events[i].detectedAt = decided
            events[i].time = delivered
        }
    }
}
