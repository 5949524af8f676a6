// libFuzzer target: the engine on random regions and tracks. The bytes are decoded into a few circles and
// polygons, dwell rules, monitor settings and one or two short tracks; Simulation.run(into: EventLog())
// must not crash, its sample count must be the one Simulation.sampleCounts() predicts, and its events
// must keep the invariants below, else the target traps:
//   - events are in the total order of SEMANTICS §7 (GeofenceEvent.precedes never says a later one goes first);
//   - per device and region: monitor-start only when not monitored, monitor-stop only when monitored, enter
//     only from an outside state, exit only from an inside state (no exit without a prior inside state),
//     visit only right after an exit that ended an announced stay, dwell only during an announced stay and at
//     most once per rule per stay (§4, §5, §6);
//   - the same simulation gives the same events with 1 thread and small windows as with 2 threads (§7).
import Foundation
import FuzzSupport
import Geodesy
import Geofencing
import Time

struct Bytes {
    var data: UnsafeBufferPointer<UInt8>
    var at = 0
    var isEmpty: Bool { at >= data.count }
    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < data.count ? data[at] : 0
    }
    mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }
    /// A value in [-1, 1].
    mutating func unit() -> Double { Double(Int(u16()) - 32768) / 32768 }
}

/// Places near which the regions and tracks lie: an ordinary city, the antimeridian, near a pole, the equator.
let bases = [
    Coordinate(latitude: 37.703, longitude: -121.76), Coordinate(latitude: -16.5, longitude: 179.995),
    Coordinate(latitude: 89.99, longitude: 10), Coordinate(latitude: 0, longitude: 0),
]

/// The built-in profiles without misses: a missed enter (revision 3) makes an exit without its enter right,
/// which a state machine read from the events alone cannot tell from a bug (the engine's own invariants,
/// PERIMETER_INVARIANTS, run those profiles in CI). Delays are kept: the states follow `detectedAt`.
let profiles = Profile.builtIns.filter { $0.settings.missEnter == 0 && $0.settings.missExit == 0 }

func decode(_ b: inout Bytes) -> Simulation? {
    let header = b.byte()
    let base = bases[Int(header & 3)]
    let profile = profiles[Int(header >> 2) % profiles.count]
    let scale = [0.0005, 0.003, 0.02][Int(header >> 4) % 3]  // degrees: tens of metres to a few kilometres
    func position(_ b: inout Bytes) -> Coordinate {
        var lon = base.longitude + b.unit() * scale
        if lon >= 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        return Coordinate(latitude: min(90, max(-90, base.latitude + b.unit() * scale)), longitude: lon)
    }

    var overrides = MonitorOverrides()
    let flags = b.byte()
    if flags & 1 != 0 {
        let c = Int(b.byte() % 5)
        overrides.capacity = c == 0 ? .some(nil) : .some(c)  // unlimited, or 1 to 4 regions
    }
    if flags & 2 != 0 { overrides.selection = b.byte() & 1 == 0 ? .nearest : .static }
    if flags & 4 != 0 { overrides.initialTrigger = b.byte() & 1 == 0 ? InitialTrigger.none : .enter }
    if flags & 8 != 0 { overrides.hysteresis = Double(b.byte()) * 2 }
    if flags & 16 != 0 { overrides.confirmation = .seconds(Int64(b.byte() % 40)) }
    if flags & 32 != 0 { overrides.enterBuffer = Double(b.byte() % 50) }
    if flags & 64 != 0 { overrides.refreshDistance = Double(b.u16() % 2000) }

    var regions: [Region] = []
    let regionCount = 1 + Int(b.byte() % 6)
    for i in 0..<regionCount {
        let kind = b.byte()
        let shape: Shape
        if kind & 1 == 0 {
            let radius = 1 + Double(b.u16()) * scale * 2  // up to ~2.6 km at the largest scale
            guard let circle = try? Circle(center: position(&b), radius: radius) else { return nil }
            shape = .circle(circle)
        } else {
            let vertexCount = 3 + Int(b.byte() % 5)
            var ring = (0..<vertexCount).map { _ in position(&b) }
            ring.append(ring[0])
            var rings = [ring]
            if kind & 2 != 0 {  // a second ring: a hole, or an overlapping ring (even-odd rule)
                var hole = (0..<3).map { _ in position(&b) }
                hole.append(hole[0])
                rings.append(hole)
            }
            guard let polygon = try? Polygon(rings: rings), let multi = try? MultiPolygon([polygon]) else { return nil }
            shape = .polygon(multi)
        }
        var region = Region(id: "r\(i)", shape: shape)
        if kind & 4 != 0 { region.overrides.hysteresis = Double(b.byte()) }
        if kind & 8 != 0 { region.overrides.confirmation = .seconds(Int64(b.byte() % 30)) }
        if kind & 16 != 0 { region.overrides.enterBuffer = Double(b.byte() % 30) }
        regions.append(region)
    }

    var rules: [DwellRule] = []
    for i in 0..<Int(b.byte() % 3) {
        let covered = b.byte()
        let ids = regions.indices.filter { covered & (1 << $0) != 0 }.map { regions[$0].id }
        rules.append(
            DwellRule(
                name: "rule\(i)", duration: .seconds(Int64(b.byte() % 60)),
                regions: covered & 0x80 != 0 ? nil : ids))
    }

    var devices: [Device] = []
    let start = Timestamp(microsecondsSince1970: 1_452_427_200_000_000)
    for d in 0..<(1 + Int(b.byte() % 2)) {
        let timed = b.byte() & 1 == 0
        var segments: [[Fix]] = []
        var paced: [[PacedPoint]] = []
        var time = start + TimeSpan(microseconds: Int64(b.u16()) * 1000)
        var ordinal = 0
        for _ in 0..<(1 + Int(b.byte() % 3)) {
            var fixes: [Fix] = []
            var points: [PacedPoint] = []
            for _ in 0..<(1 + Int(b.byte() % 24)) {
                let step = b.byte()
                // Mostly forward by up to 63 s with sub-second parts; sometimes equal or earlier times.
                let micros = Int64(step & 0x3f) * 1_000_000 + Int64(step >> 6) * 250_000 - (step == 0xff ? 5_000_000 : 0)
                time = time + TimeSpan(microseconds: micros)
                let p = position(&b)
                fixes.append(Fix(p, at: time))
                points.append(PacedPoint(p, ordinal: ordinal))
                ordinal += 1
            }
            segments.append(fixes)
            paced.append(points)
        }
        let track: Track = timed ? .timed(segments) : .paced(paced, pace: .seconds(1 + Int64(b.byte() % 3)))
        devices.append(Device(id: d == 0 ? "phone" : "car", track: track))
    }
    let tickChoice = b.byte()
    let tick: TimeSpan = tickChoice & 0x80 != 0 ? TimeSpan(microseconds: 250_000) : .seconds(1 + Int64(tickChoice % 5))
    let noiseByte = b.byte()
    let noise = noiseByte & 1 != 0 ? Noise(sigma: Double(noiseByte >> 1), seed: UInt64(b.u16())) : nil
    let explicitStart: Timestamp? = b.byte() & 1 != 0 ? start - TimeSpan(microseconds: 1_500_000) : nil
    return Simulation(
        regions: regions, rules: rules, profile: profile, overrides: overrides, devices: devices,
        start: explicitStart, tick: tick, noise: noise)
}

func check(_ events: [GeofenceEvent], _ simulation: Simulation) {
    for (a, b) in zip(events, events.dropFirst()) where GeofenceEvent.precedes(b, a) {
        fatalError("events out of SEMANTICS §7 order: \(b) after \(a)")
    }
    enum State {
        case unmonitored, outside
        case inside(announced: Bool, enteredAt: Timestamp?, dwelt: Set<String>)
    }
    struct Key: Hashable { var device: String; var region: String }
    var states: [Key: State] = [:]
    var lastExit: [Key: (time: Timestamp, announced: Bool)] = [:]
    var startedAt: [Key: Timestamp] = [:]  // the latest monitor-start, for the initial-trigger enter
    // The states follow the phone's decisions: with a delivery delay (revision 3) an enter, exit or dwell
    // reaches the app later than the monitor-* events decided after it, which are not delayed (SEMANTICS §5).
    let decided = events.enumerated().sorted {
        ($0.element.detectedAt ?? $0.element.time, $0.offset) < ($1.element.detectedAt ?? $1.element.time, $1.offset)
    }.map(\.element)
    for e in decided {
        let key = Key(device: e.device, region: e.region)
        let state = states[key] ?? .unmonitored
        switch (e.kind, state) {
        case (.monitorStart, .unmonitored):
            startedAt[key] = e.time
            states[key] = e.distance <= 0 ? .inside(announced: false, enteredAt: nil, dwelt: []) : .outside
        case (.monitorStart, _):
            fatalError("monitor-start of a region already monitored: \(e)")
        case (.monitorStop, .unmonitored):
            fatalError("monitor-stop of a region not monitored: \(e)")
        case (.monitorStop, _):
            states[key] = .unmonitored
        case (.monitorFailed, .unmonitored):
            break
        case (.monitorFailed, _):
            fatalError("monitor-failed for a monitored region: \(e)")
        case (.enter, .outside):
            states[key] = .inside(announced: true, enteredAt: e.time, dwelt: [])
        case (.enter, .inside(false, _, _)) where (e.detectedAt ?? e.time) == startedAt[key]:
            // initialTrigger: enter announces the initial inside state on the monitor-start sample (detected
            // there; a profile's delivery delay may hand it over later, SEMANTICS §5 revision 3).
            states[key] = .inside(announced: true, enteredAt: e.time, dwelt: [])
        case (.enter, _):
            fatalError("enter without an outside state: \(e) in state \(state)")
        case (.exit, .inside(let announced, _, _)):
            states[key] = .outside
            lastExit[key] = (e.time, announced)
        case (.exit, _):
            fatalError("exit without a prior inside state: \(e) in state \(state)")
        case (.visit, .outside):
            guard let exit = lastExit[key], exit.time == e.time, exit.announced else {
                fatalError("visit without an exit ending an announced stay: \(e)")
            }
            lastExit[key] = nil
        case (.visit, _):
            fatalError("visit outside of an exit: \(e) in state \(state)")
        case (.dwell, .inside(true, let enteredAt?, var dwelt)):
            guard let rule = e.rule, dwelt.insert(rule).inserted else { fatalError("dwell twice in one stay: \(e)") }
            if e.time < enteredAt { fatalError("dwell before its enter: \(e)") }
            states[key] = .inside(announced: true, enteredAt: enteredAt, dwelt: dwelt)
        case (.dwell, _):
            fatalError("dwell outside of an announced stay: \(e) in state \(state)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Bytes(data: UnsafeBufferPointer(start: data, count: size))
    guard let simulation = decode(&bytes) else { return 0 }
    let log = EventLog()
    let summary: RunSummary
    do {
        summary = try simulation.run(into: log, options: RunOptions(threads: 1, windowTicks: 7))
    } catch {
        fatalError("Simulation.run into an EventLog threw \(error)")
    }
    if !log.isFinished { fatalError("the run did not finish its sink") }
    // The count the loader's run-size limit relies on is the count a run makes.
    let counted = simulation.sampleCounts().reduce(0, +)
    if counted != Int64(summary.samples) {
        fatalError("sampleCounts() says \(counted) samples, the run made \(summary.samples)")
    }
    check(log.events, simulation)
    let parallel = EventLog()
    _ = try? simulation.run(into: parallel, options: RunOptions(threads: 2))
    if parallel.events != log.events {
        fatalError("2 threads gave \(parallel.events.count) events, 1 thread with small windows \(log.events.count)")
    }
    return 0
}

runLibFuzzer(fuzz)
