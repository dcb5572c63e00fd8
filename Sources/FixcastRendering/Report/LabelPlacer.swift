import FoundationEssentials

/// A label put next to its marker: the box it takes and where its text starts.
public struct PlacedLabel: Sendable, Hashable {
    /// Index of the marker in the input.
    public var marker: Int
    /// The text drawn (the full text, or a shortened one when space was tight).
    public var text: String
    public var box: PlaneRect
    /// The text's baseline start (SVG `text` with `text-anchor="start"`).
    public var textOrigin: PlanePoint
}

/// Places marker labels so that no two labels' boxes overlap and none covers a marker
/// (greedy, in the order given: put the labels that matter most first).
///
/// Each label tries eight spots around its marker (right, left, above, below, then the
/// diagonals) and takes the free one that hides least of the route (the first of them when
/// several hide nothing), so a label sits beside the track rather than across it where there is
/// room; when no spot is free it tries a shortened text, and when that does not fit either it is
/// dropped: a crowded stretch shows fewer labels rather than a pile of unreadable ones.
public struct LabelPlacer: Sendable {
    public var bounds: PlaneRect
    public var fontSize: Double
    /// Half the side of the square each marker keeps free.
    public var markerRadius: Double
    /// Gap between a marker and its label.
    public var gap: Double
    /// Longest shortened text, in characters (before the ellipsis).
    public var shortLength: Int
    /// Route this close to a label's box counts as under it: half the report's 7-pixel track casing.
    static let routeClearance = 3.5

    public init(
        bounds: PlaneRect, fontSize: Double = 11, markerRadius: Double = 4, gap: Double = 3, shortLength: Int = 10
    ) {
        self.bounds = bounds
        self.fontSize = fontSize
        self.markerRadius = markerRadius
        self.gap = gap
        self.shortLength = shortLength
    }

    /// The width a generic sans-serif font gives `text`: about 0.6 em for Latin and Cyrillic
    /// letters, a full em for CJK ideographs. An estimate on the wide side, so boxes never
    /// under-cover the drawn text.
    public func textWidth(_ text: String) -> Double { Self.textWidth(text, fontSize: fontSize) }

    /// `textWidth` at `fontSize`, for text that is not a label (the report's title).
    public static func textWidth(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60:
                em += 1.0
            case 0x20: em += 0.3
            default: em += 0.62
            }
        }
        return em * fontSize
    }

    /// `text` cut to `shortLength` characters with an ellipsis, or nil when it is already short.
    public func shortened(_ text: String) -> String? {
        guard text.count > shortLength else { return nil }
        var cut = String(text.prefix(shortLength))
        while cut.last == " " || cut.last == "," { cut.removeLast() }
        return cut + "…"
    }

    /// Labels for `markers` in order; `texts[i]` is marker i's label, shortened when crowded.
    /// `obstacles` (a legend, a scale bar) are kept free too; `route` (a polyline) is avoided where
    /// a free spot allows.
    public func place(
        markers: [PlanePoint], texts: [String], obstacles: [PlaneRect] = [], route: [PlanePoint] = []
    ) -> [PlacedLabel] {
        let candidates = texts.map { text in [text] + (shortened(text).map { [$0] } ?? []) }
        return place(markers: markers, candidates: candidates, obstacles: obstacles, route: route)
    }

    /// As `place(markers:texts:)`, with each marker's texts in order of preference (full, then shorter).
    public func place(
        markers: [PlanePoint], candidates: [[String]], obstacles: [PlaneRect] = [], route: [PlanePoint] = []
    ) -> [PlacedLabel] {
        var taken: [PlaneRect] =
            obstacles
            + markers.map {
                PlaneRect(
                    x: $0.x - markerRadius, y: $0.y - markerRadius, width: 2 * markerRadius, height: 2 * markerRadius)
            }
        var placed: [PlacedLabel] = []
        for (i, marker) in markers.enumerated() where i < candidates.count {
            search: for text in candidates[i] {
                let w = textWidth(text)
                let h = fontSize * 1.25
                let d = markerRadius + gap
                let spots: [PlanePoint] = [
                    PlanePoint(x: marker.x + d, y: marker.y - h / 2),
                    PlanePoint(x: marker.x - d - w, y: marker.y - h / 2),
                    PlanePoint(x: marker.x - w / 2, y: marker.y - d - h),
                    PlanePoint(x: marker.x - w / 2, y: marker.y + d),
                    PlanePoint(x: marker.x + d * 0.7, y: marker.y - d * 0.7 - h),
                    PlanePoint(x: marker.x - d * 0.7 - w, y: marker.y - d * 0.7 - h),
                    PlanePoint(x: marker.x + d * 0.7, y: marker.y + d * 0.7),
                    PlanePoint(x: marker.x - d * 0.7 - w, y: marker.y + d * 0.7),
                ]
                var best: (box: PlaneRect, hidden: Double)?
                for spot in spots {
                    let box = PlaneRect(x: spot.x, y: spot.y, width: w, height: h)
                    guard bounds.contains(box), !taken.contains(where: { $0.intersects(box) }) else { continue }
                    let hidden = box.grown(by: Self.routeClearance).routeLength(route)
                    if hidden < best?.hidden ?? .infinity { best = (box, hidden) }
                    if hidden == 0 { break }  // clear of the route: the most wanted such spot
                }
                if let box = best?.box {
                    taken.append(box)
                    // Baseline about 0.8 of the line box down: the font's ascent.
                    placed.append(
                        PlacedLabel(
                            marker: i, text: text, box: box,
                            textOrigin: PlanePoint(x: box.x, y: box.y + fontSize * 0.95)))
                    break search
                }
            }
        }
        return placed
    }
}
