import FileSystem
import Foundation
import Geofencing

/// A copy of every event of a run, kept so that a sink that fails loses nothing: when a file, the
/// console or a database cannot take the run's events, they are in the journal, and the sink's message
/// says where.
///
/// The journal is JSON Lines (`JSONLines.encode`, the format of `jsonl:`, which `EventLogFile` and
/// `perimeter deliver` read; in a Monte Carlo batch each line ends with its run, as `jsonl:` writes it),
/// written to `perimeter-run-<UTC time>-<pid>.jsonl` in a private folder of the system's temporary folder
/// (`RunJournalFolder`: `perimeter-journal-PID-XXXXXX`, made by mkdtemp with mode 0700, so that no one else
/// can plant a link at the journal's name) through an atomic `OutputFile`: a partial file readable by its
/// owner only (`.perimeter-run-….jsonl.partial-PID`, created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600)
/// until `keep()` renames it into place, or `discard()` removes it and the folder. A run whose sinks all
/// finish discards it and leaves nothing behind. When a journal opens, its writing thread removes the
/// folders and partial files of journals whose process died (a SIGKILL), before `keep()` or `discard()`
/// returns.
///
/// The journal never fails the run: when it cannot be written (the temporary folder is missing or full,
/// a file-size limit) it warns once through `warn` and stops keeping events; `keep()` then keeps the
/// whole lines it holds (a line cut short is cut off) and says how many events those are, and from which
/// event's time the rest are missing, or why none were kept.
///
/// Events are encoded and written by a `JournalWriter` thread, in batches of `batchSize`, so that on a
/// machine with a spare core the journal costs the run little more than handing the events over. The
/// journal itself is used from one thread at a time, as a run sends its events; `warn` is called on it.
public final class RunJournal {
    /// The start of every journal's file name.
    public static let stem = "perimeter-run"
    /// Events handed to the writing thread at once.
    static let batchSize = 1024

    /// `$TMPDIR` when set and not empty, else `/tmp`.
    public static var defaultFolder: String {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if folder.isEmpty { return "/tmp" }
        return folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    private enum State {
        /// Made, not yet opened: nothing on disk.
        case new
        /// Recording (also after the writer failed: events are then only counted).
        case open
        case kept
        case discarded
    }

    /// Where the journal is kept once `keep()` succeeds: in its private folder.
    public let path: String
    /// The private folder (made with the journal).
    private let folder: RunJournalFolder
    /// The temporary folder the private folder is in, swept for dead processes' journals.
    private let parent: String
    /// Events given to `record` since the journal was opened (also those it failed to keep).
    public private(set) var count = 0
    private var state = State.new
    private var writer: JournalWriter?
    /// Lines recorded by `record(jsonLine:)` and not yet handed over, with their line ends (appended to
    /// at every event, from one thread at a time: its accesses go unchecked at run time).
    @exclusivity(unchecked) private var pendingLines: [UInt8] = []
    private var pendingLineCount = 0
    private var pending: [GeofenceEvent] = []
    /// The Monte Carlo run whose events are being recorded (`beginRun`), written into each line.
    private var run: Int?
    /// Why opening or committing failed (the writer keeps its own).
    private var ownFailure: SinkError?
    private var warned = false
    /// `keep()`'s sentence, returned again.
    private var sentence: String?
    /// What `keep()` kept of a journal whose writing failed part way.
    private var kept: JournalCut?
    private let warn: (String) -> Void

    /// A journal in a private folder made now in `folder` (an empty folder until `open()`). `warn` receives
    /// one sentence if the journal cannot be written (the private folder cannot be made, among others).
    public init(folder: String = RunJournal.defaultFolder, warn: @escaping (String) -> Void = { _ in }) {
        let parent = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        self.parent = parent
        self.folder = RunJournalFolder(in: parent)
        path = (self.folder.path ?? parent + "/" + RunJournalFolder.stem + "-\(getpid())-XXXXXX") + "/" + Self.uniqueName()
        ownFailure = self.folder.failure
        self.warn = warn
    }

    private static let madeLock = NSLock()
    nonisolated(unsafe) private static var made = 0  // guarded by madeLock

    /// `perimeter-run-TIME-PID.jsonl`; the second journal of a process gets `-2` before `.jsonl`, and so on,
    /// so that two journals made within a second never share a file.
    private static func uniqueName() -> String {
        let number = madeLock.withLock {
            made += 1
            return made
        }
        let name = OutputFile.uniqueName(stem: stem)
        return number == 1 ? name : String(name.dropLast(".jsonl".count)) + "-\(number).jsonl"
    }

    deinit { discard() }

    /// Why the journal stopped keeping events, if it did.
    public var failure: SinkError? { ownFailure ?? writer?.failure }

    /// Creates the partial file and starts the writing thread (once). A failure is warned about, not
    /// thrown; the journal then only counts events.
    public func open() {
        guard case .new = state else { return }
        state = .open
        if ownFailure != nil {  // the private folder could not be made
            warnOnce()
            return
        }
        let parent = self.parent
        do {
            let output = try OutputFile(
                path: path, spec: "journal", permissions: [.ownerReadWrite], removingStalePartials: false,
                keepingPartialFileOnFailure: true)
            // The partial files of journals whose process died (its own target's among them) are removed by
            // the writing thread: a temporary folder of many thousand entries does not delay the run.
            writer = JournalWriter(output: output) {
                RunJournalFolder.removeStale(in: parent)
                AtomicFile.removeStalePartials(in: parent, namedLike: "." + RunJournal.stem + "-")  // before G9
            }
            pending.reserveCapacity(Self.batchSize)
        } catch {
            ownFailure = error
            warnOnce()
        }
    }

    /// Records the event (it is encoded and written by the writing thread); after a failure only counts it.
    public func record(_ event: GeofenceEvent) {
        guard case .open = state else { return }
        count += 1
        guard writer != nil, !warned else { return }
        if pendingLineCount > 0 { handOver() }
        pending.append(event)
        if pending.count >= Self.batchSize { handOver() }
    }

    /// Records an event by its JSON Lines text (`JSONLines.append`, UTF-8 without the line end), made once
    /// by the run for a sink that writes the same; after a failure only counts it.
    public func record(jsonLine line: [UInt8]) {
        guard case .open = state else { return }
        count += 1
        guard writer != nil, !warned else { return }
        if !pending.isEmpty { handOver() }
        pendingLines.append(contentsOf: line)
        pendingLines.append(UInt8(ascii: "\n"))
        pendingLineCount += 1
        if pendingLineCount >= Self.batchSize { handOver() }
    }

    /// The events recorded from now on are those of Monte Carlo run `number` (0-based): each of their
    /// lines gets `"run":N`, as a `jsonl:` sink writes them in a batch.
    public func beginRun(_ number: Int) {
        guard case .open = state else { return }
        if (!pending.isEmpty || pendingLineCount > 0) && !warned { handOver() }
        run = number
    }

    /// Keeps the journal (writes the rest, renames it into place) and returns the sentence that a failed
    /// sink's message ends with: where its events are, or why they could not be kept. A journal with no
    /// events is not kept. A second call returns the same.
    public func keep() -> String {
        if let sentence { return sentence }
        if case .new = state { open() }
        if let writer, case .open = state {
            if (!pending.isEmpty || pendingLineCount > 0) && !warned { handOver() }
            writer.stop(drain: count > 0)
            if count == 0 {
                writer.output.discard()
            } else if writer.failure == nil {
                do { try writer.output.commit() } catch { ownFailure = error }
            } else if let cut = writer.cut, cut.lines > 0 {
                do { try writer.output.commitAfterFailure(keepingFirst: cut.bytes) } catch { ownFailure = error }
                kept = cut
            } else {
                writer.output.discard()
            }
        }
        folder.removeIfEmpty()  // nothing kept
        let wasDiscarded: Bool
        if case .discarded = state { wasDiscarded = true } else { wasDiscarded = false }
        state = .kept
        warnOnce()
        let sentence: String
        if wasDiscarded {
            sentence = "its events could not be kept: the run's journal had been discarded"
        } else if count == 0 {
            sentence = "the run had produced no events, so none were lost"
        } else if let failure, let kept, ownFailure == nil {
            let missing = count - kept.lines
            let from =
                kept.time.map { time in ", from " + (kept.run.map { "run \($0) at " } ?? "") + time.iso8601 + " on," } ?? ""
            sentence =
                "only the first \(kept.lines) of its \(count) events were kept, in \"\(path)\" "
                + Self.format(numberingRuns: run != nil)
                + "; the other \(missing)\(from) could not be kept: the run's journal failed (\(failure.reason))"
        } else if let failure {
            sentence = "its events could not be kept: the run's journal failed (\(failure.reason))"
        } else {
            sentence =
                "its \(count) event\(count == 1 ? " was" : "s were") kept in \"\(path)\" "
                + Self.format(numberingRuns: run != nil)
        }
        self.sentence = sentence
        return sentence
    }

    /// Removes the journal: no sink needs it. Safe to call more than once; does nothing after `keep()`.
    public func discard() {
        guard case .open = state else {
            if case .new = state {
                state = .discarded
                folder.removeIfEmpty()
            }
            return
        }
        state = .discarded
        pending = []
        pendingLines = []
        pendingLineCount = 0
        writer?.stop(drain: false)
        writer?.output.discard()
        folder.removeIfEmpty()
        warnOnce()
    }

    /// How the kept events are written, for people: the journal of a Monte Carlo batch gives each event
    /// its run, which `perimeter deliver` does not take.
    static func format(numberingRuns: Bool) -> String {
        numberingRuns
            ? "(JSON Lines, each event with its run, as jsonl: writes them with --runs)"
            : "(JSON Lines, as jsonl: writes them; 'perimeter deliver' can send them to an HTTP sink)"
    }

    /// Gives the pending events (or lines) to the writer; warns when it has failed.
    private func handOver() {
        if !pending.isEmpty {
            if writer?.enqueue(.events(pending, run: run)) == false { warnOnce() }
            pending.removeAll(keepingCapacity: true)
        }
        if pendingLineCount > 0 {
            let size = pendingLines.count
            if writer?.enqueue(.lines(pendingLines, count: pendingLineCount, run: run)) == false { warnOnce() }
            pendingLines = []
            pendingLines.reserveCapacity(size + size / 4)  // the next batch's lines, copied once
            pendingLineCount = 0
        }
    }

    /// Warns about the failure, the first time there is one.
    private func warnOnce() {
        guard !warned, let failure else { return }
        warned = true
        warn(
            "the run's journal cannot be written (\(failure.reason)): the run goes on, but from here on the events "
                + "of a sink that fails cannot be kept; set TMPDIR to a folder with room")
    }
}
