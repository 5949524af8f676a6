import Documents
import FileSystem
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
    /// deserves a look (a ring that crosses itself), each starting with its file and line. `idProperty`
    /// names the property each feature's id comes from, given by the command's `option` (`inspect
    /// --id-property`), which its messages name.
    public static func load(
        path: String, idProperty: String? = nil, option: String? = nil, warnings: inout [String]
    ) throws(ScenarioErrors) -> [Region] {
        let diagnostics = ProblemLog()
        let placed = read(
            path, defaults: MonitorOverrides(), diagnostics: diagnostics, idProperty: idProperty, option: option)
        checkUniqueIDs(placed)
        if diagnostics.hasErrors { throw ScenarioErrors(diagnostics.errors) }
        warnings += diagnostics.warnings
        return placed.map(\.region)
    }

    /// The regions of the file at `path` (already resolved), recording errors with the file's own places.
    /// Read as JSON (`JSONReader`), a FeatureCollection one feature at a time: memory holds the file's
    /// bytes and the regions, not a tree of the document.
    /// `direct` false reads every feature as nodes (`JSONReader.direct`), for tests. `idProperty` names the
    /// property each feature's id comes from (a `geojson:` entry's `idProperty:`); features numbered by
    /// their own `id` (geojson.io's 0, 1, 2…) get one warning a file (`FeatureIDs`).
    /// With `skipped`, a feature that cannot be read is left out and said there (`skip: invalid`, for
    /// files nobody here wrote: Natural Earth's Antarctica); without, its polygon errors name it.
    static func read(
        _ path: String, defaults: MonitorOverrides, diagnostics: ProblemLog, direct: Bool = true,
        skipped: SkippedFeatures? = nil, idProperty: String? = nil, option: String? = nil
    ) -> [PlacedRegion] {
        let ids = FeatureIDs(idProperty: idProperty, diagnostics: diagnostics, option: option)
        defer { ids.warn() }
        func fail(_ line: Int32, _ column: Int32, _ message: String) {
            diagnostics.error(ScenarioError(file: path, keyPath: "", line: Int(line), column: Int(column), message: message))
        }
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: maximumSize)
        } catch let .tooLarge(size, _) {
            fail(
                0, 0,
                "cannot read GeoJSON: the file is \(size >> 20) MB; region files over \(maximumSize >> 20) MB are refused. Split the regions over several GeoJSON files"
            )
            return []
        } catch {
            fail(0, 0, "cannot read GeoJSON: \(error)")
            return []
        }
        let bareID = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let features = PlacedNode(node: .alias(.unknown), path: "features", file: path, diagnostics: diagnostics)
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            reader.direct = direct && idProperty == nil  // the fast way reads properties.id only
            var regions: [PlacedRegion] = []
            do throws(JSONReader.SyntaxError) {
                let streamed = try reader.forEachFeature(defaults: defaults) { feature, index in
                    switch feature {
                    case let .direct(direct):
                        if direct.numberedID { ids.noteOtherNumber() }
                        regions.append(direct.placed(at: features.element(index, .alias(direct.mark))))
                    case let .node(node):
                        if let region = readFeature(
                            node, index, path: path, defaults: defaults, diagnostics: diagnostics,
                            skipped: skipped, ids: ids)
                        {
                            regions.append(region)
                        }
                    }
                }
                if streamed { return regions }
                guard let root = try reader.document() else {
                    fail(0, 0, "the file is empty; expected GeoJSON")
                    return []
                }
                let cursor = PlacedNode(node: root, path: "", file: path, diagnostics: diagnostics)
                return GeoJSON.regions(root: cursor, defaults: defaults, bareID: bareID, ids: ids)
            } catch {
                fail(error.mark.line, error.mark.column, error.message)
                return []
            }
        }
    }

    /// One feature read the general way, its errors kept apart first: when it cannot be read it is skipped
    /// (into `skipped`), or its errors are recorded, a polygon's naming the feature and `skip: invalid`.
    private static func readFeature(
        _ node: DocumentNode, _ index: Int, path: String, defaults: MonitorOverrides,
        diagnostics: ProblemLog, skipped: SkippedFeatures?, ids: FeatureIDs
    ) -> PlacedRegion? {
        let own = ProblemLog(warningsTo: diagnostics)
        let cursor = PlacedNode(node: node, path: "features[\(index)]", file: path, diagnostics: own)
        let region = GeoJSON.feature(cursor, defaults: defaults, ids: ids)
        guard let first = own.errors.first else {
            // Its id's later problems (used twice: `checkUniqueIDs`) go to the whole load's log.
            return region.map { PlacedRegion(region: $0.region, origin: $0.origin.reporting(to: diagnostics)) }
        }
        let label = GeoJSON.label(of: cursor)
        if let skipped {
            skipped.features.append("\(label) at \(first.line):\(first.column): \(first.message)")
            return nil
        }
        for var error in own.errors {
            if error.message.hasPrefix("invalid polygon") || error.message.hasPrefix("invalid MultiPolygon") {
                error.message +=
                    " It is in feature \(label); skip: invalid on the geojson: entry loads the other "
                    + "features without it."
            }
            diagnostics.error(error)
        }
        return nil
    }

    /// The features a `skip: invalid` entry left out, each with its first problem.
    final class SkippedFeatures {
        var features: [String] = []
    }

    /// The largest region file read: 1 GiB. JSON is read from its bytes without a document tree (a
    /// FeatureCollection one feature at a time), so memory is about the file's size plus its regions.
    static let maximumSize: Int64 = 1 << 30

    /// Reports every region whose id an earlier one already has, naming both places.
    static func checkUniqueIDs(_ regions: [PlacedRegion]) {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(regions.count)
        for (index, placed) in regions.enumerated() {
            let id = placed.region.id
            if let firstIndex = seen[id] {
                let first = regions[firstIndex].origin
                let firstPath = first.path.isEmpty ? "" : " (\(first.path))"
                placed.origin.fail(
                    "region id \"\(id)\" is already used by the region at \(first.place)\(firstPath); region ids must be unique in a scenario"
                )
            } else {
                seen[id] = index
            }
        }
    }
}
