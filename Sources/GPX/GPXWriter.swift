import FileSystem
import Geodesy
import TextEscaping
import Time

/// Writes a GPX 1.1 file as it goes, in bounded memory: waypoints (Xcode's untimed format) and/or one or
/// more tracks of segments of points. Coordinates have 7 decimal places (about 1 cm), times are UTC
/// ISO 8601 with milliseconds, text is XML-escaped. What it writes reads back through `GPXTrack.load`
/// with the same points.
///
/// The file is written beside its target and renamed over it by `finish()`, so a failed or abandoned
/// write never leaves a half file in its place. `-` as the path writes to standard output.
///
/// GPX 1.1 puts every `<wpt>` before the first `<trk>`: a waypoint after a track is a programming error.
public final class GPXWriter {
    public let path: String
    /// The file being replaced, or nil for standard output.
    private let file: AtomicFile?
    private var buffer: [UInt8] = []
    private var inTrack = false
    private var inSegment = false
    private var wroteTrack = false
    private var finished = false

    /// Opens the output and writes the GPX header. `creator` goes into the `creator` attribute.
    public init(path: String, creator: String = "Perimeter") throws(GPXError) {
        self.path = path
        if path == "-" {
            file = nil
        } else {
            do {
                file = try AtomicFile(replacing: path)
            } catch {
                throw GPXError(file: path, line: 0, column: 0, message: "cannot write the GPX file: \(error.cause)")
            }
        }
        buffer.reserveCapacity(1 << 16)
        append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        append(
            "<gpx version=\"1.1\" creator=\"\(XMLEscaping.attribute(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        )
    }

    deinit {
        if !finished { file?.discard() }
    }

    /// A `<wpt>`, with an optional `<time>` and `<name>`. Only before the first track.
    public func waypoint(_ coordinate: Coordinate, time: Timestamp? = nil, name: String? = nil) throws(GPXError) {
        precondition(!wroteTrack, "GPX 1.1 puts waypoints before tracks")
        append("  <wpt lat=\"\(Self.fixed7(coordinate.latitude))\" lon=\"\(Self.fixed7(coordinate.longitude))\">")
        if let time { append("<time>\(time.iso8601)</time>") }
        // Names are escaped as attributes (quotes too): valid in element text, and the same rule everywhere.
        if let name { append("<name>\(XMLEscaping.attribute(name))</name>") }
        append("</wpt>\n")
        try flushIfFull()
    }

    /// Opens a `<trk>`, closing any open one.
    public func beginTrack(name: String? = nil) throws(GPXError) {
        try endTrack()
        inTrack = true
        wroteTrack = true
        append("  <trk>\n")
        if let name { append("    <name>\(XMLEscaping.attribute(name))</name>\n") }
    }

    /// Opens a `<trkseg>` in the current track (opening a track when none is open).
    public func beginSegment() throws(GPXError) {
        if !inTrack { try beginTrack() }
        endSegment()
        inSegment = true
        append("    <trkseg>\n")
    }

    /// A `<trkpt>` in the current segment (opening one when none is open).
    public func trackPoint(_ coordinate: Coordinate, time: Timestamp?) throws(GPXError) {
        if !inSegment { try beginSegment() }
        append("      <trkpt lat=\"\(Self.fixed7(coordinate.latitude))\" lon=\"\(Self.fixed7(coordinate.longitude))\">")
        if let time { append("<time>\(time.iso8601)</time>") }
        append("</trkpt>\n")
        try flushIfFull()
    }

    public func endSegment() {
        guard inSegment else { return }
        append("    </trkseg>\n")
        inSegment = false
    }

    public func endTrack() throws(GPXError) {
        guard inTrack else { return }
        endSegment()
        append("  </trk>\n")
        inTrack = false
        try flushIfFull()
    }

    /// Closes the document and the file, and puts the file in place.
    public func finish() throws(GPXError) {
        guard !finished else { return }
        try endTrack()
        append("</gpx>\n")
        try flush()
        finished = true
        do {
            try file?.commit()
        } catch {
            throw GPXError(file: path, line: 0, column: 0, message: "cannot put the GPX file in place: \(error.cause)")
        }
    }

    // MARK: Output

    private func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    private func flushIfFull() throws(GPXError) {
        if buffer.count >= 1 << 16 { try flush() }
    }

    private func flush() throws(GPXError) {
        guard !buffer.isEmpty, !finished else { return }
        var failure: FileError?
        buffer.withUnsafeBytes { raw in
            do throws(FileError) {
                if let file { try file.write(raw) } else { try StandardOutput.write(raw) }
            } catch {
                failure = error
            }
        }
        if let failure {
            throw GPXError(file: path, line: 0, column: 0, message: "cannot write the GPX file: \(failure.cause)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Formatting

    /// `value` with exactly 7 decimal places, rounded half away from zero: `59.9343000`, `-0.0000001`.
    public static func fixed7(_ value: Double) -> String {
        let scaled = (value * 10_000_000).rounded()
        let negative = scaled < 0
        let magnitude = UInt64(abs(scaled))
        let whole = magnitude / 10_000_000, fraction = magnitude % 10_000_000
        let digits = String(fraction)
        return (negative ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 7 - digits.count) + digits
    }
}
