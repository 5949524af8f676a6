import Foundation
import Time

extension OutputFile {
    /// A file name unique to this process and second, for spool files and run journals:
    /// `STEM-20161001T120000Z-4242.jsonl` (UTC).
    public static func uniqueName(
        stem: String, at date: Date = Date(),
        pid: Int32 = ProcessInfo.processInfo.processIdentifier
    ) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let iso = Timestamp(microsecondsSince1970: seconds * 1_000_000).iso8601  // 2016-10-01T12:00:00.000Z
        let stamp = iso.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
        return "\(stem)-\(stamp)-\(pid).jsonl"
    }
}
