import Geofencing
import WireFormat

/// `jsonl:PATH`: the events as JSON Lines (`JSONLines`, SEMANTICS §7), one object per line.
///
/// In a Monte Carlo batch (`LifecycleSink.beginRun`), each object ends with `"run":N`, the 0-based run. Beside
/// the run's journal it takes the text the journal writes too, made once (`takesJSONLines`).
public final class JSONLinesSink: LifecycleSink {
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
        try output.write(atMost: EventFormatting.bound(of: event) + Self.endBound) { out in
            Self.put(event, run: run, to: &out)
        }
    }

    /// Takes the event's JSON Lines text made once for the run's journal and every `jsonl:` sink.
    public var takesJSONLines: Bool { true }

    public func send(_ event: GeofenceEvent, jsonLine: [UInt8]) throws {
        try jsonLine.withUnsafeBufferPointer { line in
            try output.write(atMost: line.count + Self.endBound) { out in Self.put(line: line, run: run, to: &out) }
        }
    }

    /// The most bytes a line holds beyond its event's members (`EventFormatting.bound(of:)`): its run,
    /// `}` and the line end.
    static let endBound = 32

    /// Writes `event`'s line as this sink does: `{`, the members, `"run":N` in a Monte Carlo batch, `}`
    /// and `\n` (also the run journal's lines). At most `EventFormatting.bound(of:) + endBound` bytes.
    static func put(_ event: GeofenceEvent, run: Int?, to out: inout ByteCursor) {
        out.put(UInt8(ascii: "{"))
        JSONLines.put(membersOf: event, to: &out)
        endObject(run: run, &out)
    }

    /// Writes an event's line from its JSON Lines text (`JSONLines.append`, no line end) with `run`, as
    /// `put(_:run:to:)` does. At most the text's length plus `endBound` bytes.
    static func put(line: UnsafeBufferPointer<UInt8>, run: Int?, to out: inout ByteCursor) {
        out.put(UnsafeBufferPointer(rebasing: line.dropLast()))  // all but its `}`
        endObject(run: run, &out)
    }

    /// Ends the object whose members were just written: its run in a Monte Carlo batch, `}`, and the line.
    private static func endObject(run: Int?, _ out: inout ByteCursor) {
        if let run {
            out.put(",\"run\":")
            out.put(integer: run)
        }
        out.put(UInt8(ascii: "}"))
        out.put(UInt8(ascii: "\n"))
    }

    public func beginRun(_ number: Int, _ run: RunDescription) throws { self.run = number }

    public func finish() throws { try output.commit() }

    public func cancel() { output.discard() }

    public func markStoppedEarly() { output.markStoppedEarly() }
    public var keptBesideNotes: [String] { output.keptBesideNote.map { [$0] } ?? [] }
}

extension JSONLinesSink {
    /// `jsonl:PATH`.
    public static let kind = SinkKind(
        schemes: ["jsonl"], target: .path, form: "jsonl:PATH", tellsRunsApart: true,
        recognizes: OutputRecognition.isEventLines, fileExtensions: [".jsonl"]
    ) {
        spec, context throws(SinkError) in
        JSONLinesSink(
            output: try OutputFile(
                path: context.resolve(spec.path ?? "-"), spec: spec.text, refusingLinks: context.refusesLinks))
    }
}
