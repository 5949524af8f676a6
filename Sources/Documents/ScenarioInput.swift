/// A file a scenario reads besides itself: a device's GPX track, a fix table, a GeoJSON region file or a
/// profile file.
/// `perimeter check` records their digests beside a golden log, to say which of them changed since.
public struct ScenarioInput: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case track, table, regions, profile
    }

    public var kind: Kind
    /// The path as the scenario writes it (relative to the scenario's folder): the same wherever the
    /// check runs from.
    public var written: String
    /// The path resolved beside the scenario, for reading it.
    public var resolved: String

    public init(kind: Kind, written: String, resolved: String) {
        self.kind = kind
        self.written = written
        self.resolved = resolved
    }
}
