import ArgumentParser
import EventSinks
import EventSinksHTTP
import FileSystem
import Runs
import WireFormat

/// `perimeter deliver SPOOL --sink URL`: sends a spool file's events (an HTTP sink's, or a run journal
/// that `run` kept for a failed sink) to an HTTP sink, with the batching, retry and idempotency rules of `run`.
struct Deliver: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Sends the events of a spool file (an HTTP sink's, or a run's journal kept for a failed sink) to an HTTP sink.",
        discussion: """
            The spool file is JSON Lines; it is read whole first, so a bad line (exit 2) sends nothing. A \
            spool line carries the Idempotency-Key of its batch ("idempotencyKey", the last member): the \
            lines of one batch are sent again as that batch, under that key, so a server that deduplicates by \
            key takes a batch it already processed once. Lines without a key (a journal, a spool of an \
            earlier version) are batched with the key spool-<hash of the file and the batch size>-<batch \
            index>: delivering the same file again reuses the keys. Exit 0 when every event was delivered; 3 \
            when some were not (they are written to a new spool file, named in the message); 2 for a bad file \
            or sink; 130 when Ctrl-C or SIGTERM stopped it (what was not delivered is spooled, as for 3).
            """
    )

    @Argument(help: "The spool file (JSON Lines).")
    var spool: String

    @Option(help: ArgumentHelp("The HTTP sink: URL[;key=value]... (as for run).", valueName: "url"))
    var sink: String

    @Flag(help: "Print no summary on standard error.")
    var quiet = false

    func run() throws {
        let spec: SinkSpec
        do {
            spec = try Perimeter.sinks.spec(parsing: sink)
        } catch {
            StandardError.error(error.description)
            throw ExitCode(Exit.badInput)
        }
        guard spec.path == nil, HTTPSink.kind.schemes.contains(spec.scheme) else {
            StandardError.error("sink \(sink): deliver sends to an HTTP sink; give --sink http://… or https://…")
            throw ExitCode(Exit.badInput)
        }
        let file: EventLogFile
        do {
            file = try EventLogFile(path: spool, asSpool: true)
        } catch {
            StandardError.error(error.description)
            throw ExitCode(Exit.badInput)
        }
        let interruption = Interruption()
        let output: HTTPSink
        do {
            var configuration = try HTTPSinkConfiguration(parsing: spec.text).resolvingAuthorization()
            configuration.keyPrefix = file.keyPrefix(batchSize: configuration.batchSize)
            output = try HTTPSink(configuration: configuration, isCancelled: { interruption.happened })
        } catch {
            StandardError.error(error.description + "; nothing was sent.")
            throw ExitCode(Exit.sinkFailed)
        }
        do {
            try send(file, to: output)
            try output.finish()
        } catch {
            output.cancel()
            StandardError.error("\(error)")
            if interruption.happened {
                Exit.noteInterruptedDelivery()
                throw ExitCode(Exit.interrupted)
            }
            throw ExitCode(Exit.sinkFailed)
        }
        if !quiet {
            let n = file.events.count
            StandardError.note("perimeter: delivered \(n) event\(n == 1 ? "" : "s") from \(spool) to \(spec.text)")
        }
    }

    /// Sends each run of consecutive lines with one key as that batch, and the lines without a key one by
    /// one (the sink batches them).
    private func send(_ file: EventLogFile, to output: HTTPSink) throws {
        var start = 0
        while start < file.events.count {
            guard let key = file.keys[start] else {
                try output.send(file.events[start])
                start += 1
                continue
            }
            var end = start + 1
            while end < file.events.count && file.keys[end] == key { end += 1 }
            try output.send(batch: Array(file.events[start..<end]), key: key)
            start = end
        }
    }
}
