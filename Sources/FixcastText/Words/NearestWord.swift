/// The word a mistyped one was most likely meant to be, for the "did you mean" of a usage or a config
/// error (`fixcast nwo`, `--jsn`, `[wether]`): the one candidate nearest by optimal string alignment
/// distance (an inserted, dropped or changed character, or two neighbours swapped, each count 1, so
/// "nwo" is 1 from "now"), when that is at most a third of the word's length (at least 1): further
/// than that the "suggestion" is a guess, and a wrong one misleads more than none. Two candidates
/// equally near suggest neither. Letter case is ignored.
public enum NearestWord {
    public static func to(_ word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = max(1, typed.count / 3)
        var best: (word: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            guard abs(other.count - typed.count) <= limit, other != typed else { continue }
            let d = distance(typed, other)
            guard d <= limit else { continue }
            guard let b = best else {
                best = (candidate, d)
                continue
            }
            if d < b.distance {
                best = (candidate, d)
                tied = false
            } else if d == b.distance, b.word != candidate {
                tied = true
            }
        }
        return tied ? nil : best?.word
    }

    /// Optimal string alignment distance: Levenshtein's, with a swap of two neighbours as one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
