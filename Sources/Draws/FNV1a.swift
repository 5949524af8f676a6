/// 64-bit FNV-1a: a stable hash of bytes (Swift's `Hasher` is seeded per process, so it cannot name
/// anything that must be the same in the next run). Noise keys of device ids; idempotency keys of spool
/// files. O(n) in the bytes; not for security.
public struct FNV1a: Sendable {
    /// The hash of what was combined so far.
    public var value: UInt64 = 0xCBF2_9CE4_8422_2325

    @inlinable
    public init() {}

    /// Mixes `bytes` into the hash, in order.
    @inlinable
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// The hash of `bytes`.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.combine(bytes)
        return hasher.value
    }
}
