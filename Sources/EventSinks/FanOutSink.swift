import Geofencing
import WireFormat

/// Sends each event to several sinks, in order, and keeps a journal of the run for the sinks that fail.
///
/// A sink that throws does not keep the others from the event: every sink gets it, then `send` throws
/// what failed (the run stops there). A sink that failed gets no more events and is not finished:
/// `finish()` cancels it (a file keeps its old contents, a database records a failed run), finishes the
/// others, and throws every failure. With a `RunJournal`, every event is also recorded in it; when a sink
/// that does not keep its own undelivered events (`spoolsItself`) failed, the journal is kept and that
/// sink's message says where its events are; otherwise it is discarded.
public final class FanOutSink: LifecycleSink {
    public let sinks: [any LifecycleSink]
    /// The run's journal; nil when every sink spools itself (HTTP sinks), or when none was given.
    public let journal: RunJournal?
    /// The first error of each sink that failed, by index in `sinks`.
    private var failures: [Int: any Error] = [:]
    /// What `finish()` reported, reported again by a second call.
    private var outcome: Result<Void, any Error>?

    /// Whether each sink (by index in `sinks`) takes an event's JSON Lines text, when the text is shared.
    private let takesLines: [Bool]
    /// Whether each event is encoded once here, for the journal and the `jsonl:` sinks together.
    private let sharesLines: Bool
    /// The shared JSON Lines text of the event being sent, reused from event to event. Used only within
    /// `send` (a sink is used from one thread at a time), so its accesses go unchecked at run time.
    @exclusivity(unchecked) private var line: [UInt8] = []

    /// Opens `journal` when some sink needs it.
    public init(_ sinks: [any LifecycleSink], journal: RunJournal? = nil) {
        self.sinks = sinks
        self.journal = sinks.allSatisfy(\.spoolsItself) ? nil : journal
        self.journal?.open()
        takesLines = sinks.map(\.takesJSONLines)
        let takers = takesLines.count { $0 } + (self.journal == nil ? 0 : 1)
        sharesLines = takers >= 2 && takesLines.contains(true)
    }

    /// The journal keeps everything; without one, only if every sink spools itself.
    public var spoolsItself: Bool { journal != nil || sinks.allSatisfy(\.spoolsItself) }

    /// Records the event in the journal and gives it to every sink that has not failed; throws what
    /// failed now (one error as it is, several as `SinkFailures`). An earlier failure is not thrown
    /// again here (`finish()` reports it).
    public func send(_ event: GeofenceEvent) throws {
        // Each event is encoded once when the journal and a jsonl: sink (or two) write the same text.
        if sharesLines {
            line.removeAll(keepingCapacity: true)
            JSONLines.append(event, to: &line)
            journal?.record(jsonLine: line)
        } else {
            journal?.record(event)
        }
        var failed: [any Error] = []
        for (index, sink) in sinks.enumerated() where failures[index] == nil {
            do {
                if sharesLines && takesLines[index] {
                    try sink.send(event, jsonLine: line)
                } else {
                    try sink.send(event)
                }
            } catch {
                failures[index] = error
                failed.append(error)
            }
        }
        try Self.throwing(failed)
    }

    /// Tells every sink that numbers runs (`LifecycleSink.beginRun`), and the journal, that a Monte Carlo run
    /// begins.
    public func beginRun(_ number: Int, _ run: RunDescription) throws {
        journal?.beginRun(number)
        var failed: [any Error] = []
        for (index, sink) in sinks.enumerated() where failures[index] == nil {
            do {
                try sink.beginRun(number, run)
            } catch {
                failures[index] = error
                failed.append(error)
            }
        }
        try Self.throwing(failed)
    }

    /// Finishes every sink that has not failed and cancels those that have; keeps or discards the
    /// journal; throws every failure, so that no sink's message (an HTTP sink's spool file, say) is
    /// hidden behind another's. A second call reports the same.
    public func finish() throws {
        if let outcome { return try outcome.get() }
        for (index, sink) in sinks.enumerated() {
            if failures[index] != nil {
                sink.cancel()
                continue
            }
            do { try sink.finish() } catch { failures[index] = error }
        }
        let failed = failures.keys.sorted()
        let needJournal = failed.filter { !sinks[$0].spoolsItself }
        let note = needJournal.isEmpty ? nil : journal?.keep()
        if note == nil { journal?.discard() }
        let errors = failures.sorted(by: { $0.key < $1.key }).map { index, error in
            guard let note, needJournal.contains(index) else { return error }
            return Self.annotated(error, with: note, from: sinks[index])
        }
        let result = Result { try Self.throwing(errors) }
        outcome = result
        try result.get()
    }

    /// Tells each sink that the run was interrupted, and rethrows the first error.
    public func markInterrupted() throws {
        var first: (any Error)?
        for sink in sinks {
            do { try sink.markInterrupted() } catch { if first == nil { first = error } }
        }
        if let first { throw first }
    }

    public func markStoppedEarly() {
        for sink in sinks { sink.markStoppedEarly() }
    }

    public var keptBesideNotes: [String] { sinks.flatMap(\.keptBesideNotes) }

    /// Cancels every sink and discards the journal.
    public func cancel() {
        for sink in sinks { sink.cancel() }
        journal?.discard()
    }

    /// `error`'s message followed by the journal's sentence, as a `SinkError` of the sink.
    static func annotated(_ error: any Error, with note: String, from sink: any LifecycleSink) -> SinkError {
        guard var sinkError = error as? SinkError else {
            return SinkError(spec: String(describing: type(of: sink)), reason: "\(error); \(note)")
        }
        sinkError.reason += "; " + note
        return sinkError
    }

    private static func throwing(_ errors: [any Error]) throws {
        if errors.count == 1 { throw errors[0] }
        if !errors.isEmpty { throw SinkFailures(errors) }
    }
}

/// Several sinks failed at once; each error on its own line.
public struct SinkFailures: Error, CustomStringConvertible {
    public let errors: [any Error]
    public init(_ errors: [any Error]) { self.errors = errors }
    public var description: String { errors.map { "\($0)" }.joined(separator: "\n") }
}
