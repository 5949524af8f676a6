import Draws
import Foundation

/// Device ids seen in a fix table, each stored once, found by their bytes without making a `String`
/// per row: an open-addressing table of FNV-1a hashes over one byte arena. O(length of the id) a lookup.
struct DeviceIndex {
    /// The most devices one fix table may hold.
    static let maximumDevices = 1_000_000
    /// The longest device id, in bytes.
    static let maximumIDLength = 1024

    /// Every id's bytes, one after the other; id i is `arena[offsets[i]..<offsets[i + 1]]`.
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    /// Device index + 1, or 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 1024)
    private var hashes: [UInt64] = []
    /// The ids as strings, in order of first appearance.
    private(set) var ids: [String] = []
    /// The last id looked up, for the rows of one device that follow each other, with its length and (for
    /// an id of 8 to 16 bytes) its first and last eight bytes, compared as two words.
    private var last = -1
    private var lastLength = -1
    private var lastWords: (UInt64, UInt64) = (0, 0)

    var count: Int { ids.count }

    enum Outcome {
        case found(Int)
        case added(Int)
        case tooMany
        case notUTF8
    }

    /// The index of the device whose id is `bytes`, adding it when new.
    mutating func index(of bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        let (found, slot, hash) = find(bytes)
        if let found { return .found(found) }
        guard ids.count < Self.maximumDevices else { return .tooMany }
        guard let id = String(validating: bytes, as: UTF8.self) else { return .notUTF8 }
        let index = ids.count
        ids.append(id)
        arena.append(contentsOf: bytes)
        offsets.append(arena.count)
        hashes.append(hash)
        slots[slot] = Int32(index + 1)
        if ids.count * 2 > slots.count { grow() }
        remember(index, bytes)
        return .added(index)
    }

    /// The index of the device whose id is `bytes`, when it has been added; nothing is added (only the
    /// last id looked up is remembered).
    @inline(__always)
    mutating func existing(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? { find(bytes).found }

    /// The device whose id is `bytes` (remembered as the last), else the empty slot where it would go
    /// and its hash. O(length of the id), about one probe.
    @inline(__always)
    private mutating func find(_ bytes: UnsafeBufferPointer<UInt8>) -> (found: Int?, slot: Int, hash: UInt64) {
        if bytes.count == lastLength {
            if let words = Self.words(bytes) {
                if words == lastWords { return (last, 0, 0) }
            } else if last >= 0, equals(last, bytes) {
                return (last, 0, 0)
            }
        }
        let hash = FNV1a.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let candidate = Int(slots[slot]) - 1
            if hashes[candidate] == hash, equals(candidate, bytes) {
                remember(candidate, bytes)
                return (candidate, slot, hash)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return (nil, slot, hash)
    }

    /// Makes `index`, whose id is `bytes`, the last id looked up.
    @inline(__always)
    private mutating func remember(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        last = index
        lastLength = bytes.count
        lastWords = Self.words(bytes) ?? (0, 0)
    }

    /// The first and the last eight bytes of an id of 8 to 16 bytes (they overlap below 16), else nil.
    /// Two words tell such an id from another of its length. O(1).
    @inline(__always)
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count >= 8, bytes.count <= 16, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
    }

    private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = offsets[index], upper = offsets[index + 1]
        guard upper - lower == bytes.count else { return false }
        guard let given = bytes.baseAddress else { return true }
        // C interop: the arena holds the stored name, so it has an address.
        // swift-format-ignore: NeverForceUnwrap
        return arena.withUnsafeBufferPointer { stored in memcmp(stored.baseAddress! + lower, given, bytes.count) == 0 }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for (index, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(index + 1)
        }
    }
}
