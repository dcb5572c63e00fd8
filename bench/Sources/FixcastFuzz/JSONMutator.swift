import FixcastText

/// A JSON document as the mutator edits it: like `JSONValue`, but a number is its text (so `1e309` and
/// `9223372036854775808` stay what they are), an object may repeat a key, and a literal may be any text
/// at all (`NaN`, a lone-surrogate escape): what a hostile server can send, not only what is JSON.
public indirect enum FuzzJSON: Sendable {
    /// Written as it is: a number, `true`, `false`, `null`, or any token.
    case literal(String)
    /// Written as a JSON string (escaped).
    case string(String)
    case array([FuzzJSON])
    case object([(String, FuzzJSON)])

    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .literal("null")
        case .bool(let b): self = .literal(b ? "true" : "false")
        case .int(let i): self = .literal(String(i))
        case .double: self = .literal(value.serialized())
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(FuzzJSON.init))
        case .object(let members): self = .object(members.map { ($0.0, FuzzJSON($0.1)) })
        }
    }

    /// The document's text, compact.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .literal(let text): out += Array(text.utf8)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A string literal with `"`, `\` and C0 controls escaped (a server that escapes what JSON demands and
    /// no more: DEL, C1 controls and bidi marks arrive raw, as real answers carry them).
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                out += Array(("\\u00" + (hex.count < 2 ? "0" : "") + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    var children: [FuzzJSON] {
        switch self {
        case .array(let items): return items
        case .object(let members): return members.map(\.1)
        default: return []
        }
    }
}

/// Structure-aware mutations of JSON: a node of the tree is replaced, removed, repeated, renamed, nested
/// or spliced from another document; then, sometimes, the text itself is cut or corrupted.
public struct JSONMutator: Sendable {
    public let seeds: [FuzzJSON]
    /// Every object key of the seeds, and every value each key had: a renamed key or a spliced value
    /// lands where a decoder looks, so mutations reach past the first guard.
    let keyPool: [String]
    let valuesByKey: [String: [FuzzJSON]]
    /// Seeds that are not JSON (an error page) go through the byte mutations only.
    let rawSeeds: [[UInt8]]

    /// Cap on a case's size: the HTTP client refuses a longer body (`CurlHTTPClient.Limits.maxBodyBytes`,
    /// 2 MiB), so no decoder sees one; an array is grown only this far, and a longer case is cut here.
    public static let maxBytes = 2 << 20
    /// This mutator's cap: `maxBytes`, or less (the test suite's cases stay small, for time).
    let limit: Int

    public init(seeds: [[UInt8]], maxBytes: Int = JSONMutator.maxBytes) {
        limit = min(maxBytes, Self.maxBytes)
        var trees: [FuzzJSON] = []
        var raw: [[UInt8]] = []
        for seed in seeds {
            if let value = try? JSONValue.parse(seed) { trees.append(FuzzJSON(value)) } else { raw.append(seed) }
        }
        var keys = Set(FuzzValues.keys)
        var values: [String: [FuzzJSON]] = [:]
        func harvest(_ node: FuzzJSON) {
            if case .object(let members) = node {
                for (key, value) in members {
                    keys.insert(key)
                    if values[key, default: []].count < 16 { values[key, default: []].append(value) }
                }
            }
            for child in node.children { harvest(child) }
        }
        trees.forEach(harvest)
        self.seeds = trees
        keyPool = keys.sorted()
        valuesByKey = values
        rawSeeds = raw
    }

    /// One case: a seed with 1–6 tree mutations, and a byte mutation one time in four.
    public func mutate(_ g: inout FuzzRandom) -> [UInt8] {
        if seeds.isEmpty || (!rawSeeds.isEmpty && g.oneIn(8)) {
            guard !rawSeeds.isEmpty else { return [] }
            return ByteMutator.mutate(g.pick(rawSeeds), &g)
        }
        var tree = g.pick(seeds)
        for _ in 0..<(1 + g.below(6)) { mutateOnce(&tree, &g) }
        var bytes = tree.bytes
        if g.oneIn(4) { bytes = ByteMutator.mutateText(bytes, &g) }
        return bytes.count > limit ? Array(bytes.prefix(limit)) : bytes
    }

    /// Nodes are numbered in pre-order; a mutation picks one and edits it in place.
    func mutateOnce(_ tree: inout FuzzJSON, _ g: inout FuzzRandom) {
        let target = g.below(Self.count(tree))
        var index = 0
        var path: [Int] = []
        guard Self.find(tree, target: target, index: &index, path: &path) else { return }
        edit(&tree, path: path[...], g: &g)
    }

    static func count(_ node: FuzzJSON) -> Int {
        switch node {
        case .array(let items): return items.reduce(1) { $0 + count($1) }
        case .object(let members): return members.reduce(1) { $0 + count($1.1) }
        default: return 1
        }
    }

    /// The child indices that lead to node `target` (pre-order), read without copying anything.
    static func find(_ node: FuzzJSON, target: Int, index: inout Int, path: inout [Int]) -> Bool {
        if index == target { return true }
        index += 1
        switch node {
        case .array(let items):
            for (i, item) in items.enumerated() {
                path.append(i)
                if find(item, target: target, index: &index, path: &path) { return true }
                path.removeLast()
            }
        case .object(let members):
            for (i, member) in members.enumerated() {
                path.append(i)
                if find(member.1, target: target, index: &index, path: &path) { return true }
                path.removeLast()
            }
        default: break
        }
        return false
    }

    func edit(_ node: inout FuzzJSON, path: ArraySlice<Int>, g: inout FuzzRandom) {
        guard let i = path.first else {
            node = transformed(node, &g)
            return
        }
        switch node {
        case .array(var items):
            node = .literal("null")  // releases the array, so the edit below does not copy it
            edit(&items[i], path: path.dropFirst(), g: &g)
            node = .array(items)
        case .object(var members):
            node = .literal("null")
            edit(&members[i].1, path: path.dropFirst(), g: &g)
            node = .object(members)
        default: break
        }
    }

    /// One edit of `node`.
    func transformed(_ node: FuzzJSON, _ g: inout FuzzRandom) -> FuzzJSON {
        switch g.below(14) {
        case 0, 1: return .literal(g.pick(FuzzValues.numbers))
        case 2, 3: return .string(g.pick(FuzzValues.strings))
        case 4: return scalar(&g)
        case 5: return g.oneIn(2) ? .array([]) : .object([])
        case 6: return nested(node, &g)
        case 7:
            // A value this key has somewhere in the seeds (a whole feature, a units block, a series).
            let key = g.pick(keyPool)
            return valuesByKey[key].map { g.pick($0) } ?? node
        case 8: return tweakedNumber(node, &g)
        default: break
        }
        switch node {
        case .array(var items):
            if items.count >= 4, g.oneIn(4), items.allSatisfy(Self.isPosition) {
                // A GeoJSON ring that zigzags across the antimeridian: unwrapped, it climbs 170° a vertex.
                return .array(
                    (0..<max(14, items.count)).map { k in
                        .array([.literal(String((k * 170 + 180) % 360 - 180)), .literal(String(10 + k % 2))])
                    })
            }
            switch g.below(6) {
            case 0 where !items.isEmpty: items.remove(at: g.below(items.count))
            case 1 where !items.isEmpty:
                // Many copies of one element: a huge array, within `limit`.
                let item = items[g.below(items.count)]
                let size = max(1, item.bytes.count + 1)
                let copies = min(g.pick([10, 1000, 20_000, 200_000]), limit / size)
                items += Array(repeating: item, count: copies)
            case 2: items.reverse()
            case 3 where items.count > 1: items.swapAt(g.below(items.count), g.below(items.count))
            case 4: items = Array(items.prefix(g.below(items.count + 1)))
            default: items.append(scalar(&g))
            }
            return .array(items)
        case .object(var members):
            switch g.below(6) {
            case 0 where !members.isEmpty: members.remove(at: g.below(members.count))
            case 1 where !members.isEmpty:
                // A repeated key (a strict parser refuses the document).
                members.append(members[g.below(members.count)])
            case 2 where !members.isEmpty:
                members[g.below(members.count)].0 = g.pick(keyPool)
            case 3:
                let key = g.pick(keyPool)
                members.removeAll { $0.0 == key }
                members.append((key, valuesByKey[key].map { g.pick($0) } ?? scalar(&g)))
            case 4 where members.count > 1: members.swapAt(g.below(members.count), g.below(members.count))
            default: members.append((g.pick(FuzzValues.strings), scalar(&g)))
            }
            return .object(members)
        case .string(let s):
            switch g.below(4) {
            case 0: return .string(s + g.pick(FuzzValues.strings))
            case 1: return .string(g.pick(FuzzValues.strings) + s)
            case 2:
                return .literal("\"" + g.pick(["\\ud800", "\\udc00x", "\\u0000", "\\u001b[2J", "\\x41", "\\"]) + "\"")
            default: return .string(String(s.reversed()))
            }
        default:
            return .literal(g.pick(FuzzValues.numbers))
        }
    }

    /// `[lon, lat]` (or more numbers): a GeoJSON position.
    static func isPosition(_ node: FuzzJSON) -> Bool {
        guard case .array(let items) = node, items.count >= 2 else { return false }
        return items.allSatisfy { if case .literal(let t) = $0 { Double(t) != nil } else { false } }
    }

    func scalar(_ g: inout FuzzRandom) -> FuzzJSON {
        switch g.below(5) {
        case 0: return .literal("null")
        case 1: return .literal(g.oneIn(2) ? "true" : "false")
        case 2: return .string(g.pick(FuzzValues.strings))
        default: return .literal(g.pick(FuzzValues.numbers))
        }
    }

    /// `node` inside `depth` arrays or objects: around the parser's limit of 128 levels, and far past it.
    func nested(_ node: FuzzJSON, _ g: inout FuzzRandom) -> FuzzJSON {
        let depth = g.pick([2, 16, 126, 127, 128, 129, 1000])
        var out = node
        let useObjects = g.oneIn(2)
        for _ in 0..<depth { out = useObjects ? .object([("a", out)]) : .array([out]) }
        return out
    }

    func tweakedNumber(_ node: FuzzJSON, _ g: inout FuzzRandom) -> FuzzJSON {
        guard case .literal(let text) = node, let v = Double(text) else { return node }
        switch g.below(6) {
        case 0: return .literal(JSONValue.double(-v).serialized())
        case 1: return .literal(JSONValue.double(v * 1000).serialized())
        case 2: return .literal(JSONValue.double(v + 0.5).serialized())
        case 3: return .string(text)
        case 4: return .literal(text + "e300")
        default: return .literal(String(Int(clamping: Int64(v.isFinite ? max(-9e18, min(9e18, v)) : 0)) &+ 1))
        }
    }
}
