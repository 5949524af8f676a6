#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sanitizer this process (and the `perimeter` beside it, built alike) was built with, and the
/// room its bounds on memory and time get then.
///
/// The bounds are Perimeter's; a sanitizer adds its own costs on purpose: AddressSanitizer holds up to
/// 256 MB of freed memory in quarantine (to catch use after free), surrounds blocks with redzones and
/// keeps shadow memory; ThreadSanitizer keeps 4–8 shadow bytes per byte and runs 5–15× slower. Under
/// them the bounds still catch what they are for (growth with the input's size, a hang), not the
/// exact figure measured without a sanitizer.
public enum Sanitizer: Sendable {
    case none, address, thread

    /// Found by the sanitizer runtime's entry point in this process.
    public static let current: Sanitizer = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        if dlsym(process, "__asan_init") != nil { return .address }
        if dlsym(process, "__tsan_init") != nil { return .thread }
        return .none
    }()

    /// `bytes`, with the sanitizer's own memory allowed for: under ASan three times the bound (redzones
    /// and shadow) plus its quarantine and a quarter of it again (the quarantine's own shadow and
    /// allocator caches) plus 128 MB; under TSan eight times the bound plus 256 MB. Measured under ASan:
    /// streaming 200,000 GPX points grows the peak by 417 MB with the default quarantine, 1.5 MB without.
    public func memoryBound(_ bytes: Int) -> Int {
        switch self {
        case .none: return bytes
        case .address: return bytes * 3 + Self.quarantineBytes * 5 / 4 + (128 << 20)
        case .thread: return bytes * 8 + (256 << 20)
        }
    }

    /// ASan's quarantine: `quarantine_size_mb` of ASAN_OPTIONS, else its default of 256 MB.
    static var quarantineBytes: Int {
        let options = getenv("ASAN_OPTIONS").map { String(cString: $0) } ?? ""
        for option in options.split(whereSeparator: { $0 == ":" || $0 == "," || $0 == " " }) {
            let parts = option.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "quarantine_size_mb", let megabytes = Int(parts[1]) { return megabytes << 20 }
        }
        return 256 << 20
    }

    /// `seconds`, with the sanitizer's slowdown allowed for.
    public func timeBound(_ seconds: Double) -> Double {
        switch self {
        case .none: return seconds
        case .address: return seconds * 4
        case .thread: return seconds * 10
        }
    }
}
