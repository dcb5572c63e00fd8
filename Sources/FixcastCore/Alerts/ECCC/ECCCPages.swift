import FixcastText

/// ECCC's OGC API answers a page at a time: `numberMatched` features in all, the page's in its
/// `features`, the next page from `offset`. A region ahead in a storm can cross more warning areas than
/// one page holds, and what did not fit would be missing without a word; so the pages are asked in turn
/// and joined into one FeatureCollection, which is kept and decoded as one answer.
///
/// The next page's address is made from the first's with `offset` (the answer's own `next` link is
/// not followed: it could name another host).
public enum ECCCPages {
    /// 10 pages: with `AlertRegionSource.ecccPageLimit` (100) 1,000 features, dozens of times what a box
    /// of a few degrees crosses in a storm; the bound keeps a broken `numberMatched` from asking forever.
    public static let maxPages = 10

    /// One page, read once: `numberMatched` (nil when not given) and its own features, which both
    /// decide whether to ask on and make the joined answer.
    public struct Page: Sendable, Equatable {
        public var matched: Int?
        public var features: [JSONValue]

        public init(matched: Int?, features: [JSONValue]) {
            self.matched = matched
            self.features = features
        }

        public var count: Int { features.count }
        /// The page's first feature's `id`: a server that ignores `offset` sends the same page again.
        public var firstID: String? { features.first.flatMap(ECCCPages.id) }
    }

    public static func page(_ body: [UInt8]) throws(AlertDecodeFailure) -> Page {
        let json = try AlertGeoJSON.document(body)
        return Page(matched: json["numberMatched"]?.intValue, features: try AlertGeoJSON.features(of: json))
    }

    /// A feature's `id` (the alert's and area's), as ECCC sends it at the top or in its properties.
    static func id(_ feature: JSONValue) -> String? {
        feature["id"]?.stringValue ?? feature["properties"]?["id"]?.stringValue
    }

    /// The offset to ask the next page from, after `pages` (what each page so far said, in order): nil
    /// when they hold the first's `numberMatched` features (or it gives no count), when the last page
    /// was empty (nothing more will come) or began as the one before it did (`offset` not heeded), or
    /// after `maxPages`.
    public static func nextOffset(after pages: [Page]) -> Int? {
        guard let first = pages.first, let last = pages.last, pages.count < maxPages, last.count > 0 else {
            return nil
        }
        if pages.count > 1, last.firstID != nil, last.firstID == pages[pages.count - 2].firstID { return nil }
        let collected = pages.reduce(0) { $0 + $1.count }
        guard let matched = first.matched, matched > collected else { return nil }
        return collected
    }

    /// One FeatureCollection of every page's features, in order (the body that is kept), from the
    /// pages as read (none is parsed again).
    public static func joined(_ pages: [Page]) -> [UInt8] {
        var features: [JSONValue] = []
        // A feature twice (the set changed between two pages, or a page came again) is kept once.
        var seen: Set<String> = []
        for page in pages {
            for feature in page.features {
                if let id = id(feature), !seen.insert(id).inserted { continue }
                features.append(feature)
            }
        }
        let joined = JSONValue.object([
            ("type", .string("FeatureCollection")), ("numberMatched", .number(pages.first?.matched)),
            ("numberReturned", .int(features.count)), ("features", .array(features)),
        ])
        return Array(joined.serialized().utf8)
    }
}
