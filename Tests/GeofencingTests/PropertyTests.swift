import Testing
import Time

@testable import Geofencing

private let seeds: ClosedRange<UInt64> = 1...60

@Test("Output is in the total order of §7, and identical with 1 and 4 threads", arguments: seeds)
func orderAndThreads(seed: UInt64) throws {
    let simulation = RandomScenario.make(seed: seed)
    let one = EventLog(), four = EventLog()
    try simulation.run(into: one, options: RunOptions(threads: 1, windowTicks: 50))
    try simulation.run(into: four, options: RunOptions(threads: 4, windowTicks: 13))
    #expect(one.events == four.events, "seed \(seed): 1 and 4 threads differ")
    let sorted = zip(one.events, one.events.dropFirst()).allSatisfy { !GeofenceEvent.precedes($1, $0) }
    #expect(sorted, "seed \(seed): events out of order")
}

@Test("No exit without an inside state, no dwell before enter + D, never more than capacity monitored", arguments: seeds)
func stateInvariants(seed: UInt64) throws {
    let simulation = RandomScenario.make(seed: seed)
    let log = EventLog()
    try simulation.run(into: log)
    let capacity = simulation.settings.capacity ?? .max
    let durations = Dictionary(uniqueKeysWithValues: simulation.rules.map { ($0.name, $0.duration) })
    var monitored: [String: Set<String>] = [:]
    var inside: [String: Timestamp?] = [:]  // key "device/region": nil = unannounced inside
    for e in log.events {
        let key = e.device + "/" + e.region
        switch e.kind {
        case .monitorStart:
            monitored[e.device, default: []].insert(e.region)
            #expect(monitored[e.device]!.count <= capacity, "seed \(seed): over capacity at \(e.time)")
            if e.distance <= 0 { inside[key] = .some(nil) } else { inside[key] = nil }
        case .monitorStop:
            monitored[e.device]?.remove(e.region)
            inside[key] = nil
        case .enter:
            #expect(inside[key] == nil || inside[key]! == nil, "seed \(seed): enter while inside an announced stay")
            inside[key] = .some(e.time)
        case .exit:
            #expect(inside[key] != nil, "seed \(seed): exit of \(key) at \(e.time) without an inside state")
            inside[key] = nil
        case .dwell:
            let began = inside[key].flatMap { $0 }
            #expect(began != nil, "seed \(seed): dwell outside an announced stay")
            if let began {
                #expect(e.duration == e.time - began, "seed \(seed): dwell duration")
                #expect(e.duration! >= durations[e.rule!]!, "seed \(seed): dwell before enter + D")
            }
        case .visit:
            #expect(e.arrival != nil && e.departure == e.time, "seed \(seed): visit fields")
        case .monitorFailed:
            #expect(simulation.settings.selection == .static, "seed \(seed): failed under nearest")
        }
    }
}

/// The random scenarios give every kind of event, so that the invariants above meet each.
@Test("Every kind of event occurs in the random scenarios")
func everyKindOccurs() throws {
    let seen = try seeds.reduce(into: Set<GeofenceEvent.Kind>()) { seen, seed in
        let log = EventLog()
        try RandomScenario.make(seed: seed).run(into: log)
        seen.formUnion(log.events.map(\.kind))
    }
    #expect(seen == Set(GeofenceEvent.Kind.allCases), "every kind occurs: \(seen)")
}

@Test("ideal: enter and exit exactly where the sign of d changes between samples", arguments: seeds)
func idealMatchesSignChanges(seed: UInt64) throws {
    var simulation = RandomScenario.make(seed: seed, profile: .ideal)
    simulation.regions = simulation.regions.map {
        var r = $0; r.overrides.hysteresis = nil; return r
    }
    let log = EventLog()
    try simulation.run(into: log)
    var expected: [String] = []
    let start = simulation.clockStart
    for device in simulation.devices {
        var stream = SampleStream(
            segments: device.track.fixes(start: start), start: start, tick: simulation.tick,
            noise: simulation.noise, deviceID: device.id)
        var previous: [Bool]?
        while let sample = stream.next() {
            let now = simulation.regions.map { $0.signedDistance(to: sample.coordinate) <= 0 }
            for (i, isInside) in now.enumerated() where previous != nil && previous![i] != isInside {
                expected.append("\(sample.time) \(device.id) \(isInside ? "enter" : "exit") \(simulation.regions[i].id)")
            }
            previous = now
        }
    }
    let actual = log.events.filter { $0.kind == .enter || $0.kind == .exit }
        .map { "\($0.time) \($0.device) \($0.kind) \($0.region)" }
    #expect(actual.sorted() == expected.sorted(), "seed \(seed)")
}

@Test("The same noise seed gives the same events; another seed moves the samples")
func noiseIsSeeded() throws {
    let fixes = Walk.line(from: 0, speed: 3, seconds: 300)
    func run(_ seed: UInt64) throws -> [GeofenceEvent] {
        let log = EventLog()
        try Simulation(
            regions: [Walk.circle("r", at: 450, radius: 100)], devices: [Device(id: "d", track: .timed([fixes]))],
            noise: Noise(sigma: 30, seed: seed)
        ).run(into: log)
        return log.events
    }
    #expect(try run(7) == run(7))
    #expect(try run(7).map(\.coordinate) != run(8).map(\.coordinate))
    var a = SampleStream(
        segments: [fixes], start: Walk.base, tick: .seconds(1), noise: Noise(sigma: 10, seed: 1), deviceID: "d")
    var offsets: [Double] = []
    while let s = a.next() { offsets.append((s.coordinate.latitude) * Walk.metersPerDegree) }
    let mean = offsets.reduce(0, +) / Double(offsets.count)
    let sd = (offsets.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(offsets.count)).squareRoot()
    #expect(abs(mean) < 2.5 && sd > 8 && sd < 12, "north offsets: mean \(mean), sd \(sd) for σ = 10")
}

/// The random scenarios of the quiet-window test: seeds 1 to 150 at latitudes up to 60°, and 1 to 30 where
/// the plane's stretch grows (70° to 85°): there the windows close and every sample is evaluated.
private let quietCases: [(seed: UInt64, latitudes: ClosedRange<Double>)] =
    (UInt64(1)...150).map { ($0, -60.0...60.0) } + (UInt64(1)...30).map { ($0, 70.0...85.0) }

@Test(
    "Skipping quiet regions changes nothing: the same events as evaluating every region at every sample",
    arguments: quietCases)
func quietWindowsAreExact(seed: UInt64, latitudes: ClosedRange<Double>) throws {
    let simulation = RandomScenario.make(seed: seed, latitudes: latitudes)
    var plainOptions = RunOptions(threads: 1)
    plainOptions.skipsQuietRegions = false
    let fast = EventLog(), plain = EventLog()
    let fastSummary = try simulation.run(into: fast, options: RunOptions(threads: 1))
    try simulation.run(into: plain, options: plainOptions)
    #expect(fast.events == plain.events, "seed \(seed) at latitudes \(latitudes): the quiet windows changed the events")
    #expect(fastSummary.samples > 0)
}

/// The quiet-window test compares something: most of its scenarios have events.
@Test("Most random scenarios of the quiet-window test have events")
func quietCasesHaveEvents() throws {
    let withEvents = try quietCases.filter { seed, latitudes in
        let log = EventLog()
        try RandomScenario.make(seed: seed, latitudes: latitudes).run(into: log, options: RunOptions(threads: 1))
        return !log.events.isEmpty
    }
    #expect(withEvents.count > 100, "the random scenarios have events to compare")
}
