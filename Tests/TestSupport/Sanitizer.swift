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

    /// `bytes`, with the sanitizer's own memory allowed for.
    public func memoryBound(_ bytes: Int) -> Int {
        switch self {
        case .none: return bytes
        case .address: return bytes * 3 + (320 << 20)
        case .thread: return bytes * 8 + (256 << 20)
        }
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
