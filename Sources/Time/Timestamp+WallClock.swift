#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Timestamp {
    /// The system's wall clock now (`CLOCK_REALTIME`), to the microsecond.
    public static var wallClockNow: Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(microsecondsSince1970: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
    }
}
