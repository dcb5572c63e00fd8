import FixcastCore
import FoundationEssentials

/// The values of HTTP headers fixcast acts on (`Retry-After`, `Expires`, `Last-Modified`) and the
/// back-off it keeps in the store: a server, or a damaged store, writes them.
extension FuzzTargets {
    static let headerSeeds = [
        "Sun, 06 Nov 1994 08:49:37 GMT\nSunday, 06-Nov-94 08:49:37 GMT\nSun Nov  6 08:49:37 1994\n120\n0",
        "Fri, 31 Dec 9999 23:59:59 GMT\nThu, 01 Jan 1970 00:00:00 GMT\nMon, 29 Feb 2028 23:59:60 GMT\n86400",
        "3 1800000000\n0\n1\n20 1800086400",
    ].map { Array($0.utf8) }

    /// Words a header's numbers and names are swapped for.
    static let headerWords = [
        "99999999999999999", "-99999999999999999", "9223372036854775807", "9223372036854775808", "-1", "+5", "0",
        "00", "", " ", "9999", "10000", "1899", "1900", "69", "70", "99", "100", "24", "60", "61", "31", "29", "30",
        "Feb", "feb", "FEB", "Foo", "GMT", "UTC", "gmt", "Sun", "Sunday,", "1e308", "nan", "inf", "0x10", "١٢",
        "\u{0}", "\r\n", "\u{1B}[2J", String(repeating: "9", count: 400),
    ]

    static let httpHeaders = FuzzTarget(
        name: "http-headers",
        about:
            "Retry-After, Expires and Last-Modified values (HTTPDate, RetryBackoff, ServerExpiry) and the stored back-off",
        seedNames: []
    ) { files, _ in
        let seeds = files + headerSeeds
        return FuzzCampaign(seeds: seeds, mutator: { g in mutateHeaders(g.pick(seeds), &g) }) { bytes in
            var check = FuzzCheck()
            let now = Date(timeIntervalSince1970: 1_800_000_000 + Double(fnv(bytes) % 1_000_000))
            var dates = 0
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(200) {
                let value = String(line)
                if let date = HTTPDate.parse(value) {
                    dates += 1
                    check.within(
                        date.timeIntervalSince1970, -2_208_988_800...253_402_300_800,
                        "the HTTP-date of \(value.prefix(60))")
                }
                if let wait = RetryBackoff.retryAfterSeconds(value, now: now) {
                    check.require(wait >= 0, "Retry-After \(value.prefix(60)) waits \(wait) s")
                }
                var backoff = RetryBackoff(stateText: value) ?? RetryBackoff()
                _ = backoff.allowsRequest(now: now)
                let until = backoff.recordFailure(status: 503, retryAfter: value, now: now)
                let wait = until.map { $0.timeIntervalSince(now) } ?? -1
                check.require(
                    wait >= 0 && wait <= RetryBackoff.maximumRetryAfterS,
                    "a 503 with Retry-After \(value.prefix(60)) holds requests for \(wait) s")
                check.require(
                    RetryBackoff(stateText: backoff.stateText) != nil, "the back-off's stored text does not read back")
                _ = ServerExpiry.stands(HTTPDate.parse(value), receivedAt: now, now: now)
            }
            // A case without one date that parsed checked the date's range on nothing: counted apart.
            return check.result(dates > 0 ? .decoded : .refused)
        }
    }

    /// A few words of some lines swapped, repeated or dropped, and now and then bytes flipped.
    static func mutateHeaders(_ seed: [UInt8], _ g: inout FuzzRandom) -> [UInt8] {
        var lines = String(decoding: seed, as: UTF8.self).split(separator: "\n").map(String.init)
        for _ in 0..<(1 + g.below(4)) {
            guard !lines.isEmpty else { break }
            let at = g.below(lines.count)
            var words = lines[at].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard !words.isEmpty else { continue }
            let w = g.below(words.count)
            switch g.below(6) {
            case 0, 1, 2:
                // A number inside a word (the year of "06-Nov-94", the seconds of "08:49:37") or the word.
                let separator = g.pick([":", "-"])
                let parts = words[w].split(separator: separator, omittingEmptySubsequences: false)
                if parts.count > 1 {
                    var p = parts.map(String.init)
                    p[g.below(p.count)] = g.pick(headerWords)
                    words[w] = p.joined(separator: separator)
                } else {
                    words[w] = g.pick(headerWords)
                }
            case 3: words.insert(g.pick(headerWords), at: w)
            case 4: words.remove(at: w)
            default: lines.insert(lines[at], at: g.below(lines.count))
            }
            if !words.isEmpty, at < lines.count { lines[at] = words.joined(separator: " ") }
        }
        let bytes = Array(lines.joined(separator: "\n").utf8)
        return g.oneIn(4) ? ByteMutator.mutateText(bytes, &g) : bytes
    }
}
