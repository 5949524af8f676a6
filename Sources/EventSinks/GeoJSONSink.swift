import Geofencing
import WireFormat

/// A GeoJSON FeatureCollection (RFC 7946), written as a stream: one Point feature per event and per
/// line, `coordinates: [lon, lat]`, the other wire fields as `properties` in wire order. Valid JSON with
/// zero events too.
///
/// ```
/// {"type":"FeatureCollection","features":[
/// {"type":"Feature","geometry":{"type":"Point","coordinates":[-121.7,37.7]},"properties":{"time":…}},
/// …
/// ]}
/// ```
public final class GeoJSONSink: LifecycleSink {
    static let opening: StaticString = "{\"type\":\"FeatureCollection\",\"features\":[\n"
    static let closing: StaticString = "]}\n"

    private let output: OutputFile
    private var count = 0

    /// Writes to `output` (a file replaced on `finish()`, or standard output).
    public init(output: OutputFile) { self.output = output }

    /// Writes to the file at `path` (`-`: standard output), replacing it atomically on `finish()`.
    public convenience init(path: String, spec: String? = nil) throws(SinkError) {
        self.init(output: try OutputFile(path: path, spec: spec ?? "geojson:\(path)"))
    }

    public func send(_ event: GeofenceEvent) throws {
        let first = count == 0
        count += 1
        try output.write(atMost: EventFormatting.bound(of: event) + Self.opening.utf8CodeUnitCount) { out in
            out.put(first ? Self.opening : ",\n")
            Self.put(event, to: &out)
        }
    }

    public func finish() throws {
        try output.write(atMost: Self.opening.utf8CodeUnitCount + Self.closing.utf8CodeUnitCount) { out in
            out.put(count == 0 ? Self.opening : "\n")
            out.put(Self.closing)
        }
        try output.commit()
    }

    public func cancel() { output.discard() }

    public func markStoppedEarly() { output.markStoppedEarly() }
    public var keptBesideNotes: [String] { output.keptBesideNote.map { [$0] } ?? [] }

    /// The event as one GeoJSON Feature object, on one line.
    public static func feature(_ event: GeofenceEvent) -> String {
        var bytes: [UInt8] = []
        EventFormatting.append(atMost: EventFormatting.bound(of: event), to: &bytes) { put(event, to: &$0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the event as one GeoJSON Feature object, on one line, with `out` (which has room for
    /// `EventFormatting.bound(of: event)` bytes: the members' bound leaves more than the feature's keys).
    static func put(_ event: GeofenceEvent, to out: inout ByteCursor) {
        out.put("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
        out.put(number: event.coordinate.longitude)
        out.put(UInt8(ascii: ","))
        out.put(number: event.coordinate.latitude)
        out.put("]},\"properties\":{")
        JSONLines.put(membersOf: event, includePosition: false, to: &out)
        out.put("}}")
    }
}

extension GeoJSONSink {
    /// `geojson:PATH`.
    public static let kind = SinkKind(
        schemes: ["geojson"], target: .path, form: "geojson:PATH",
        recognizes: { OutputRecognition.starts($0, with: "\(GeoJSONSink.opening)") }, fileExtensions: [".geojson"]
    ) {
        spec, context throws(SinkError) in
        GeoJSONSink(
            output: try OutputFile(
                path: context.resolve(spec.path ?? "-"), spec: spec.text, refusingLinks: context.refusesLinks))
    }
}
