import Foundation
import Geofencing
import Time
import WireFormat

/// What the journal hands its writer: events to encode, or `count` JSON Lines already made by the run
/// (`FanOutSink` encodes each event once when a `jsonl:` sink needs the same text, each line with its
/// line end); with the Monte Carlo run they belong to, if any, written into each line as `jsonl:` does.
enum JournalBatch {
    case events([GeofenceEvent], run: Int?)
    case lines([UInt8], count: Int, run: Int?)
}

/// What a journal whose writing failed part way still holds: its first `lines` events, `bytes` long,
/// whole; the first event it lacks was at `time` (of Monte Carlo run `run`).
struct JournalCut: Sendable {
    var lines: Int
    var bytes: Int
    var time: Timestamp?
    var run: Int?
}

/// The thread that encodes and writes a `RunJournal`'s events, so that the journal costs the run its
/// bookkeeping, not a second JSON encoding of every event: the run hands over batches of events, and the
/// writer encodes them as JSON Lines and writes them to the journal's `OutputFile` while the run goes on.
///
/// At most `maxQueuedBatches` batches wait; then `enqueue` blocks until one is written (memory stays
/// bounded). Each batch is flushed at its end, so that the file always ends with a whole batch but for
/// the one being written. After a write fails (a file-size limit, a full disk), the writer drops what it
/// holds, `enqueue` refuses more, and `cut` says how much of the file is whole lines, to keep. `stop`
/// must be called: it ends the thread, after which `output` belongs to the caller again.
final class JournalWriter: @unchecked Sendable {
    // Safety: `queue`, `stopping`, `draining`, `done`, `storedFailure` and `storedCut` are read and written
    // with `condition` locked; `output`, `linesDone`, `bytesDone` and `lineEnds` are used only by the
    // writing thread until `done`, then only by the thread that called `stop`.

    static let maxQueuedBatches = 4

    /// The journal's file: written by the thread, committed or discarded by the caller after `stop`.
    let output: OutputFile
    private let condition = NSCondition()
    private var queue: [JournalBatch] = []
    private var stopping = false
    private var draining = true
    private var done = false
    private var storedFailure: SinkError?
    private var storedCut: JournalCut?
    /// Lines and bytes of the batches written whole (flushed).
    private var linesDone = 0, bytesDone = 0
    /// Where each line of the batch being written ends, in bytes from its start.
    private var lineEnds: [Int] = []

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

    /// After a failure: the whole lines the file holds, and the first event it lacks.
    var cut: JournalCut? { locked { storedCut } }

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
            let cut = problem.map { _ in cutAfterFailure(in: batch) }
            condition.lock()
            if let problem {
                storedFailure = problem
                storedCut = cut
                queue.removeAll()
                break
            }
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes the batch as JSON Lines, encoding its events if they come as events, each line with its run
    /// when it has one, and flushes it (an output whose write fails keeps its partial file for `cut`).
    /// Notes where each line ends (`lineEnds`), but for lines written as they came.
    private func write(_ batch: JournalBatch) -> SinkError? {
        lineEnds.removeAll(keepingCapacity: true)
        var end = 0
        do {
            switch batch {
            case let .lines(lines, _, nil):
                try lines.withUnsafeBufferPointer { bytes throws(SinkError) in
                    try output.write(atMost: bytes.count) { $0.put(bytes) }
                }
                end = lines.count
            case let .lines(lines, _, run):
                try lines.withUnsafeBufferPointer { bytes throws(SinkError) in
                    var start = 0
                    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                        let line = UnsafeBufferPointer(rebasing: bytes[start..<newline])
                        try output.write(atMost: line.count + JSONLinesSink.endBound) { out in
                            JSONLinesSink.put(line: line, run: run, to: &out)
                            end += out.count
                        }
                        lineEnds.append(end)
                        start = newline + 1
                    }
                }
            case let .events(events, run):
                for event in events {
                    try output.write(atMost: EventFormatting.bound(of: event) + JSONLinesSink.endBound) { out in
                        JSONLinesSink.put(event, run: run, to: &out)
                        end += out.count
                    }
                    lineEnds.append(end)
                }
            }
            try output.flush()
        } catch {
            return error
        }
        bytesDone += end
        linesDone += batch.count
        return nil
    }

    /// How much of the file is whole lines after writing `batch` failed: the batches before it and the
    /// lines of it that reached the file whole (O(the batch)).
    private func cutAfterFailure(in batch: JournalBatch) -> JournalCut {
        var cut = JournalCut(lines: linesDone, bytes: bytesDone)
        guard let size = output.bytesInPartialFile, size >= bytesDone else { return cut }
        // Lines made by the run: where each ends in the batch's bytes (and in the file, written as they came).
        var cameEnds: [Int] = []
        if case let .lines(lines, _, run) = batch {
            cameEnds = lines.indices.filter { lines[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
            if run == nil { lineEnds = cameEnds }
        }
        let whole = lineEnds.prefix { bytesDone + $0 <= size }.count
        cut.lines += whole
        if whole > 0 { cut.bytes += lineEnds[whole - 1] }
        switch batch {
        case let .events(events, run) where whole < events.count:
            (cut.time, cut.run) = (events[whole].time, run)
        case let .lines(lines, _, run) where whole < cameEnds.count:
            let start = whole == 0 ? 0 : cameEnds[whole - 1]
            let text = String(decoding: lines[start..<cameEnds[whole] - 1], as: UTF8.self)
            (cut.time, cut.run) = ((try? JSONLines.decode(line: text))?.time, run)
        default:
            break
        }
        return cut
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}

extension JournalBatch {
    /// The events (lines) in the batch.
    var count: Int {
        switch self {
        case let .events(events, _): return events.count
        case let .lines(_, count, _): return count
        }
    }
}
