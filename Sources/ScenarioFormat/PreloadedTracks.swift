import Dispatch
import FileSystem
import Foundation
import GPX

/// The GPX tracks of a batch of `devices:` entries, read in parallel (one thread per core) before the
/// entries are checked one by one in order: what a fleet of GPX files costs to load is then its slowest
/// files spread over the cores, not their sum. Memory: one batch of parsed tracks at a time.
///
/// Nothing is reported here: a track that cannot be read keeps its error, and `device(_:)` (which checks
/// the path first, as before) reports the problem at its place. The reader refuses what is not a regular
/// file without blocking on it.
struct PreloadedTracks {
    /// Entries read ahead at a time.
    static let batch = 64

    private var tracks: [String: Result<GPXTrack, any Error>] = [:]

    init() {}

    /// Reads the GPX files named by `track:` in `entries` (paths resolved beside each entry's file).
    init(entries: some Collection<PlacedNode>, loader: @escaping ScenarioLoader.TrackLoader) {
        let paths = entries.compactMap { entry -> String? in
            guard !entry.mappingHasKey("fixes"), let text = entry.entry("track")?.scalarText else { return nil }
            return FileNames.resolve(text, besideFile: entry.file)
        }
        let unique = Array(Set(paths))
        guard unique.count > 1 else { return }
        let results = ResultSlots(count: unique.count)
        DispatchQueue.concurrentPerform(iterations: unique.count) { i in
            results.store(i, Result { try loader(unique[i]) })
        }
        for (i, path) in unique.enumerated() { tracks[path] = results.take(i) }
    }

    /// The track read for `path`, or nil when it was not read ahead (read it then); rethrows its error.
    func track(at path: String) throws -> GPXTrack? { try tracks[path]?.get() }
}

/// One slot per parallel task, each written by its own task only.
private final class ResultSlots: @unchecked Sendable {
    // Safety: slot i is written once by task i during concurrentPerform, and read after it returns; the
    // buffer itself is never resized.
    private let slots: UnsafeMutableBufferPointer<Result<GPXTrack, any Error>?>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }
    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
    func store(_ i: Int, _ result: Result<GPXTrack, any Error>) { slots[i] = result }
    func take(_ i: Int) -> Result<GPXTrack, any Error>? { slots[i] }
}
