import Testing
import Time

@testable import Geofencing

private let seeds: ClosedRange<UInt64> = 1...60

@Test("Output is in the total order of §7, and identical with 1 and 4 threads")
func orderAndThreads() throws {
    try withEverySeed(seeds) { seed in
        let simulation = RandomScenario.make(seed: seed)
        let one = EventLog(), four = EventLog()
        try simulation.run(into: one, options: RunOptions(threads: 1, windowTicks: 50))
        try simulation.run(into: four, options: RunOptions(threads: 4, windowTicks: 13))
        #expect(one.events == four.events, "seed \(seed): 1 and 4 threads differ")
        let sorted = zip(one.events, one.events.dropFirst()).allSatisfy { !GeofenceEvent.precedes($1, $0) }
        #expect(sorted, "seed \(seed): events out of order")
    }
}

@Test("No exit without an inside state, no dwell before enter + D, never more than capacity monitored")
func stateInvariants() throws {
    var seen: [GeofenceEvent.Kind: Int] = [:]
    defer { #expect(GeofenceEvent.Kind.allCases.allSatisfy { seen[$0, default: 0] > 0 }, "every kind occurs: \(seen)") }
    try withEverySeed(seeds) { seed in
        let simulation = RandomScenario.make(seed: seed)
        let log = EventLog()
        try simulation.run(into: log)
        let capacity = simulation.settings.capacity ?? .max
        let durations = Dictionary(uniqueKeysWithValues: simulation.rules.map { ($0.name, $0.duration) })
        var monitored: [String: Set<String>] = [:]
        var inside: [String: Timestamp?] = [:]  // key "device/region": nil = unannounced inside
        for e in log.events {
            seen[e.kind, default: 0] += 1
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
}

@Test("ideal: enter and exit exactly where the sign of d changes between samples")
func idealMatchesSignChanges() throws {
    try withEverySeed(seeds) { seed in
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

@Test("Skipping quiet regions changes nothing: the same events as evaluating every region at every sample")
func quietWindowsAreExact() throws {
    var compared = 0
    // Where the plane's stretch grows (up to 85°) too: there the windows close and every sample is evaluated.
    for (range, latitudes) in [(UInt64(1)...150, -60.0...60.0), (UInt64(1)...30, 70.0...85.0)] {
        try withEverySeed(range) { seed in
            let simulation = RandomScenario.make(seed: seed, latitudes: latitudes)
            var plainOptions = RunOptions(threads: 1)
            plainOptions.skipsQuietRegions = false
            let fast = EventLog(), plain = EventLog()
            let fastSummary = try simulation.run(into: fast, options: RunOptions(threads: 1))
            try simulation.run(into: plain, options: plainOptions)
            #expect(
                fast.events == plain.events, "seed \(seed) at latitudes \(latitudes): the quiet windows changed the events")
            #expect(fastSummary.samples > 0)
            compared += fast.events.isEmpty ? 0 : 1
        }
    }
    #expect(compared > 100, "the random scenarios have events to compare")
}
