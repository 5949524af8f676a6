#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Asks Linux to back memory about to be filled with 2 MiB pages (transparent huge pages, where the system
/// lets a program ask: `madvise` mode): a fleet's tens of megabytes of rows then take some hundreds of
/// page faults instead of some tens of thousands. Only the whole 2 MiB pages inside `memory` are advised;
/// a refusal changes nothing but the speed. A no-op elsewhere.
enum HugePages {
    static let size = 2 << 20

    /// Advises the whole huge pages of `memory`, before they are first written.
    static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            guard let base = memory.baseAddress, memory.count >= 2 * size else { return }
            let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
            let end = (Int(bitPattern: base) + memory.count) & ~(size - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }
}
