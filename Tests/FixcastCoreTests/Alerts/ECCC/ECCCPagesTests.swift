import FixcastCore
import FixcastText
import Testing

@Suite("ECCCPages")
struct ECCCPagesTests {
    static func page(matched: Int?, ids: [String]) -> [UInt8] {
        let features = ids.map { id in
            JSONValue.object([
                ("type", .string("Feature")), ("id", .string(id)), ("properties", .object([("id", .string(id))])),
            ])
        }
        var members: [(String, JSONValue)] = [("type", .string("FeatureCollection"))]
        if let matched { members.append(("numberMatched", .int(matched))) }
        members.append(("features", .array(features)))
        return Array(JSONValue.object(members).serialized().utf8)
    }

    @Test func theNextPageStartsAfterWhatCameSoFar() throws {
        let first = try ECCCPages.page(Self.page(matched: 5, ids: ["a", "b"]))
        #expect(first.matched == 5 && first.count == 2 && first.firstID == "a")
        #expect(ECCCPages.nextOffset(after: [first]) == 2)
        let second = try ECCCPages.page(Self.page(matched: 5, ids: ["c", "d"]))
        #expect(ECCCPages.nextOffset(after: [first, second]) == 4)
        let third = try ECCCPages.page(Self.page(matched: 5, ids: ["e"]))
        #expect(ECCCPages.nextOffset(after: [first, second, third]) == nil, "all 5 are here")
    }

    @Test func noCountAnEmptyPageOrTheLastPageAllowedEndIt() throws {
        #expect(ECCCPages.nextOffset(after: [try ECCCPages.page(Self.page(matched: nil, ids: ["a"]))]) == nil)
        #expect(ECCCPages.nextOffset(after: []) == nil)
        let promising = ECCCPages.Page(matched: 1_000_000, features: Array(repeating: .object([]), count: 100))
        #expect(ECCCPages.nextOffset(after: [promising, ECCCPages.Page(matched: nil, features: [])]) == nil)
        let full = Array(repeating: promising, count: ECCCPages.maxPages)
        #expect(ECCCPages.nextOffset(after: Array(full.dropLast())) == 100 * (ECCCPages.maxPages - 1))
        #expect(ECCCPages.nextOffset(after: full) == nil, "a broken count does not ask for ever")
    }

    /// A server that does not heed `offset` sends the first page again: no more pages are asked, and
    /// a feature that comes twice is kept once.
    @Test func aPageThatComesAgainEndsItAndIsKeptOnce() throws {
        let first = try ECCCPages.page(Self.page(matched: 5, ids: ["a", "b"]))
        #expect(first.firstID == "a")
        #expect(ECCCPages.nextOffset(after: [first, first]) == nil)
        let joined = try JSONValue.parse(
            ECCCPages.joined([
                try ECCCPages.page(Self.page(matched: 5, ids: ["a", "b"])),
                try ECCCPages.page(Self.page(matched: 5, ids: ["b", "c"])),
            ]))
        #expect(joined["features"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["a", "b", "c"])
    }

    @Test func joinedHoldsEveryPagesFeaturesInOrder() throws {
        let pages = [
            try ECCCPages.page(Self.page(matched: 3, ids: ["a", "b"])),
            try ECCCPages.page(Self.page(matched: 3, ids: ["c"])),
        ]
        let joined = try JSONValue.parse(ECCCPages.joined(pages))
        #expect(joined["features"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["a", "b", "c"])
        #expect(joined["numberMatched"]?.intValue == 3)
        #expect(joined["numberReturned"]?.intValue == 3)
        // A page that is no FeatureCollection is refused where it is read (one page is kept as it came:
        // AlertRegionSourceTests).
        #expect(throws: AlertDecodeFailure.self) { try ECCCPages.page(Array("[1]".utf8)) }
    }
}
