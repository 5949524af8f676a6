#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension WholeFile {
    /// The first bytes of the regular file at `path` (at most `limit`), or nil when it is not one or
    /// cannot be read: opened with O_NOFOLLOW and O_NONBLOCK, so a link or a FIFO is never followed nor
    /// waited on. O(limit).
    public static func head(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            // C interop: a non-empty array's buffer has an address.
            // swift-format-ignore: NeverForceUnwrap
            let got = bytes.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress! + count, limit - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return Array(bytes[..<count])
    }
}

/// read(2), named apart from `WholeFile.read`.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
