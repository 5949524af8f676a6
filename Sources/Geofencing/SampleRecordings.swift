import Foundation
import Geodesy

/// A device's whole sample stream of one run (SEMANTICS §2: positions after the noise and outliers, their
/// accuracies), recorded once so that runs whose streams are the same replay it instead of drawing it again.
/// `exact[i]` is sample i's position before the noise and outliers, kept only when a stationary slow-down
/// reads it (else empty). 40 bytes a sample (56 with `exact`).
struct RecordedSamples: Sendable {
    var samples: [Sample] = []
    var exact: [Coordinate] = []

    /// The bytes `samples` samples take, with their exact positions when `exact`.
    static func bytes(samples: Int, exact: Bool) -> Int {
        samples * (MemoryLayout<Sample>.stride + (exact ? MemoryLayout<Coordinate>.stride : 0))
    }

    /// The bytes it holds.
    var bytes: Int {
        Self.bytes(samples: samples.capacity, exact: false) + exact.capacity * MemoryLayout<Coordinate>.stride
    }
}

/// What a device's sample stream depends on besides its track, the clock and its id (SEMANTICS §2): the
/// noise (its seed is the run's), the monitor's accuracy, its outliers, and whether the exact positions
/// are kept. Two runs of one simulation with equal keys have equal streams, whatever their monitors.
struct SampleStreamKey: Hashable, Sendable {
    var noise: Noise?
    var accuracy: Meters
    var outliers: Outliers?
    var tracksExact: Bool

    init(_ settings: MonitorSettings, noise: Noise?) {
        self.noise = noise
        accuracy = settings.accuracy
        outliers = settings.outliers
        tracksExact = settings.stationary != nil
    }
}

/// Sample streams recorded by the first run that draws them and replayed by every later run of a copy of
/// the simulation with the same `SampleStreamKey` (`Simulation.recordsSamples(budget:)`): calibrate's
/// candidates differ only in the monitor, so each of its Monte Carlo runs draws its noise, outliers and
/// positions once, not once per candidate (common random numbers, byte-identical events). Shared on any
/// thread; holds at most `budget` bytes of samples in all, and a stream that does not fit is simply not recorded
/// (its runs draw it as usual). `Simulation` replaces it when its devices, start or tick change.
///
/// An `NSLock`, not `Synchronization.Mutex`, for ThreadSanitizer's sake (as `WorldGeometryCache`).
final class SampleRecordings: @unchecked Sendable {
    /// The most bytes of samples held, over every stream.
    let budget: Int
    private let lock = NSLock()
    private var held = 0  // guarded by `lock`: bytes recorded or reserved
    private var recorded: [Key: RecordedSamples] = [:]  // guarded by `lock`

    private struct Key: Hashable {
        var stream: SampleStreamKey
        var device: Int
    }

    init(budget: Int) { self.budget = budget }

    /// The streams recorded so far.
    var streams: Int {
        lock.lock()
        defer { lock.unlock() }
        return recorded.count
    }

    /// Device `device`'s recorded stream under `key`: recorded by `record` on the first call (outside the
    /// lock) when `bound` bytes (at least what it records) still fit in the budget, else nil (the caller
    /// draws the stream).
    /// O(1) after the first call; the first is `record`'s cost.
    func samples(
        _ key: SampleStreamKey, device: Int, bound: Int, record: () -> RecordedSamples
    ) -> RecordedSamples? {
        let key = Key(stream: key, device: device)
        lock.lock()
        if let known = recorded[key] {
            lock.unlock()
            return known
        }
        guard held + bound <= budget else {
            lock.unlock()
            return nil
        }
        held += bound
        lock.unlock()
        let made = record()
        lock.lock()
        defer { lock.unlock() }
        held -= bound
        if let known = recorded[key] { return known }  // another thread recorded the same stream meanwhile
        held += made.bytes
        recorded[key] = made
        return made
    }
}
