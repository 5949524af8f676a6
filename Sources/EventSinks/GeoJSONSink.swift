import Geodesy
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
public final class GeoJSONSink: CancellableEventSink {
    static let opening = "{\"type\":\"FeatureCollection\",\"features\":[\n"
    static let closing = "]}\n"

    private let output: OutputFile
    private var count = 0

    /// Writes to `output` (a file replaced on `finish()`, or standard output).
    public init(output: OutputFile) { self.output = output }

    /// Writes to the file at `path` (`-`: standard output), replacing it atomically on `finish()`.
    public convenience init(path: String, spec: String? = nil) throws(SinkError) {
        self.init(output: try OutputFile(path: path, spec: spec ?? "geojson:\(path)"))
    }

    public func send(_ event: GeofenceEvent) throws {
        var text = count == 0 ? Self.opening : ",\n"
        text.append(Self.feature(event))
        count += 1
        try output.write(text)
    }

    public func finish() throws {
        try output.write(count == 0 ? Self.opening + Self.closing : "\n" + Self.closing)
        try output.commit()
    }

    public func cancel() { output.discard() }

    /// The event as one GeoJSON Feature object, on one line.
    public static func feature(_ event: GeofenceEvent) -> String { feature(WireEvent(event)) }

    /// The wire event as one GeoJSON Feature object, on one line.
    public static func feature(_ event: WireEvent) -> String {
        var text = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
        text.append(EventFormatting.number(event.lon) ?? "null")
        text.append(",")
        text.append(EventFormatting.number(event.lat) ?? "null")
        text.append("]},\"properties\":{")
        EventFormatting.appendJSONMembers(of: event, includePosition: false, to: &text)
        text.append("}}")
        return text
    }
}

extension GeoJSONSink {
    /// `geojson:PATH`.
    public static let kind = SinkKind(schemes: ["geojson"], target: .path, form: "geojson:PATH") { spec, context throws(SinkError) in
        GeoJSONSink(output: try OutputFile(path: context.resolve(spec.path ?? "-"), spec: spec.text))
    }
}
