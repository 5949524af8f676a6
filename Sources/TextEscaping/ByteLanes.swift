/// Whether some bytes hold a byte of a small class (the bytes JSON escapes), eight at a time: each word of eight bytes is tested at once by arithmetic on its lanes (SWAR,
/// "SIMD within a register"), not byte by byte. The tests are exact for whether any lane matches (the
/// lanes above a match may be marked too, which does not change the answer).
public enum ByteLanes {
    /// Eight copies of `byte`.
    @inlinable @inline(__always)
    static func broadcast(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// Nonzero when a byte of `word` equals `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ broadcast(byte)
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }

    /// Nonzero when a byte of `word` is below `bound` (at most 128).
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
        (word &- broadcast(bound)) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether `matches` is nonzero for some word of `bytes`: eight bytes at a time, the last eight read
    /// again where they overlap the word before; fewer than eight bytes in all are put in a word filled
    /// with `filler`, a byte that must not match. O(n / 8).
    @inlinable @inline(__always)
    public static func contains(
        _ bytes: UnsafeBufferPointer<UInt8>, filler: UInt8,
        where matches: (UInt64) -> UInt64
    ) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base), count = bytes.count
        guard count >= 8 else {
            var word = broadcast(filler)
            for index in 0..<count {
                let shift = UInt64(8 * index)
                word = word & ~(0xFF << shift) | UInt64(base[index]) << shift
            }
            return matches(word) != 0
        }
        var offset = 0
        while offset < count - 8 {
            if matches(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) != 0 { return true }
            offset += 8
        }
        return matches(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) != 0
    }
}
