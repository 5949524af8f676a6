import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension LaunchedPerimeter {
    /// The processor time (user + system, seconds) the running process has used so far, from
    /// `/proc/PID/stat` (Linux); nil once it has ended or where there is no `/proc`.
    public var processorSeconds: Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (name)": field 3 is the state; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
