import Documents
import FileSystem
import Foundation
import GPX
import Parallel

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
    /// A track the scenario may not read (`ProblemLog.refusal`) is not read ahead.
    init(entries: some Collection<PlacedNode>, loader: @escaping ScenarioLoader.TrackLoader, diagnostics: ProblemLog) {
        let paths = entries.compactMap { entry -> String? in
            guard !entry.mappingHasKey("fixes"), let text = entry.entry("track")?.scalarText else { return nil }
            let resolved = FileNames.resolve(text, besideFile: entry.file)
            return diagnostics.refusal(reading: text, resolved: resolved, naming: entry.file) == nil ? resolved : nil
        }
        self.init(paths: paths, loader: loader)
    }

    /// Reads the GPX files at `paths` (resolved), in parallel; nothing when there is one or none.
    init(paths: [String], loader: @escaping ScenarioLoader.TrackLoader) {
        let unique = Array(Set(paths))
        guard unique.count > 1 else { return }
        let results = concurrentMap(unique.count) { i in Result { try loader(unique[i]) } }
        for (path, result) in zip(unique, results) { tracks[path] = result }
    }

    /// The track read for `path`, or nil when it was not read ahead (read it then); rethrows its error.
    func track(at path: String) throws -> GPXTrack? { try tracks[path]?.get() }
}
