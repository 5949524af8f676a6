import Geodesy
import Geofencing
import WireFormat

/// `jsonl:PATH`: the events as JSON Lines (`JSONLines`, SEMANTICS §7), one object per line.
///
/// In a Monte Carlo batch (`RunNumberingSink`), each object ends with `"run":N`, the 0-based run. Beside
/// the run's journal it takes the text the journal writes too, made once (`JSONLineTaking`).
public final class JSONLinesSink: CancellableEventSink, RunNumberingSink, JSONLineTaking {
    private let output: OutputFile
    /// The Monte Carlo run whose events are being sent, if any.
    private var run: Int?

    /// Writes to `output` (a file replaced on `finish()`, or standard output).
    public init(output: OutputFile) { self.output = output }

    /// Writes to the file at `path` (`-`: standard output), replacing it atomically on `finish()`.
    public convenience init(path: String, spec: String? = nil) throws(SinkError) {
        self.init(output: try OutputFile(path: path, spec: spec ?? "jsonl:\(path)"))
    }

    public func send(_ event: GeofenceEvent) throws {
        try output.write { out in
            JSONLines.append(event, to: &out)
            endLine(&out)
        }
    }

    public func send(_ event: GeofenceEvent, jsonLine: [UInt8]) throws {
        try output.write { out in
            out.append(contentsOf: jsonLine)
            endLine(&out)
        }
    }

    /// Ends the object just written with its run in a Monte Carlo batch, and ends the line.
    private func endLine(_ out: inout [UInt8]) {
        if let run {
            out.removeLast()
            EventFormatting.append(",\"run\":", to: &out)
            out.append(contentsOf: String(run).utf8)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "\n"))
    }

    public func beginRun(_ number: Int, _ run: RunDescription) throws { self.run = number }

    public func finish() throws { try output.commit() }

    public func cancel() { output.discard() }
}

extension JSONLinesSink {
    /// `jsonl:PATH`.
    public static let kind = SinkKind(schemes: ["jsonl"], target: .path, form: "jsonl:PATH") { spec, context throws(SinkError) in
        JSONLinesSink(output: try OutputFile(path: context.resolve(spec.path ?? "-"), spec: spec.text))
    }
}

/// A sink that writes each event as its JSON Lines text (`JSONLines.encode`) and can take that text made
/// once for every part of a run that writes it: `FanOutSink` encodes each event once for the `jsonl:`
/// sinks and the run's journal together.
public protocol JSONLineTaking: EventSink {
    /// Receives one event with its JSON Lines text as UTF-8 bytes (no line end).
    func send(_ event: GeofenceEvent, jsonLine: [UInt8]) throws
}
