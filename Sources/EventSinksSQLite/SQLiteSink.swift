import EventSinks
import FileSystem
import GRDB
import Geofencing
import SystemPackage
import WireFormat

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite (`sqlite:PATH`): every run appends one row to `runs` and its events to `events`, in a
/// database several runs share (SEMANTICS §7).
///
/// - `runs`: `id, scenario, scenarioFile, profile, startedAt, clockStart, perimeterVersion, sqliteVersion,
///   settings` (JSON, `RunDescription.settingsJSON(of:)`), `status` (`RunStatus`), `finishedAt`, `eventCount`.
/// - `events`: `run` (→ `runs.id`), `seq` (0-based order within the run; the key is `(run, seq)`), then
///   the wire fields `time, device, region, kind, lat, lon, distance, crossedAt, arrival, departure,
///   duration, rule, detectedAt` (NULL unless delivered late, SEMANTICS §7), written as JSON Lines writes them: times as ISO 8601 text with milliseconds
///   (`EventFormatting.time`), numbers as REAL, durations in seconds; NULL where the event's kind has no
///   value, and for a number that is not finite (JSON's `null`). Indexed by `(run, device, time)` and
///   `(run, region)`.
///
/// ```sql
/// SELECT device, time, region FROM events JOIN runs ON runs.id = events.run
/// WHERE runs.status = 'complete' AND kind = 'enter' ORDER BY run, seq;
/// ```
///
/// **Not atomic, unlike the text sinks.** A text file is written beside its target and renamed over it
/// on `finish()`; a database is *appended to*: other runs' rows are in the same file, and replacing it
/// would lose them (or another process's concurrent run). Instead each run is marked by its `status`,
/// and every write is a SQLite transaction: the file is consistent at every instant, whatever happens
/// to the process. The journal is a write-ahead log (WAL; `-wal` and `-shm` files live beside the
/// database while it is open), with `synchronous = NORMAL`: a killed process loses nothing committed,
/// a power cut at most the last batches, never the file's consistency.
///
/// Events are committed in batches of `batchSize` (5,000), or sooner when the oldest waiting event is
/// `batchDelay` (1 s) old at the next `send`: memory stays flat in the run's length, readers see a
/// long run grow, and a `kill -9` loses at most the open batch. Committed events of a run are always
/// `seq` 0, 1, 2, … without gaps, and `runs.eventCount` counts them.
///
/// Statuses: `running` from the start; `complete` on `finish()`; `interrupted` after
/// `markInterrupted()` (a signal stopped the run cleanly: its events are all there); `failed` on
/// `cancel()`, after this sink failed, or when the sink is dropped without finishing. Nothing is ever
/// deleted: a failed run keeps every event it received. A `running` row with no live process is an
/// incomplete run.
///
/// In a Monte Carlo batch (`LifecycleSink.beginRun`), each run is its own row of `runs`, its 0-based number in
/// `monteCarloRun` and its noise seed in `settings`; a run is marked `complete` when the next begins.
public final class SQLiteSink: LifecycleSink {
    /// Events per transaction.
    public static let defaultBatchSize = 5_000
    /// How long an event may wait for its batch, checked at each `send`.
    public static let defaultBatchDelay: Duration = .seconds(1)
    /// SQLite's page cache, in KiB: the index pages that a batch touches (one per device and one per
    /// region being appended to) stay in memory instead of being read back from the file.
    public static let cacheKiB = 32 * 1024
    /// Pages (4 KiB) the write-ahead log may hold before they are copied back into the database:
    /// 64 MiB, so that the hot index pages are copied back once per checkpoint rather than once per few
    /// batches (a quarter less time than SQLite's default of 1,000 in a 1.3 million-event run).
    public static let checkpointPages = 16_384
    /// How long a write waits for another process's transaction on the same file, in seconds.
    public static let busyTimeout: Double = 10

    /// The sink as specified, for errors.
    public let spec: String
    /// The database file.
    public let path: String
    /// This run's `runs.id` (in a Monte Carlo batch, the current run's).
    public private(set) var runID: Int64
    public let batchSize: Int
    public let batchDelay: Duration

    private enum State {
        case open
        /// `finish()` recorded this status and closed the database.
        case finished(RunStatus)
        case cancelled
        /// A write failed: reported again by `send` and `finish`.
        case failed(SinkError)
    }

    private var queue: DatabaseQueue?
    private var state = State.open
    private var interrupted = false
    private var pending: [GeofenceEvent] = []
    /// When the oldest pending event arrived.
    private var pendingSince = ContinuousClock.now
    /// Events committed so far: the `seq` of `pending[0]`.
    private var committed: Int64 = 0
    /// Whether `beginRun` was called: the first run's row is then numbered.
    private var numbered = false
    /// Where a row's texts are made before SQLite copies them.
    private var scratch: [UInt8] = []

    /// Opens (or creates) the database at `path`, brings its schema up to date and inserts this run's
    /// row (`running`). Fails now, with a sentence naming the file, when it cannot: a directory, a file
    /// that is not an SQLite database, a missing or unwritable directory, a database written by a newer
    /// perimeter.
    public init(
        path: String, run: RunDescription = RunDescription(), spec: String? = nil,
        batchSize: Int = SQLiteSink.defaultBatchSize,
        batchDelay: Duration = SQLiteSink.defaultBatchDelay
    ) throws(SinkError) {
        let spec = spec ?? "sqlite:\(path)"
        self.spec = spec
        self.path = path
        self.batchSize = max(1, batchSize)
        self.batchDelay = batchDelay
        guard path != "-" else {
            throw SinkError(spec: spec, reason: "an SQLite database cannot be written to standard output; give a file path")
        }
        let created = try Self.checkFile(path, spec: spec)
        do {
            let queue = try Self.openDatabase(path)
            guard try Self.prepareSchema(queue) else {
                try? queue.close()
                throw SinkError(
                    spec: spec, path: path,
                    reason: "cannot open \"\(path)\": its schema was written by a newer perimeter; "
                        + "use that version or give another file")
            }
            runID = try queue.write { db in
                try db.execute(
                    sql: Self.insertRunSQL,
                    arguments: [
                        run.scenario, run.scenarioFile, run.profile, EventFormatting.time(run.startedAt),
                        run.clockStart.map(EventFormatting.time), run.perimeterVersion, run.settings,
                    ])
                return db.lastInsertedRowID
            }
            self.queue = queue
        } catch {
            if created {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            }
            throw Self.sinkError(error, spec: spec, path: path, doing: "open")
        }
        pending.reserveCapacity(self.batchSize)
    }

    /// Records `number` on the current row if it has no events yet; otherwise marks the current run
    /// `complete` and inserts a row for the next, as `running`.
    public func beginRun(_ number: Int, _ run: RunDescription) throws {
        switch state {
        case .open: break
        case let .failed(error): throw error
        case .finished, .cancelled:
            throw SinkError(spec: spec, path: path, reason: "the run in \"\(path)\" was already closed")
        }
        guard let queue else { return }
        let fresh = committed == 0 && pending.isEmpty && !numbered
        if !fresh { try commitPending(status: .complete) }
        do {
            runID = try queue.write { db in
                if fresh {
                    try db.execute(
                        sql: "UPDATE runs SET monteCarloRun = ?, settings = ? WHERE id = ?",
                        arguments: [number, run.settings, runID])
                    return runID
                }
                try db.execute(
                    sql: Self.insertRunSQL,
                    arguments: [
                        run.scenario, run.scenarioFile, run.profile, EventFormatting.time(run.startedAt),
                        run.clockStart.map(EventFormatting.time), run.perimeterVersion, run.settings,
                    ])
                let id = db.lastInsertedRowID
                try db.execute(sql: "UPDATE runs SET monteCarloRun = ? WHERE id = ?", arguments: [number, id])
                return id
            }
        } catch {
            let failure = Self.sinkError(error, spec: spec, path: path, doing: "write to")
            state = .failed(failure)
            throw failure
        }
        numbered = true
        committed = 0
    }

    /// The run's status as recorded so far.
    public var status: RunStatus {
        switch state {
        case .open: return .running
        case let .finished(status): return status
        case .cancelled, .failed: return .failed
        }
    }

    public func send(_ event: GeofenceEvent) throws {
        switch state {
        case .open: break
        case let .failed(error): throw error
        case .finished, .cancelled:
            throw SinkError(spec: spec, path: path, reason: "the run in \"\(path)\" was already closed")
        }
        if pending.isEmpty { pendingSince = .now }
        pending.append(event)
        if pending.count >= batchSize || pendingSince.duration(to: .now) >= batchDelay {
            try commitPending(status: nil)
        }
    }

    /// Commits the open batch and the run's final status (`complete`, or `interrupted` after
    /// `markInterrupted()`), then closes the database (the write-ahead log is folded back into it).
    /// After this sink failed, records the run as `failed` as far as it can and rethrows the failure.
    public func finish() throws {
        switch state {
        case .open:
            let status: RunStatus = interrupted ? .interrupted : .complete
            do {
                try commitPending(status: status)
            } catch {
                recordFailure()
                throw error
            }
            state = .finished(status)
            closeDatabase()
        case let .failed(error):
            recordFailure()
            throw error
        case .finished, .cancelled:
            return
        }
    }

    /// Keeps every event received (the open batch is committed too: nothing a user might want is
    /// deleted) and marks the run `failed`. Errors are swallowed: the run is being abandoned.
    public func cancel() {
        switch state {
        case .open, .failed:
            recordFailure()
            state = .cancelled
        case .finished, .cancelled:
            return
        }
    }

    /// Marks the run `interrupted`: before `finish()`, `finish()` records it so; after it, the row
    /// written as `complete` is changed (the file is opened again for that one statement).
    public func markInterrupted() throws {
        switch state {
        case .open:
            interrupted = true
        case .finished(.complete):
            do {
                let queue = try Self.openDatabase(path)
                try queue.write { db in
                    try db.execute(
                        sql: "UPDATE runs SET status = 'interrupted' WHERE id = ? AND status = 'complete'",
                        arguments: [runID])
                }
                try queue.close()
            } catch {
                throw Self.sinkError(error, spec: spec, path: path, doing: "write to")
            }
            state = .finished(.interrupted)
        case .finished, .cancelled, .failed:
            return
        }
    }

    /// A sink dropped while still open (or after a failed write) never finished: its run is recorded
    /// as `failed`, with every event it received that can still be written.
    deinit {
        switch state {
        case .open, .failed: recordFailure()
        case .finished, .cancelled: closeDatabase()
        }
    }

    // MARK: Writing

    /// Inserts the pending events and updates the run's count, with `status` (and `finishedAt`) when
    /// given, in one transaction.
    private func commitPending(status: RunStatus?) throws {
        guard let queue else { return }
        let first = committed
        let total = first + Int64(pending.count)
        do {
            try queue.write { db in
                if !pending.isEmpty {
                    let statement = try db.cachedStatement(sql: Self.insertEventSQL)
                    // The rows are bound straight into SQLite (`bind`); GRDB only steps the statement.
                    statement.setUncheckedArguments([])
                    var seq = first
                    for event in pending {
                        try Self.bind(
                            event, run: runID, seq: seq, to: statement.sqliteStatement,
                            sql: Self.insertEventSQL, scratch: &scratch)
                        try statement.execute()
                        seq += 1
                    }
                }
                if let status {
                    try db.execute(
                        sql: "UPDATE runs SET eventCount = ?, status = ?, finishedAt = ? WHERE id = ?",
                        arguments: [total, status.rawValue, EventFormatting.time(.wallClockNow), runID])
                } else {
                    try db.execute(sql: "UPDATE runs SET eventCount = ? WHERE id = ?", arguments: [total, runID])
                }
            }
        } catch {
            let failure = Self.sinkError(error, spec: spec, path: path, doing: "write to")
            state = .failed(failure)
            throw failure
        }
        committed = total
        pending.removeAll(keepingCapacity: true)
    }

    /// Best effort: the open batch and `failed`, else `failed` alone; then closes.
    private func recordFailure() {
        if (try? commitPending(status: .failed)) == nil, let queue {
            try? queue.write { db in
                try db.execute(
                    sql: "UPDATE runs SET eventCount = ?, status = 'failed', finishedAt = ? WHERE id = ?",
                    arguments: [committed, EventFormatting.time(.wallClockNow), runID])
            }
        }
        closeDatabase()
    }

    private func closeDatabase() {
        try? queue?.close()
        queue = nil
    }

    // MARK: Opening

    /// One connection in WAL mode, foreign keys on, waiting `busyTimeout` for other writers.
    static func openDatabase(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "perimeter.sqlite"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Fails with the system's sentence when `path` cannot be a database file (a directory, a missing
    /// directory, a path through a regular file, no permission); creates it when missing. Returns
    /// whether it was created here, so that a failed open can remove it again.
    private static func checkFile(_ path: String, spec: String) throws(SinkError) -> Bool {
        let status = FileCheck.status(of: path)
        let exists = (try? status.get()) != nil
        if case let .success(info) = status, info.type == .directory {
            throw SinkError(FileError(.isDirectory, path: path, action: "open"), spec: spec)
        }
        if case let .success(info) = status, info.type != .regular {
            throw SinkError(
                spec: spec, path: path,
                reason: "cannot open \"\(path)\": it is not a regular file; an SQLite database needs one")
        }
        do {
            try FileDescriptor.open(
                FilePath(path), .readWrite, options: [.create, .closeOnExec],
                permissions: [.ownerReadWrite, .groupRead, .otherRead]
            ).close()
        } catch {
            throw SinkError(FileError(thrown: error, path: path, action: exists ? "open" : "create"), spec: spec)
        }
        return !exists
    }
}

extension SQLiteSink {
    /// `sqlite:PATH`: appended to, one `runs` row per run, described by the context's `run`.
    public static let kind = SinkKind(
        schemes: ["sqlite"], target: .path, form: "sqlite:PATH", tellsRunsApart: true,
        recognizes: SQLiteSink.isPerimeterDatabase, fileExtensions: [".db", ".sqlite", ".sqlite3"]
    ) {
        spec, context throws(SinkError) in
        try SQLiteSink(path: context.resolve(spec.path ?? "-"), run: context.run, spec: spec.text)
    }
}
