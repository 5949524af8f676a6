import Dispatch
import Foundation
import Time

/// One device's moving parts during a run.
struct DeviceLane: Sendable {
    var stream: SampleStream
    var monitor: DeviceMonitor
    /// Which samples the device observes (SEMANTICS §2: its grid, its phase, its stationary slow-down).
    var observation = Observation()
    var dropped: Int
    var samples = 0
    /// The events of the window being simulated, appended by the monitor.
    var events: [GeofenceEvent] = []
    /// Delayed events (SEMANTICS §7 "Delivery") whose delivered time is at or past the limit of the window
    /// that decided them: held until a window's limit passes them.
    var held: [GeofenceEvent] = []
}

/// The devices of a run, advanced window by window, each lane by one thread at a time.
///
/// The lanes, and each lane's events of the window before, live apart in memory this object owns: while
/// the other threads advance the lanes, the calling thread sends the events set aside.
final class DeviceLanes: @unchecked Sendable {
    // Safety: during `advance`, lane i is touched only by the thread that took its chunk, and `aside` only
    // by the calling thread; outside it, both only by the calling thread.
    let lanes: UnsafeMutableBufferPointer<DeviceLane>
    /// `aside[i]`: lane i's events of the window before, to be sent while the next one is simulated.
    private let aside: UnsafeMutableBufferPointer<[GeofenceEvent]>

    init(_ lanes: [DeviceLane]) {
        self.lanes = .allocate(capacity: lanes.count)
        _ = self.lanes.initialize(from: lanes)
        aside = .allocate(capacity: lanes.count)
        aside.initialize(repeating: [])
    }

    deinit {
        lanes.deinitialize().deallocate()
        aside.deinitialize().deallocate()
    }

    /// Advances every lane to just before tick `limit` on `threads` threads. The calling thread first
    /// does `meanwhile` (sends the events set aside), then takes lanes too; what `meanwhile` throws is
    /// rethrown once every lane has reached `limit`.
    ///
    /// Lanes are taken in contiguous chunks, several per thread, so that slow devices even out and the
    /// calling thread finds work left when it joins.
    func advance(before limit: Int64, world: World, threads: Int, meanwhile: () throws -> Void) throws {
        let count = lanes.count
        let workers = min(threads, count)
        if workers <= 1 {
            try meanwhile()
            for i in 0..<count { Self.advance(&lanes[i], before: limit, world: world) }
            return
        }
        let chunks = ChunkQueue(count: count, chunks: min(count, workers * 8))
        @Sendable func work() {
            while let range = chunks.take() {
                for i in range { Self.advance(&self.lanes[i], before: limit, world: world) }
            }
        }
        let helpers = DispatchGroup()
        for _ in 1..<workers { DispatchQueue.global().async(group: helpers, execute: work) }
        var failure: (any Error)?
        do { try meanwhile() } catch { failure = error }
        work()
        helpers.wait()
        if let failure { throw failure }
    }

    private static func advance(_ lane: inout DeviceLane, before limit: Int64, world: World) {
        guard lane.observation.stationary == nil, !lane.monitor.delivers else {
            return advanceWithPhone(&lane, before: limit, world: world)
        }
        while let sample = lane.stream.next(before: limit) {
            lane.samples += 1
            guard lane.observation.isOnGrid(sample.tickIndex) else { continue }  // noise still ran over it
            lane.monitor.observe(sample, in: world, into: &lane.events)
        }
    }

    /// `advance` with a stationary slow-down or delivery delays (SEMANTICS §2, §7, revision 3). Apart: the
    /// loop without them stays revision 2's.
    @inline(never)
    private static func advanceWithPhone(_ lane: inout DeviceLane, before limit: Int64, world: World) {
        while let sample = lane.stream.next(before: limit) {
            lane.samples += 1
            guard lane.observation.observes(sample, exact: lane.stream.exactCoordinate) else { continue }
            let first = lane.events.count
            lane.monitor.observe(sample, in: world, into: &lane.events)
            if lane.monitor.delivers, lane.events.count > first {
                lane.monitor.deliver(&lane.events, from: first, tickIndex: sample.tickIndex)
            }
        }
    }

    /// The earliest tick at which some lane has a sample left, or nil when every track is over.
    func upcomingTick() -> Int64? {
        var earliest: Int64?
        for i in lanes.indices {
            if let k = lanes[i].stream.upcomingTick() { earliest = min(earliest ?? k, k) }
        }
        return earliest
    }

    /// Each lane's place in the UTF-8 order of the device ids (lanes with the same id share one), for
    /// `sendEventsSetAside(ranks:to:counting:)`. O(n log n) in the lanes, once a run.
    func deviceRanks() -> [Int32] {
        let order = lanes.indices.sorted {
            lanes[$0].monitor.deviceID.utf8.lexicographicallyPrecedes(lanes[$1].monitor.deviceID.utf8)
        }
        var ranks = [Int32](repeating: 0, count: lanes.count)
        var rank: Int32 = 0
        for (position, lane) in order.enumerated() {
            if position > 0, lanes[order[position - 1]].monitor.deviceID != lanes[lane].monitor.deviceID { rank += 1 }
            ranks[lane] = rank
        }
        return ranks
    }

    /// Sets every lane's events of the window just simulated aside (those set aside before must have been
    /// sent), leaving the lanes' `events` empty for the next window. Swaps arrays: nothing is copied.
    ///
    /// With delayed events (`delays`), only those whose time is before `limit` (the window's limit) are set
    /// aside, the others held for a later window: every event a later window decides is at or after this
    /// limit, so the events sent stay in the order of SEMANTICS §7. A nil `limit` sets everything aside.
    func setEventsAside(delays: Bool = false, before limit: Timestamp? = nil) {
        for i in lanes.indices {
            swap(&lanes[i].events, &aside[i])
            guard delays, !lanes[i].held.isEmpty else { continue }
            // The held events first: the lane's events stay in decision order, which breaks the ties of
            // §7's order (one device's events of one kind and region delivered at the same time).
            aside[i].insert(contentsOf: lanes[i].held, at: 0)
            lanes[i].held.removeAll(keepingCapacity: true)
        }
        guard delays, let limit else { return }
        for i in lanes.indices where !aside[i].isEmpty {
            lanes[i].held = aside[i].filter { $0.time >= limit }
            aside[i].removeAll { $0.time >= limit }
        }
    }

    /// Sends every lane's events set aside to `sink` in the order of SEMANTICS §7 (`GeofenceEvent.precedes`,
    /// ties in lane order), counting them by kind in `sent`, then empties them. Sorts compact keys (time,
    /// device rank, decision time, kind, region, rule, place) rather than the events: no string comparison, and each event
    /// is sent from its lane where it lies, never copied. O(e log e) in the window's events.
    func sendEventsSetAside(ranks: [Int32], to sink: EventSink, counting sent: inout [Int]) throws {
        var keys:
            [(time: Int64, device: Int32, decided: Int64, kind: Int32, region: Int32, rule: Int32, lane: Int32, at: Int32)] =
                []
        keys.reserveCapacity(aside.reduce(0) { $0 + $1.count })
        for i in aside.indices where !aside[i].isEmpty {
            // Read in place: iterating the events would copy each one (and count references on its strings).
            aside[i].withUnsafeBufferPointer { events in
                for at in events.indices {
                    keys.append(
                        (
                            events[at].time.microsecondsSince1970, ranks[i],
                            (events[at].detectedAt ?? events[at].time).microsecondsSince1970,
                            Int32(events[at].kind.rawValue),
                            Int32(events[at].regionIndex), Int32(events[at].ruleIndex), Int32(i), Int32(at)
                        ))
                }
            }
        }
        guard !keys.isEmpty else { return }
        keys.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.device != b.device { return a.device < b.device }
            if a.decided != b.decided { return a.decided < b.decided }
            if a.kind != b.kind { return a.kind < b.kind }
            if a.region != b.region { return a.region < b.region }
            if a.rule != b.rule { return a.rule < b.rule }
            if a.lane != b.lane { return a.lane < b.lane }
            return a.at < b.at
        }
        for key in keys {
            try aside[Int(key.lane)].withUnsafeBufferPointer { events in
                try sink.send(events[Int(key.at)])
            }
            sent[Int(key.kind)] += 1
        }
        for i in aside.indices { aside[i].removeAll(keepingCapacity: true) }
    }
}

/// Chunks of `0..<count` handed out in order, one at a time, to whichever thread asks. O(1) a chunk.
private final class ChunkQueue: @unchecked Sendable {
    // Safety: `next` is read and written only under `lock`.
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private let chunks: Int

    init(count: Int, chunks: Int) {
        self.count = count
        self.chunks = max(1, chunks)
    }

    /// The next chunk's lanes, or nil when all have been taken.
    func take() -> Range<Int>? {
        lock.lock()
        let chunk = next
        next += 1
        lock.unlock()
        guard chunk < chunks else { return nil }
        return chunk * count / chunks..<(chunk + 1) * count / chunks
    }
}
