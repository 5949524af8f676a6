import Documents
import FileSystem
import Foundation
import GPX

/// The GPX tracks named by `devices:` entries, read ahead in order on the loader's other threads while the
/// loader goes on (the regions, then the entries one by one): what a fleet of GPX files costs to load is
/// then its files spread over the threads, overlapped with the scenario's serial reading, not their sum.
/// The loader's own thread reads the track it asks for when no other thread has started it, so one thread
/// (`threads` 1) reads them in order as they are asked for. Memory: at most `lookAhead` tracks read ahead of
/// the last one asked for, and each track is dropped once handed out.
///
/// Nothing is reported here: a track that cannot be read keeps its error, and `device(_:)` (which checks
/// the path first, as before) reports the problem at its place. The reader refuses what is not a regular
/// file without blocking on it.
struct PreloadedTracks {
    /// Tracks read ahead of the last one asked for, at most.
    static let lookAhead = 64

    /// Stops the reads ahead when the loader is done with them (the readers hold `reads`, not this).
    private final class Owner: Sendable {
        let reads: TracksReadAhead
        init(_ reads: TracksReadAhead) { self.reads = reads }
        deinit { reads.cancel() }
    }
    private let owner: Owner?

    init() { owner = nil }

    /// Reads the GPX files named by `track:` in `entries` (paths resolved beside each entry's file).
    /// A track the scenario may not read (`ProblemLog.refusal`) is not read ahead.
    init(
        entries: some Collection<PlacedNode>, loader: @escaping ScenarioLoader.TrackLoader, threads: Int,
        diagnostics: ProblemLog
    ) {
        let paths = entries.compactMap { entry -> String? in
            guard !entry.mappingHasKey("fixes"), let text = entry.entry("track")?.scalarText else { return nil }
            let resolved = FileNames.resolve(text, besideFile: entry.file)
            return diagnostics.refusal(reading: text, resolved: resolved, naming: entry.file) == nil ? resolved : nil
        }
        self.init(paths: paths, loader: loader, threads: threads)
    }

    /// Starts reading the GPX files at `paths` (resolved) in order on `threads` − 1 other threads; nothing
    /// is read ahead when there is one file or none.
    init(paths: [String], loader: @escaping ScenarioLoader.TrackLoader, threads: Int) {
        var seen: Set<String> = []
        let unique = paths.filter { seen.insert($0).inserted }
        guard unique.count > 1 else {
            owner = nil
            return
        }
        let reads = TracksReadAhead(paths: unique, loader: loader, lookAhead: Self.lookAhead)
        for _ in 1..<max(1, min(threads, unique.count)) { DispatchQueue.global().async { reads.help() } }
        owner = Owner(reads)
    }

    /// The track read for `path`, or nil when it is not read ahead or was handed out before (read it
    /// then); rethrows its error. Waits for it, or reads it here when no other thread has started it.
    func track(at path: String) throws -> GPXTrack? { try owner?.reads.take(path)?.get() }
}

/// The reads behind `PreloadedTracks`: the paths in order, each read once by whichever thread starts it.
final class TracksReadAhead: @unchecked Sendable {
    // Safety: every field that changes is read and written only with `condition` locked; `paths`, `places`,
    // `loader` and `lookAhead` never change.
    private enum Slot {
        case waiting
        case read(Result<GPXTrack, any Error>)
        case handedOut
    }
    private let condition = NSCondition()
    private let paths: [String]
    private let places: [String: Int]
    private let loader: ScenarioLoader.TrackLoader
    private let lookAhead: Int
    private var slots: [Slot]
    /// The next path to start reading.
    private var started = 0
    /// Reads may start below this index: the last one asked for plus `lookAhead`.
    private var limit: Int
    private var cancelled = false

    init(paths: [String], loader: @escaping ScenarioLoader.TrackLoader, lookAhead: Int) {
        self.paths = paths
        places = Dictionary(paths.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        self.loader = loader
        self.lookAhead = lookAhead
        slots = Array(repeating: .waiting, count: paths.count)
        limit = lookAhead
    }

    /// A reading thread's loop: the next path while it is within the look-ahead, until all are started or
    /// the loader is done.
    func help() {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !cancelled && started < paths.count && started >= limit { condition.wait() }
            guard !cancelled, started < paths.count else { return }
            readNext()
        }
    }

    /// The read of `path`, reading it here (and those before it no thread has started) when no thread has
    /// started it, else reading the next ones here until it is read; nil when it is not among the paths or
    /// was handed out before.
    func take(_ path: String) -> Result<GPXTrack, any Error>? {
        guard let place = places[path] else { return nil }
        condition.lock()
        defer { condition.unlock() }
        limit = max(limit, place + 1 + lookAhead)
        condition.broadcast()
        while true {
            switch slots[place] {
            case let .read(result):
                slots[place] = .handedOut
                return result
            case .handedOut:
                return nil
            case .waiting:
                // While another thread reads it, read the next one rather than wait.
                if started <= place || started < min(limit, paths.count) { readNext() } else { condition.wait() }
            }
        }
    }

    /// Stops the reads not yet started.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Reads path `started` with the lock released, then stores it. Called with the lock held.
    private func readNext() {
        let index = started
        started += 1
        condition.unlock()
        let result = Result { try loader(paths[index]) }
        condition.lock()
        slots[index] = .read(result)
        condition.broadcast()
    }
}
