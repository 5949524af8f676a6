import Foundation
import Geofencing
import WireFormat

/// The thread that encodes and writes a `RunJournal`'s events, so that the journal costs the run its
/// bookkeeping, not a second JSON encoding of every event: the run hands over batches of events, and the
/// writer encodes them as JSON Lines and writes them to the journal's `OutputFile` while the run goes on.
///
/// At most `maxQueuedBatches` batches wait; then `enqueue` blocks until one is written (memory stays
/// bounded). After a write fails, the writer drops what it holds and `enqueue` refuses more. `stop`
/// must be called: it ends the thread, after which `output` belongs to the caller again.
/// What the journal hands its writer: events to encode, or their JSON Lines already made by the run
/// (`FanOutSink` encodes each event once when a `jsonl:` sink needs the same text).
enum JournalBatch {
    case events([GeofenceEvent])
    case lines([UInt8])
}

final class JournalWriter: @unchecked Sendable {
    // Safety: `queue`, `stopping`, `draining`, `done` and `storedFailure` are read and written with
    // `condition` locked; `output` is used only by the writing thread until `done`, then only by the
    // thread that called `stop`.

    static let maxQueuedBatches = 4

    /// The journal's file: written by the thread, committed or discarded by the caller after `stop`.
    let output: OutputFile
    private let condition = NSCondition()
    private var queue: [JournalBatch] = []
    private var stopping = false
    private var draining = true
    private var done = false
    private var storedFailure: SinkError?

    /// Starts the writing thread, which calls `firstly` before it writes anything (the journal's sweep of
    /// its folder).
    init(output: OutputFile, firstly: @escaping @Sendable () -> Void = {}) {
        self.output = output
        let thread = Thread { [self] in
            firstly()
            work()
        }
        thread.name = "perimeter-run-journal"
        thread.start()
    }

    /// Why writing failed, if it did.
    var failure: SinkError? {
        get { locked { storedFailure } }
        set { locked { storedFailure = newValue } }
    }

    /// Hands over a batch, in order; waits while the queue is full. False once writing has failed.
    func enqueue(_ batch: JournalBatch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.maxQueuedBatches && storedFailure == nil && !done { condition.wait() }
        guard storedFailure == nil && !done else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// Ends the thread, after writing what is queued when `drain` is true (else dropping it), and waits
    /// for it. Safe to call more than once.
    func stop(drain: Bool) {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        if !drain { draining = false }
        condition.broadcast()
        while !done { condition.wait() }
    }

    private func work() {
        condition.lock()
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty || !draining { break }
            let batch = queue.removeFirst()
            condition.broadcast()  // room for a waiting run
            condition.unlock()
            let problem = write(batch)
            condition.lock()
            if let problem {
                storedFailure = problem
                queue.removeAll()
                break
            }
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes the batch as JSON Lines, encoding its events if they come as events (an output whose write
    /// fails removes its partial file).
    private func write(_ batch: JournalBatch) -> SinkError? {
        do {
            switch batch {
            case let .lines(lines):
                try lines.withUnsafeBufferPointer { bytes throws(SinkError) in try output.write(atMost: bytes.count) { $0.put(bytes) } }
            case let .events(events):
                for event in events {
                    try output.write(atMost: EventFormatting.bound(of: event) + 1) { out in
                        JSONLines.put(event, to: &out)
                        out.put(UInt8(ascii: "\n"))
                    }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
