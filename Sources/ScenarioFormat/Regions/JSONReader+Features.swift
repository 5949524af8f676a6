import Documents
import Geofencing

/// A feature as `JSONReader.forEachFeature` hands it over: read straight into its region, or as nodes.
enum FeatureRead {
    case direct(DirectFeature)
    case node(DocumentNode)
}

extension JSONReader {
    /// For a document that is an object whose `type` is `"FeatureCollection"` and whose `features` is a
    /// list: hands each feature to `body` in order, with its index (read straight into a region with
    /// `defaults` when it has the common shape, `directFeature`; as nodes otherwise), checks the rest of
    /// the document, and returns true. Returns false, having moved nothing, for any other document (the
    /// caller reads it whole with `document()`). Memory: one feature's tree at a time. O(bytes), with a
    /// look-ahead over the root's members (their values skipped, not kept) until `type` and `features`
    /// are found (the features themselves are skipped only when `type` comes after them).
    mutating func forEachFeature(defaults: MonitorOverrides, _ body: (FeatureRead, Int) -> Void) throws(SyntaxError) -> Bool
    {
        let start = self
        guard try isFeatureCollection() else {
            self = start
            return false
        }
        self = start
        try expect(UInt8(ascii: "{"), "'{'")
        var seen = KeySet()
        skipSpace()
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a key (a string in double quotes), got \(found)")
            }
            let keyMark = mark
            guard case let .scalar(key) = try value(depth: 2) else { break }
            if let first = seen.insert(key.text, at: keyMark) {
                throw SyntaxError(
                    mark: first,
                    message:
                        "a key appears more than once in one mapping: \"\(key.text)\" (first given here); each key may be given once"
                )
            }
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key.text)\"")
            if key.text == "features" {
                try features(defaults: defaults, body)
            } else {
                _ = try value(depth: 2, build: false)
            }
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}' after the value of \"\(key.text)\"")
            break
        }
        try expectEnd()
        return true
    }

    /// The `features` list, one element at a time.
    private mutating func features(defaults: MonitorOverrides, _ body: (FeatureRead, Int) -> Void) throws(SyntaxError) {
        try expect(UInt8(ascii: "["), "'['")
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        var count = 0
        while true {
            if let direct = directFeature(defaults: defaults, index: count) {
                body(.direct(direct), count)
            } else {
                body(.node(try value(depth: 3)), count)
            }
            count += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']' after a feature")
            return
        }
    }

    /// Looks ahead over the root object's members for `"type": "FeatureCollection"` and a `features` list.
    private mutating func isFeatureCollection() throws(SyntaxError) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        var type: String?
        var featuresIsList: Bool?
        members: while type == nil || featuresIsList == nil {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            guard case let .scalar(key) = try value(depth: 2) else { return false }
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key.text)\"")
            skipSpace()
            switch key.text {
            case "type":
                guard case let .scalar(text) = try value(depth: 2), !text.isNull else { return false }
                type = text.text
            case "features":
                featuresIsList = index < bytes.count && bytes[index] == UInt8(ascii: "[")
                if type != nil { break members }  // both known: the list is read once, by the caller
                _ = try value(depth: 2, build: false)
            default:
                _ = try value(depth: 2, build: false)
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break members }
            index += 1
        }
        return type == "FeatureCollection" && featuresIsList == true
    }
}
