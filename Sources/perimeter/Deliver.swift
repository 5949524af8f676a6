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
        commandName: "deliver",
        abstract:
            "Sends the events of a spool file (an HTTP sink's, or a run's journal kept for a failed sink) to an HTTP sink.",
        discussion: """
            The spool file is JSON Lines, of any size: it is read twice, in chunks, with bounded memory. \
            Every line is checked first, so a bad line (exit 2, naming its line and column) sends nothing; \
            then the events are sent batch by batch. A spool line carries the Idempotency-Key of its batch \
            ("idempotencyKey", the last member): the lines of one batch are sent again as that batch, under \
            that key, so a server that deduplicates by key takes a batch it already processed once. Lines \
            without a key (a journal, a spool of an earlier version) are batched with the key \
            spool-<hash of the file and the batch size>-<batch index>: delivering the same file again \
            reuses the keys. Exit 0 when every event was delivered; 3 when some were not (they are written \
            to a new spool file, named in the message); 2 for a bad file or sink, or a sink whose spool= is \
            the file being delivered; 130 when Ctrl-C or SIGTERM stopped it (what was not delivered is \
            spooled, as for 3).
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
            throw ExitCode.badInput
        }
        guard spec.path == nil, HTTPSink.kind.schemes.contains(spec.scheme) else {
            StandardError.error("sink \(sink): deliver sends to an HTTP sink; give --sink http://… or https://…")
            throw ExitCode.badInput
        }
        let file: SpoolFile
        do {
            file = try SpoolFile(path: spool)
            try file.check(longestBatch: HTTPSinkConfiguration.largestBatch)
        } catch {
            StandardError.error(error.description)
            throw ExitCode.badInput
        }
        let interruption = Interruption()
        let output: HTTPSink
        do {
            var configuration = try HTTPSinkConfiguration(parsing: spec.text).resolvingAuthorization()
            try refuseSpoolingInto(file, configuration)
            configuration.keyPrefix = file.keyPrefix(batchSize: configuration.batchSize)
            output = try HTTPSink(configuration: configuration, isCancelled: { interruption.happened })
        } catch let error as SpoolIsInput {
            StandardError.error(error.description)
            throw ExitCode.badInput
        } catch {
            StandardError.error("\(error)" + "; nothing was sent.")
            throw ExitCode.sinkFailed
        }
        do {
            try send(file, to: output)
            try output.finish()
        } catch {
            output.cancel()
            throw RunFailure.sinkFailed(["\(error)"]).reported(interrupted: interruption.happened)
        }
        if !quiet {
            let n = file.eventCount
            StandardError.note("perimeter: delivered \(n) event\(n == 1 ? "" : "s") from \(spool) to \(spec.text)")
        }
    }

    /// A sink whose `spool=` is the file being delivered (G4 of issue 37): what is left would be appended to
    /// the input, doubling it at every failed retry.
    struct SpoolIsInput: Error, CustomStringConvertible {
        var spec: String
        var spool: String
        var description: String {
            "sink \(spec): spool=\(spool) names the file being delivered, so the events it could "
                + "not deliver would be appended to the file they came from, which would double at every failed "
                + "try; drop spool= (what is left then goes to a new spool file, which the message names) or "
                + "give another file; nothing was sent."
        }
    }

    /// Throws `SpoolIsInput` when the sink's spool file is `file` (the same device and inode, whatever
    /// the names: `./s.jsonl`, a hard or symbolic link).
    private func refuseSpoolingInto(_ file: SpoolFile, _ configuration: HTTPSinkConfiguration) throws {
        guard let named = configuration.spoolPath, let input = file.identity,
            case let .success(status) = FileCheck.status(of: named),
            UInt64(status.rawValue.st_dev) == input.device && UInt64(status.rawValue.st_ino) == input.inode
        else { return }
        throw SpoolIsInput(spec: configuration.spec, spool: named)
    }

    /// Sends each run of consecutive lines with one key as that batch, and the lines without a key one by
    /// one (the sink batches them). Memory: one spooled batch.
    private func send(_ file: SpoolFile, to output: HTTPSink) throws {
        var batch: [WireEvent] = []
        var batchKey: String?
        try file.forEachRecord { event, key in
            if let batchKey, key != batchKey {
                try output.send(batch: batch, key: batchKey)
                batch.removeAll(keepingCapacity: true)
            }
            batchKey = key
            if key == nil {
                try output.send(event)
            } else {
                batch.append(event)
            }
        }
        if let batchKey { try output.send(batch: batch, key: batchKey) }
    }
}
