import Foundation
import Geofencing

/// A copy of every event of a run, kept so that a sink that fails loses nothing: when a file, the
/// console or a database cannot take the run's events, they are in the journal, and the sink's message
/// says where.
///
/// The journal is JSON Lines (`JSONLinesSink.encode`, the format of `jsonl:`, which `SpoolFile` and
/// `perimeter deliver` read), written to `perimeter-run-<UTC time>-<pid>.jsonl` in the system's
/// temporary folder through an atomic `OutputFile`: a partial file readable by its owner only
/// (`.perimeter-run-….jsonl.partial-PID`) until `keep()` renames it into place, or `discard()` removes
/// it. A run whose sinks all finish discards it and leaves nothing behind. When a journal opens, the
/// partial files of journals whose process died (a SIGKILL) are removed from its folder.
///
/// The journal never fails the run: when it cannot be written (the temporary folder is missing or full)
/// it warns once through `warn`, stops keeping events, and `keep()` says why the events were not kept.
/// Not thread-safe: a run sends its events from one thread at a time.
public final class RunJournal {
    /// The start of every journal's file name.
    public static let stem = "perimeter-run"

    /// `$TMPDIR` when set and not empty, else `/tmp`.
    public static var defaultFolder: String {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if folder.isEmpty { return "/tmp" }
        return folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    private enum State {
        /// Made, not yet opened: nothing on disk.
        case new
        case open(OutputFile)
        /// Kept, discarded, or failed.
        case closed
    }

    /// Where the journal is kept once `keep()` succeeds.
    public let path: String
    /// Events given to `record` since the journal was opened (also those it failed to keep).
    public private(set) var count = 0
    /// Why the journal stopped keeping events, if it did.
    public private(set) var failure: SinkError?
    private var state = State.new
    /// `keep()`'s sentence, returned again.
    private var sentence: String?
    private let warn: (String) -> Void

    /// A journal in `folder`, to be opened by `open()`. `warn` receives one sentence if the journal
    /// cannot be written while the run goes on.
    public init(folder: String = RunJournal.defaultFolder, warn: @escaping (String) -> Void = { _ in }) {
        path = (folder.hasSuffix("/") ? folder : folder + "/") + SpoolFile.name(stem: Self.stem)
        self.warn = warn
    }

    /// Creates the partial file (once). A failure is warned about, not thrown.
    public func open() {
        guard case .new = state else { return }
        OutputFile.removeStalePartials(in: OutputFile.directory(of: path), namedLike: "." + Self.stem + "-")
        do {
            state = .open(try OutputFile(path: path, spec: "journal", mode: 0o600))
        } catch {
            fail(error, warning: true)
        }
    }

    /// Appends the event; after a failure only counts it.
    public func record(_ event: GeofenceEvent) {
        if case let .open(output) = state {
            count += 1
            var line = JSONLinesSink.encode(event)
            line.append("\n")
            do { try output.write(line) } catch { fail(error, warning: true) }
        } else if failure != nil {
            count += 1
        }
    }

    /// Keeps the journal (renames it into place) and returns the sentence that a failed sink's message
    /// ends with: where its events are, or why they could not be kept. A second call returns the same.
    public func keep() -> String {
        if let sentence { return sentence }
        if case .new = state { open() }
        if case let .open(output) = state {
            if count == 0 {
                output.discard()
            } else {
                do { try output.commit() } catch { fail(error, warning: false) }
            }
        }
        state = .closed
        let sentence: String
        if count == 0 {
            sentence = "the run had produced no events, so none were lost"
        } else if let failure {
            sentence = "its events could not be kept: the run's journal failed (\(failure.reason))"
        } else {
            sentence = "its \(count) event\(count == 1 ? " was" : "s were") kept in \"\(path)\" "
                + "(JSON Lines, as jsonl: writes them; 'perimeter deliver' can send them to an HTTP sink)"
        }
        self.sentence = sentence
        return sentence
    }

    /// Removes the journal: no sink needs it. Safe to call more than once; does nothing after `keep()`.
    public func discard() {
        if case let .open(output) = state { output.discard() }
        state = .closed
    }

    private func fail(_ error: SinkError, warning: Bool) {
        if case let .open(output) = state { output.discard() }
        state = .closed
        failure = error
        if warning {
            warn("the run's journal cannot be written (\(error.reason)): the run goes on, but the events of a sink "
                 + "that fails cannot be kept; set TMPDIR to a folder with room")
        }
    }
}
