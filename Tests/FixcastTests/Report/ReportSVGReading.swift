import Foundation

@testable import FixcastTestSupport

/// Reads back what a report SVG drew, for tests that check the picture's geometry: elements by
/// class, their attributes, polyline vertices, the scale bar.
struct ReportSVGReading {
    let svg: String

    /// The opening tags of the elements `<name class="cls…"`, as text.
    func elements(_ name: String, class cls: String) -> [String] {
        svg.components(separatedBy: "<\(name) class=\"\(cls)").dropFirst().map { part in
            String(part.prefix { $0 != ">" })
        }
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let r = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[r.upperBound...].prefix { $0 != "\"" })
    }

    static func number(_ name: String, in tag: String) -> Double? { attribute(name, in: tag).flatMap(Double.init) }

    /// `points="x,y x,y …"` as pairs.
    static func vertices(_ tag: String) -> [(Double, Double)] {
        (attribute("points", in: tag) ?? "").split(separator: " ").compactMap { pair in
            let xy = pair.split(separator: ",")
            guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]) else { return nil }
            return (x, y)
        }
    }

    /// The start circle's and end square's centres on the map.
    var startAndEnd: (start: (Double, Double), end: (Double, Double))? {
        guard let c = elements("circle", class: "start\"").first, let e = elements("rect", class: "end\"").first,
            let cx = Self.number("cx", in: c), let cy = Self.number("cy", in: c), let ex = Self.number("x", in: e),
            let ey = Self.number("y", in: e), let ew = Self.number("width", in: e)
        else { return nil }
        return ((cx, cy), (ex + ew / 2, ey + ew / 2))
    }

    /// The scale bar's length in pixels (from its path `M x1,y V y H x2 …`) and its label ("20 km").
    var scaleBar: (pixels: Double, label: String)? {
        guard let g = svg.components(separatedBy: "<g class=\"scale-bar\">").dropFirst().first,
            let d = g.components(separatedBy: "<path d=\"").dropFirst().first?.prefix(while: { $0 != "\"" })
        else { return nil }
        let parts = d.split(separator: " ")
        guard parts.count >= 3, let x1 = Double(parts[0].dropFirst().split(separator: ",")[0]),
            parts[2].hasPrefix("H"), let x2 = Double(parts[2].dropFirst()),
            let label = g.components(separatedBy: "text-anchor=\"middle\" fill=\"#1b1f24\">").dropFirst().first?
                .prefix(while: { $0 != "<" })
        else { return nil }
        return (x2 - x1, String(label))
    }

    /// The scale bar's length in kilometres (from its label; miles converted).
    var scaleBarKm: Double? {
        guard let bar = scaleBar else { return nil }
        let parts = bar.label.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0]) else { return nil }
        return parts[1] == "mi" ? value * 1.609344 : value
    }
}
