import Geofencing
import WireFormat

/// CSV per RFC 4180: a header, then one record per event, CRLF line ends; a field is quoted when it
/// holds a comma, a quote, CR, LF, or a byte a shell acts on (`EventFormatting.csvQuotes`: `;`, `|`, a
/// space…; quotes doubled), and empty where the event's kind has no value.
/// Numbers and times are written as in JSON Lines (`EventFormatting`).
///
/// ```
/// time,device,region,kind,lat,lon,distance,crossedAt,arrival,departure,duration,rule,detectedAt
/// 2016-01-10T12:03:10.000Z,phone,cafe,enter,37.7,-121.7,-12.5,2016-01-10T12:03:05.000Z,,,,,
/// ```
///
/// In a Monte Carlo batch (`LifecycleSink.beginRun`), a last column `run` holds the 0-based run.
public final class CSVSink: LifecycleSink {
    private let output: OutputFile
    private var wroteHeader = false
    /// The Monte Carlo run whose events are being sent, if any.
    private var run: Int?

    private var header: String {
        run == nil ? CSVRecords.header : (CSVRecords.columns + ["run"]).joined(separator: ",") + "\r\n"
    }

    /// Writes to `output` (a file replaced on `finish()`, or standard output).
    public init(output: OutputFile) { self.output = output }

    /// Writes to the file at `path` (`-`: standard output), replacing it atomically on `finish()`.
    public convenience init(path: String, spec: String? = nil) throws(SinkError) {
        self.init(output: try OutputFile(path: path, spec: spec ?? "csv:\(path)"))
    }

    public func beginRun(_ number: Int, _ run: RunDescription) throws { self.run = number }

    public func send(_ event: GeofenceEvent) throws {
        if !wroteHeader {
            try output.write(header)
            wroteHeader = true
        }
        // Formatted straight into the output's buffer: the record, its run in a batch, CRLF.
        try output.write(atMost: EventFormatting.bound(of: event) + 32) { out in
            CSVRecords.put(event, to: &out)
            if let run {
                out.put(UInt8(ascii: ","))
                out.put(integer: run)
            }
            out.put("\r\n")
        }
    }

    /// Writes the header even when there were no events, then commits.
    public func finish() throws {
        if !wroteHeader {
            try output.write(header)
            wroteHeader = true
        }
        try output.commit()
    }

    public func cancel() { output.discard() }

    public func markStoppedEarly() { output.markStoppedEarly() }
    public var keptBesideNotes: [String] { output.keptBesideNote.map { [$0] } ?? [] }
}

extension CSVSink {
    /// `csv:PATH`.
    public static let kind = SinkKind(
        schemes: ["csv"], target: .path, form: "csv:PATH", tellsRunsApart: true, recognizes: OutputRecognition.isEventCSV,
        fileExtensions: [".csv"]
    ) {
        spec, context throws(SinkError) in
        CSVSink(
            output: try OutputFile(
                path: context.resolve(spec.path ?? "-"), spec: spec.text, refusingLinks: context.refusesLinks))
    }
}
