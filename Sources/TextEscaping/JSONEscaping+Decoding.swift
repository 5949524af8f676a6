extension JSONEscaping {
    /// Why an escape in a JSON string could not be read.
    public enum EscapeFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not one of `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case unknown
        /// `\u` not followed by four hexadecimal digits.
        case badUnicode
        /// A UTF-16 surrogate without its other half.
        case loneSurrogate

        public var description: String {
            switch self {
            case .unknown: return "a bad escape"
            case .badUnicode: return "a bad \\u escape"
            case .loneSurrogate: return "a lone surrogate"
            }
        }
    }

    /// Reads the escape whose backslash is at `bytes[index]` (RFC 8259 §7), a surrogate pair as one
    /// character, and moves `index` past it. The one escape decoder for the readers of event logs and fix
    /// tables; each says in its own words where the failure is. O(1).
    public static func decodeEscape(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int
    )
        -> Result<Unicode.Scalar, EscapeFailure>
    {
        guard index + 1 < end else { return .failure(.unknown) }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return .success(Unicode.Scalar(letter))
        case UInt8(ascii: "n"): return .success("\n")
        case UInt8(ascii: "r"): return .success("\r")
        case UInt8(ascii: "t"): return .success("\t")
        case UInt8(ascii: "b"): return .success("\u{08}")
        case UInt8(ascii: "f"): return .success("\u{0C}")
        case UInt8(ascii: "u"):
            guard var code = hex4(bytes, at: &index, end: end) else { return .failure(.badUnicode) }
            if (0xD800..<0xDC00).contains(code) {
                guard index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    return .failure(.loneSurrogate)
                }
                index += 2
                guard let low = hex4(bytes, at: &index, end: end) else { return .failure(.badUnicode) }
                guard (0xDC00..<0xE000).contains(low) else { return .failure(.loneSurrogate) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { return .failure(.loneSurrogate) }
            return .success(scalar)
        default:
            index -= 1
            return .failure(.unknown)
        }
    }

    /// Appends `scalar` as UTF-8.
    public static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
