import EventSinks
import Foundation

/// The spool files of the open HTTP sinks of this process: two sinks never share one. A default name
/// already taken gets `-2`, `-3`… before `.jsonl`; an explicit `spool=` already taken is an error.
final class SpoolRegistry: @unchecked Sendable {
    // Safety: `paths` is guarded by `lock`.
    private let lock = NSLock()
    private var paths: Set<String> = []

    func claim(_ explicit: String?, spec: String) throws(SinkError) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let explicit {
            guard paths.insert(explicit).inserted else {
                throw SinkError(
                    spec: spec, path: explicit,
                    reason:
                        "another HTTP sink already keeps its undelivered events in \"\(explicit)\"; give each its own spool=PATH"
                )
            }
            return explicit
        }
        let name = HTTPSinkConfiguration.defaultSpoolName()
        var candidate = name
        var n = 1
        while !paths.insert(candidate).inserted {
            n += 1
            candidate = String(name.dropLast(".jsonl".count)) + "-\(n).jsonl"
        }
        return candidate
    }

    func release(_ path: String) {
        lock.lock()
        paths.remove(path)
        lock.unlock()
    }
}
