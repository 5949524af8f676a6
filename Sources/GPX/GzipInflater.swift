import CZlib

/// Inflates a gzip stream (RFC 1952) through zlib, a chunk at a time: memory stays flat whatever the
/// sizes. Several members one after another (what `cat a.gz b.gz` or `gzip -c a b` makes) read as one
/// stream, as gzip(1) reads them. O(1) memory, linear time.
final class GzipInflater {
    /// Why inflating stopped short.
    enum Failure: Error {
        /// zlib's message, and how many compressed bytes were read before it.
        case corrupt(String, after: Int)
    }

    private var stream = z_stream()
    /// Compressed bytes handed to zlib so far, and plain bytes it made.
    private(set) var compressedBytes = 0
    private(set) var inflatedBytes = 0
    /// True between members: the last one ended and no byte of another has been read.
    private(set) var atMemberEnd = false

    init() {
        let status = perimeter_inflate_init(&stream, 15 + 16)
        precondition(status == Z_OK, "zlib could not start inflating (\(status)): out of memory")
    }

    deinit { inflateEnd(&stream) }

    /// Whether the compressed bytes given last are all used.
    var needsInput: Bool { stream.avail_in == 0 }

    /// The next compressed bytes; they must stay valid until `needsInput`.
    func supply(_ input: UnsafeRawBufferPointer) {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = UInt32(input.count)
        compressedBytes += input.count
    }

    /// Inflates into `output`; returns how many plain bytes it wrote (0 when it needs more input).
    func inflate(into output: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        var written = 0
        while written < output.count && stream.avail_in > 0 {
            if atMemberEnd {
                // Another member follows: start it afresh (its header is checked like the first's).
                inflateReset(&stream)
                atMemberEnd = false
            }
            // C interop: the output buffer is allocated, so it has an address.
            // swift-format-ignore: NeverForceUnwrap
            stream.next_out = output.baseAddress!.advanced(by: written).assumingMemoryBound(to: Bytef.self)
            stream.avail_out = UInt32(output.count - written)
            let before = Int(stream.avail_out), inputBefore = stream.avail_in
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            written += before - Int(stream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                if before == Int(stream.avail_out) && inputBefore == stream.avail_in {
                    throw .corrupt("no progress", after: compressedBytes - Int(stream.avail_in))
                }
            case Z_STREAM_END: atMemberEnd = true
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw .corrupt(message, after: compressedBytes - Int(stream.avail_in))
            }
        }
        inflatedBytes += written
        return written
    }
}

/// Whether `bytes` begin as gzip data does (RFC 1952: 1f 8b).
func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.count >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b }
