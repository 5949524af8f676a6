import Foundation
import Geofencing

/// A GeoJSON region file on its own, as `perimeter validate` checks a `.geojson`.
public enum RegionFile {
    /// The file's regions in order, or every problem found in it.
    public static func load(path: String) throws(ScenarioErrors) -> [Region] {
        var warnings: [String] = []
        return try load(path: path, warnings: &warnings)
    }

    /// The file's regions in order, or every problem found in it; `warnings` gets what loaded but
    /// deserves a look (a ring that crosses itself), each starting with its file and line.
    public static func load(path: String, warnings: inout [String]) throws(ScenarioErrors) -> [Region] {
        let diagnostics = ProblemLog()
        let placed = read(path, defaults: RegionOverrides(), diagnostics: diagnostics)
        checkUniqueIDs(placed)
        if diagnostics.hasErrors { throw ScenarioErrors(diagnostics.errors) }
        warnings += diagnostics.warnings
        return placed.map(\.region)
    }

    /// The regions of the file at `path` (already resolved), recording errors with the file's own places.
    static func read(_ path: String, defaults: RegionOverrides, diagnostics: ProblemLog) -> [PlacedRegion] {
        guard let root = YAMLDocument.compose(path, what: "GeoJSON", diagnostics: diagnostics) else { return [] }
        let cursor = PlacedNode(node: root, path: "", file: path, diagnostics: diagnostics)
        let bareID = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return GeoJSON.regions(root: cursor, defaults: defaults, bareID: bareID)
    }

    /// Reports every region whose id an earlier one already has, naming both places.
    static func checkUniqueIDs(_ regions: [PlacedRegion]) {
        var seen: [String: PlacedNode] = [:]
        for placed in regions {
            let id = placed.region.id
            if let first = seen[id] {
                let firstPath = first.path.isEmpty ? "" : " (\(first.path))"
                placed.origin.fail("region id \"\(id)\" is already used by the region at \(first.place)\(firstPath); region ids must be unique in a scenario")
            } else {
                seen[id] = placed.origin
            }
        }
    }
}
