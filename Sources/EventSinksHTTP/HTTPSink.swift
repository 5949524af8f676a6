import EventSinks
import FileSystem
import Foundation
import Geofencing
import TextEscaping
import WireFormat

/// Sends events to an HTTP endpoint as JSON batches; what cannot be delivered is kept in a spool file.
///
/// Each POST has the body `{"events":[…]}` (each event the JSON Lines object of `JSONLines.encode`,
/// in output order), `Content-Type: application/json` and an `Idempotency-Key: <prefix>-<batch index>`
/// (the index counts from 0; the prefix is 32 random hex digits per sink, so per run; every attempt of
/// a batch reuses its key). A batch is sealed when it holds `batchSize` events or when its first event
/// has waited `flushInterval`; batches are delivered in order, one at a time, by a background thread,
/// so the run is not held up by each POST. At most `maxPendingBatches` sealed batches wait: then
/// `send` blocks until one is delivered (memory stays bounded).
///
/// Retries follow `HTTPPoster`. When a batch finally fails, or the run is interrupted (`isCancelled`:
/// the transfer under way is aborted at once, and no retry is waited out), it and every later event
/// (those waiting and those sent afterwards) are written to the spool file, batch by batch, each line
/// with its batch's `Idempotency-Key` (`SpoolLines`), so that `perimeter deliver` re-sends a batch the
/// server may have processed under the same key. The spool file is written beside the target and
/// appended to it by `finish()`, under a lock: runs sharing one `spool=PATH` never overwrite each
/// other's events. `finish()` then throws a `SinkError` that says how many events were delivered, how
/// many spooled, and where. Delivered plus spooled is always the number of events sent to the sink. A
/// sink that delivered everything leaves no spool file.
///
/// `finish()` or `cancel()` must be called: they stop the delivery thread.
public final class HTTPSink: LifecycleSink, @unchecked Sendable {
    // Safety: every mutable property below `condition` is read and written with `condition` locked.

    public let configuration: HTTPSinkConfiguration
    /// Where undelivered events are kept.
    public let spoolPath: String
    /// The first part of every batch's `Idempotency-Key`.
    public let keyPrefix: String

    private struct Batch {
        var key: String
        var lines: [String]
    }

    private static let spoolsInUse = SpoolRegistry()
    /// Set by `cancel()`: the batch being sent is abandoned at once, as on an interruption.
    private let abandoned = Abandonment()
    private let poster: HTTPPoster
    private let spool: OutputFile
    /// The run's interruption, asked while a request, a backoff or the spool's lock is waited for.
    private let isCancelled: @Sendable () -> Bool
    private let condition = NSCondition()
    private var open: [String] = []
    private var openSince: Date?
    private var queue: [Batch] = []
    private var nextIndex = 0
    private var produced = 0
    private var delivered = 0
    private var spooled = 0
    private var lost = 0
    /// Why delivery stopped (then everything goes to the spool).
    private var failure: String?
    private var interrupted = false
    private var spoolFailure: SinkError?
    /// Where the spooled events are when they could not be appended to `spoolPath`, and why not.
    private var unappended: (path: String, error: SinkError)?
    private var finishing = false
    private var cancelled = false
    private var workerDone = false
    private var finished = false
    private var outcome: SinkError?

    /// Opens the spool file (so that a place to keep undelivered events is known to work before any
    /// event is produced; a symbolic link, FIFO or device there is refused, never followed, and a spool
    /// made here is 0600) and starts the delivery thread. `directory` resolves a relative `spool=`
    /// path; the default spool file is in the working directory. `isCancelled` (the run's interruption)
    /// is asked while a request or a backoff is waited on.
    public init(
        configuration: HTTPSinkConfiguration, directory: String? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(SinkError) {
        self.configuration = configuration
        self.isCancelled = isCancelled
        keyPrefix = configuration.keyPrefix ?? Self.randomPrefix()
        let path = try Self.spoolsInUse.claim(
            configuration.spoolPath.map { FileNames.resolve($0, inFolder: directory) },
            spec: configuration.spec)
        spoolPath = path
        do {
            // Never through a link (issue 49 H9), and its owner's alone: it holds where people were.
            spool = try OutputFile(
                path: path, spec: configuration.spec, permissions: [.ownerReadWrite], appending: true,
                refusingLinks: true)
        } catch {
            Self.spoolsInUse.release(path)
            throw error
        }
        do {
            poster = try HTTPPoster(
                configuration: configuration,
                isCancelled: { [abandoned] in abandoned.happened || isCancelled() })
        } catch {
            spool.discard()
            Self.spoolsInUse.release(path)
            throw error
        }
        let thread = Thread { [self] in work() }
        thread.name = "perimeter-http-sink"
        thread.start()
    }

    /// Parses `spec` (see `HTTPSinkConfiguration`), reads the `auth-env` variable, and opens the sink.
    public convenience init(
        spec: String, directory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws(SinkError) {
        let configuration = try HTTPSinkConfiguration(parsing: spec).resolvingAuthorization(from: environment)
        try self.init(configuration: configuration, directory: directory, isCancelled: isCancelled)
    }

    /// Events the server accepted (a 2xx answer to their batch).
    public var deliveredCount: Int { locked { delivered } }
    /// Events written to the spool file.
    public var spooledCount: Int { locked { spooled } }
    /// Whether delivery stopped because the run was interrupted.
    public var wasInterrupted: Bool { locked { interrupted } }
    /// What was not delivered goes to the spool file, which `finish()` names.
    public var spoolsItself: Bool { true }

    public func send(_ event: GeofenceEvent) throws { try send(line: JSONLines.encode(event)) }

    /// Sends an event read back from a log or a spool file.
    public func send(_ event: WireEvent) throws { try send(line: JSONLines.encode(event)) }

    /// Sends `events` as one batch under `key`, as they were spooled (after the events sent before, whose
    /// open batch is sealed first): a batch the server may have processed keeps its key.
    public func send(batch events: [WireEvent], key: String) throws(SinkError) {
        condition.lock()
        defer { condition.unlock() }
        try refuseAfterFinish()
        produced += events.count
        seal()
        while queue.count >= configuration.maxPendingBatches && failure == nil { condition.wait() }
        queue.append(Batch(key: key, lines: events.map { JSONLines.encode($0) }))
        condition.broadcast()
        if failure != nil { try spoolQueue() }
    }

    private func send(line: String) throws(SinkError) {
        condition.lock()
        defer { condition.unlock() }
        try refuseAfterFinish()
        produced += 1
        if open.isEmpty && failure == nil {
            openSince = Date()
            condition.broadcast()  // the delivery thread arms the flush timer
        }
        open.append(line)
        guard open.count >= configuration.batchSize else { return }
        while queue.count >= configuration.maxPendingBatches && failure == nil { condition.wait() }
        // Meanwhile the delivery thread may have sealed the batch itself, or spooled it after a failure.
        if open.count >= configuration.batchSize { seal() }
        if failure != nil { try spoolQueue() }
    }

    private func refuseAfterFinish() throws(SinkError) {
        guard !finished && !finishing else {
            throw SinkError(spec: configuration.spec, reason: "events were sent after the sink was finished")
        }
    }

    /// After delivery stopped: writes the sealed batches to the spool file. Called with the lock held.
    private func spoolQueue() throws(SinkError) {
        keep(queue)
        queue = []
        if let spoolFailure {
            throw SinkError(
                spec: configuration.spec, path: spoolPath,
                reason:
                    "delivery stopped (\(failure ?? "")) and the spool file failed too: \(spoolFailure.reason); \(delivered) of \(produced) events were delivered, the others are lost"
            )
        }
    }

    /// Delivers what is still open or waiting, then reports: throws when some events were spooled.
    /// A second call reports the same again.
    public func finish() throws {
        let result = stop(cancelling: false)
        if let result { throw result }
    }

    /// Stops at once (a batch being sent is abandoned); what was not delivered goes to the spool file,
    /// which is kept only when it holds events. `finish()` afterwards does nothing.
    public func cancel() { _ = stop(cancelling: true) }

    private func stop(cancelling: Bool) -> SinkError? {
        condition.lock()
        defer { condition.unlock() }
        if finished { return cancelled ? nil : outcome }  // finish() after cancel() does nothing
        if cancelling {
            cancelled = true
            abandoned.mark()
        } else {
            finishing = true
        }
        condition.broadcast()
        while !workerDone { condition.wait() }
        finished = true
        defer { Self.spoolsInUse.release(spoolPath) }
        seal()  // cancelled, or delivery stopped: keep what was not delivered
        keep(queue)
        queue = []
        guard spooled > 0 || lost > 0 else {
            spool.discard()
            return nil
        }
        do {
            try spool.commit(isCancelled: isCancelled)
        } catch {
            let kept = AtomicFile.keptPath(for: spoolPath)
            if spoolFailure == nil && FileCheck.isRegularFile(kept) {
                unappended = (kept, error)  // the events are whole, beside the spool file
            } else {
                if spoolFailure == nil { spoolFailure = error }
                lost += spooled
                spooled = 0
            }
        }
        outcome = report()
        return outcome
    }

    /// The message of a delivery that did not complete.
    private func report() -> SinkError {
        let url = configuration.url.absoluteString
        var reason = "delivered \(delivered) of \(produced) event\(produced == 1 ? "" : "s") to \(url)"
        let keptPath = unappended?.path ?? spoolPath
        if spooled > 0 {
            let command =
                "perimeter deliver \(ShellText.word(keptPath)) --sink \(ShellText.word(configuration.specWithoutSpool))"
            reason +=
                "; the other \(spooled) \(spooled == 1 ? "is" : "are") in the spool file \"\(keptPath)\" (send \(spooled == 1 ? "it" : "them") later with: \(command))"
        }
        if let unappended {
            reason += "; they could not be appended to \"\(spoolPath)\": \(unappended.error.reason)"
        }
        if lost > 0 {
            reason +=
                "; \(lost) event\(lost == 1 ? "" : "s") could not be kept: \(spoolFailure?.reason ?? "the spool file failed")"
        }
        if let failure {
            reason += ". Delivery stopped: \(failure)"
        } else if cancelled {
            reason += ". Delivery was cancelled"
        }
        return SinkError(spec: configuration.spec, path: spooled > 0 ? keptPath : nil, reason: reason)
    }

    // MARK: the delivery thread

    private func work() {
        condition.lock()
        while true {
            if failure != nil || cancelled { break }
            if !queue.isEmpty {
                let batch = queue.removeFirst()
                condition.broadcast()  // room for a blocked producer
                condition.unlock()
                let outcome = poster.post(Self.body(batch.lines), key: batch.key)
                condition.lock()
                switch outcome {
                case .delivered:
                    delivered += batch.lines.count
                case let .failed(problem):
                    stopDelivery("the batch with Idempotency-Key \(batch.key): \(problem)", keeping: batch)
                case .cancelled where cancelled:
                    stopDelivery(
                        "cancelled while the batch with Idempotency-Key \(batch.key) was being sent", keeping: batch)
                case .cancelled:
                    interrupted = true
                    stopDelivery(
                        "interrupted (Ctrl-C or SIGTERM) while the batch with Idempotency-Key \(batch.key) was being sent; no retry was waited out",
                        keeping: batch)
                }
                continue
            }
            if !open.isEmpty {
                let due = (openSince ?? Date()).addingTimeInterval(configuration.flushInterval)
                if finishing || Date() >= due {
                    seal()
                } else {
                    _ = condition.wait(until: due)
                }
                continue
            }
            if finishing { break }
            condition.wait()
        }
        workerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Records why delivery stopped and spools `batch`, the batches waiting and the open one, in order.
    /// Called with the lock held.
    private func stopDelivery(_ reason: String, keeping batch: Batch) {
        failure = reason
        queue.insert(batch, at: 0)
        seal()
        keep(queue)
        queue = []
        condition.broadcast()
    }

    /// Moves the open batch to the queue, under the next key. Called with the lock held.
    private func seal() {
        guard !open.isEmpty else { return }
        queue.append(Batch(key: key(nextIndex), lines: open))
        nextIndex += 1
        open = []
        openSince = nil
        condition.broadcast()
    }

    /// Writes batches to the spool file, each line with its batch's key. Called with the lock held.
    private func keep(_ batches: [Batch]) {
        for batch in batches {
            for line in batch.lines {
                if spoolFailure == nil {
                    do {
                        try spool.write(SpoolLines.line(line, key: batch.key) + "\n")
                        spooled += 1
                        continue
                    } catch {
                        spoolFailure = error
                        lost += spooled  // a failed spool file is discarded with what it held
                        spooled = 0
                    }
                }
                lost += 1
            }
        }
    }

    private func key(_ index: Int) -> String { "\(keyPrefix)-\(index)" }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
