import Foundation
import SystemPackage

/// Apache Parquet files, recognised so that a fix table or a field log in Parquet gets a sentence saying
/// what to do instead of a parse error: Perimeter reads CSV and JSON Lines, and Parquet goes through
/// `Scripts/parquet-rows.py` (pyarrow) or DuckDB on the way in (README "Fix tables and field logs in
/// Parquet"). A Parquet file starts and ends with the 4 bytes `PAR1` (the format's specification).
public enum ParquetFile {
    /// The magic bytes at a Parquet file's start and end: `PAR1`.
    public static let magic: [UInt8] = Array("PAR1".utf8)

    /// Whether `bytes` (a file's first bytes) start as a Parquet file does. O(1).
    public static func starts(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: magic) }

    /// What to do with the Parquet input at `path` (a file or a folder of parts; nil for standard input):
    /// a sentence naming the recipe, for an error that names the input before it.
    public static func advice(for path: String?) -> String {
        let source = path ?? "FILE.parquet"
        return "this is Apache Parquet, which Perimeter does not read: convert it with "
            + "python3 Scripts/parquet-rows.py \(source) > rows.csv (pyarrow; a partitioned folder too), or pipe "
            + "that into perimeter stream or --observed - (README \"Fix tables and field logs in Parquet\")."
    }

    /// Whether `path` names Parquet by its look: a name ending .parquet or .parq, a folder holding such
    /// files (a partitioned data set, at any depth up to 4), or a regular file starting with `PAR1`.
    /// Reads at most 4 bytes of a file. O(entries of a folder).
    public static func isParquet(path: String) -> Bool {
        let lower = path.lowercased()
        if lower.hasSuffix(".parquet") || lower.hasSuffix(".parq") { return true }
        if FileCheck.isDirectory(path) { return folderHoldsParquet(path, depth: 4) }
        guard FileCheck.isRegularFile(path),
            let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        else { return false }
        defer { try? fd.close() }
        var first = [UInt8](repeating: 0, count: magic.count)
        let count = (try? first.withUnsafeMutableBytes { try fd.read(into: $0) }) ?? 0
        return count == magic.count && starts(first)
    }

    private static func folderHoldsParquet(_ path: String, depth: Int) -> Bool {
        guard depth > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        for entry in entries.sorted().prefix(1000) where !entry.hasPrefix(".") {
            let child = path.hasSuffix("/") ? path + entry : path + "/" + entry
            let lower = entry.lowercased()
            if lower.hasSuffix(".parquet") || lower.hasSuffix(".parq") { return true }
            if FileCheck.isDirectory(child), folderHoldsParquet(child, depth: depth - 1) { return true }
        }
        return false
    }
}
