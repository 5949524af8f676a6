/// SHA-256 (FIPS 180-4): the digest that names a file's bytes, as `sha256sum` prints it. `perimeter check`
/// records the digests of a golden log's inputs with it. O(n) in the bytes, fed in pieces of any size;
/// memory is one 64-byte block.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19)
    /// Bytes of the block not yet full.
    private var pending: [UInt8] = []
    /// Bytes combined so far.
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    /// Mixes `bytes` into the digest, in order.
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
                length &+= 64
            }
        }
    }

    /// The digest of what was combined, as 64 lowercase hexadecimal digits.
    public func hex() -> String {
        var copy = self
        let bits = (copy.length + UInt64(copy.pending.count)) &* 8
        copy.pending.append(0x80)
        while copy.pending.count % 64 != 56 { copy.pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            copy.pending.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        for start in stride(from: 0, to: copy.pending.count, by: 64) { copy.compress(copy.pending[start..<start + 64]) }
        let s = copy.state
        return [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7].map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 8 - text.count) + text
        }.joined()
    }

    /// The digest of `bytes`, as 64 lowercase hexadecimal digits.
    public static func hex(of bytes: some Sequence<UInt8>) -> String {
        var digest = SHA256()
        digest.combine(bytes)
        return digest.hex()
    }

    private static let k: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]

    /// One 64-byte block into the state.
    private mutating func compress(_ block: some Collection<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            w.initialize(repeating: 0)
            var i = 0
            for byte in block {
                w[i / 4] = w[i / 4] << 8 | UInt32(byte)
                i += 1
            }
            compress(schedule: w)
        }
    }

    /// The rounds over a message schedule whose first 16 words are the block's.
    private mutating func compress(schedule w: UnsafeMutableBufferPointer<UInt32>) {
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        for t in 16..<64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.k[t] &+ w[t]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }
}
