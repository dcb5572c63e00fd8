import FixcastCore
import FoundationEssentials

/// An sRGB colour, 0...255 per channel.
public struct RGB: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// `#rrggbb`, as SVG takes it.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [r, g, b] {
            s.append(digits[Int(v >> 4)])
            s.append(digits[Int(v & 15)])
        }
        return s
    }

    /// CIE L* (0 black ... 100 white) of the colour: how light a person sees it.
    public var lightness: Double {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : Elementary.pow((c + 0.055) / 1.055, 2.4)
        }
        let y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
        return y > 216.0 / 24389 ? 116 * Elementary.cbrt(y) - 16 : y * 24389 / 27
    }
}

/// The viridis colour map (van der Walt & Smith, matplotlib's default): perceptually uniform
/// and monotonic in lightness, so "lighter" reads as "warmer" in colour and in grey print, and
/// it stays readable for the common kinds of colour blindness.
///
/// Nine anchors sampled from matplotlib's table at 0, 1/8, ..., 1, interpolated linearly in sRGB;
/// steps that small keep the lightness monotonic (checked in the tests).
public enum ViridisScale {
    public static let anchors: [RGB] = [
        RGB(0x44, 0x01, 0x54), RGB(0x47, 0x2c, 0x7a), RGB(0x3b, 0x51, 0x8b), RGB(0x2c, 0x71, 0x8e),
        RGB(0x21, 0x90, 0x8d), RGB(0x27, 0xad, 0x81), RGB(0x5c, 0xc8, 0x63), RGB(0xaa, 0xdc, 0x32),
        RGB(0xfd, 0xe7, 0x25),
    ]

    /// The colour at `t` in 0...1 (clamped; NaN gives the low end).
    public static func color(at t: Double) -> RGB {
        let clamped = t.isNaN ? 0 : max(0, min(1, t))
        let position = clamped * Double(anchors.count - 1)
        let i = min(anchors.count - 2, Int(position))
        let f = position - Double(i)
        let a = anchors[i]
        let b = anchors[i + 1]
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(max(0, min(255, (Double(x) + (Double(y) - Double(x)) * f).rounded())))
        }
        return RGB(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b))
    }
}

/// Maps temperatures onto the colour scale over the trip's range, so the legend's lowest colour is the
/// coldest reading's and its highest the warmest's (a range under 1 °C is widened: `range(of:)`). The
/// legend labels the readings' range under its colours (`TemperatureRangeLabels`).
public struct TemperatureColorScale: Sendable, Hashable {
    public let lowC: Double
    public let highC: Double

    /// The range's ends are `range(of:)`'s.
    public init(temperaturesC: [Double]) {
        (lowC, highC) = Self.range(of: temperaturesC)
    }

    /// The finite temperatures' lowest and highest, a range narrower than 1 °C widened around its
    /// middle (`FlatRange`): one temperature (or a whole trip in one weather) gets the middle colour,
    /// not a scale stretched over sensor noise, and the middle of the profile's axis.
    public static func range(of temperaturesC: [Double]) -> (low: Double, high: Double) {
        let finite = temperaturesC.filter { $0.isFinite }
        return FlatRange.widened(low: finite.min() ?? 0, high: finite.max() ?? 0, toAtLeast: 1)
    }

    /// 0 at the low end, 1 at the high end.
    public func fraction(_ celsius: Double) -> Double {
        (celsius - lowC) / (highC - lowC)
    }

    public func color(_ celsius: Double) -> RGB { ViridisScale.color(at: fraction(celsius)) }
}
