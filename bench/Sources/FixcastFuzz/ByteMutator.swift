/// Mutations of bytes as bytes: bit flips, random bytes, splices, cuts, repeats; for binary tables also
/// their length and offset fields set to 0, 1, the maximum, or just past the file.
public enum ByteMutator {
    /// Bytes that break text where they land: NUL, controls, a UTF-8 lead without its tail, an encoded
    /// surrogate, an overlong encoding, a BOM, bidi and C1 controls in UTF-8.
    static let textInsertions: [[UInt8]] = [
        [0x00], [0x1B], [0x07], [0x08], [0x0D], [0x7F], [0xFF], [0xC0, 0x80], [0xC3], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF], [0xC2, 0x9B], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6],
        Array("\\u0000".utf8), Array("\\ud800".utf8), Array("\"".utf8), Array(",".utf8), Array("}".utf8),
        Array("]".utf8), Array("[".utf8), Array("{".utf8), Array(":".utf8), Array("<".utf8), Array(">".utf8),
        Array("&".utf8), Array("\n".utf8),
    ]

    /// Classes of position a cut falls on: a structural character, a quote, a digit, a letter, a space, any.
    static func positions(of bytes: [UInt8], class kind: Int) -> [Int] {
        bytes.indices.filter { i in
            let b = bytes[i]
            switch kind {
            case 0: return "{}[],:<>/=".utf8.contains(b)
            case 1: return b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
            case 2: return b >= 0x30 && b <= 0x39
            case 3: return (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            case 4: return b == 0x20 || b == 0x0A || b == 0x09
            default: return true
            }
        }
    }

    /// A text cut, an insertion of a byte that breaks text, or one of `mutate`'s byte edits.
    public static func mutateText(_ input: [UInt8], _ g: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return g.pick(textInsertions) }
        switch g.below(4) {
        case 0:
            // Truncation at a position of one class (inside a string, after a comma, in a number ...).
            let candidates = positions(of: bytes, class: g.below(6))
            let at = candidates.isEmpty ? g.below(bytes.count) : g.pick(candidates)
            return Array(bytes.prefix(at + g.below(2)))
        case 1:
            let at = g.below(bytes.count + 1)
            bytes.insert(contentsOf: g.pick(textInsertions), at: at)
            return bytes
        default:
            return mutate(bytes, &g)
        }
    }

    /// 1–4 byte edits.
    public static func mutate(_ input: [UInt8], _ g: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + g.below(4)) {
            guard !bytes.isEmpty else {
                bytes = [UInt8(truncatingIfNeeded: g.next())]
                continue
            }
            let at = g.below(bytes.count)
            switch g.below(8) {
            case 0: bytes[at] ^= 1 << UInt8(g.below(8))
            case 1: bytes[at] = UInt8(truncatingIfNeeded: g.next())
            case 2: bytes[at] = g.pick([0x00, 0x01, 0x7F, 0x80, 0xFF])
            case 3:
                let length = min(bytes.count - at, 1 + g.below(64))
                bytes.removeSubrange(at..<at + length)
            case 4:
                // Splice: a chunk of the input copied over another place.
                let from = g.below(bytes.count)
                let length = min(bytes.count - from, 1 + g.below(256))
                let chunk = Array(bytes[from..<from + length])
                let end = min(bytes.count, at + length)
                bytes.replaceSubrange(at..<end, with: chunk)
            case 5:
                let from = g.below(bytes.count)
                let length = min(bytes.count - from, 1 + g.below(64))
                bytes.insert(contentsOf: bytes[from..<from + length], at: at)
            case 6: bytes = Array(bytes.prefix(at))
            default:
                let random = (0..<(1 + g.below(16))).map { _ in UInt8(truncatingIfNeeded: g.next()) }
                bytes.insert(contentsOf: random, at: at)
            }
        }
        return bytes
    }

    /// A binary table's mutation: one time in two a header field (an offset or a count, at `fields`:
    /// byte offset and width 4 or 8) set to a value that tests its bound; else an aligned word of the body
    /// set so, or `mutate`'s byte edits.
    public static func mutateTable(_ input: [UInt8], fields: [(offset: Int, width: Int)], _ g: inout FuzzRandom)
        -> [UInt8]
    {
        var bytes = input
        for _ in 0..<(1 + g.below(3)) {
            switch g.below(4) {
            case 0, 1:
                guard let field = fields.isEmpty ? nil : g.pick(fields), field.offset + field.width <= bytes.count
                else { continue }
                let old = read(bytes, field.offset, field.width)
                let max: UInt64 = field.width == 8 ? UInt64.max : UInt64(UInt32.max)
                let size = UInt64(bytes.count)
                let value = g.pick([
                    0, 1, 2, max, max - 1, max / 2, max / 2 + 1, size, size &- 1, size &+ 1, size / 2, old &+ 1,
                    old &- 1, old &* 2, old / 2, old ^ (1 << UInt64(g.below(field.width * 8))),
                ])
                write(&bytes, field.offset, field.width, value & max)
            case 2:
                guard bytes.count >= 8 else { continue }
                let at = g.below(bytes.count / 4) * 4
                guard at + 4 <= bytes.count else { continue }
                let old = read(bytes, at, 4)
                write(
                    &bytes, at, 4,
                    g.pick([0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, UInt64(bytes.count), old &+ 1, old &- 1])
                        & 0xFFFF_FFFF)
            default:
                bytes = mutate(bytes, &g)
            }
        }
        return bytes
    }

    static func read(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
        return v
    }

    static func write(_ bytes: inout [UInt8], _ at: Int, _ width: Int, _ value: UInt64) {
        for k in 0..<width { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
    }
}
