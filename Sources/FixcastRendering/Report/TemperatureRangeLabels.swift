import FixcastCore

/// The trip's temperature range as the report writes it, in the header ("12 … 19 °C") and under the
/// legend's colour bar, and as `fixcast trips` lists it: one rule, so they all say the same.
///
/// The range is the readings' (their lowest and highest), each end in whole degrees as `DisplayUnits`
/// rounds it; ends that round alike are one value ("17 °C"). The header said "17 … 17 °C" for a trip
/// at 16.8 °C all along while the legend labelled the colour scale's own ends, widened to 16.3 …
/// 17.3 °C (`TemperatureColorScale`), "16" and "17": two ranges, neither the trip's.
package struct TemperatureRangeLabels {
    /// One label: the temperature it stands for (where on the colour bar it goes) and its text.
    struct Label: Equatable {
        var celsius: Double
        var text: String
    }

    /// Low end first; one label when both ends round alike (at their middle); none without a temperature.
    let labels: [Label]
    let display: DisplayUnits

    package init(temperaturesC: [Double], display: DisplayUnits) {
        self.display = display
        let finite = temperaturesC.filter { $0.isFinite }
        guard let lo = finite.min(), let hi = finite.max() else {
            labels = []
            return
        }
        let low = Label(celsius: lo, text: display.temperatureNumber(lo))
        let high = Label(celsius: hi, text: display.temperatureNumber(hi))
        labels = low.text == high.text ? [Label(celsius: (lo + hi) / 2, text: low.text)] : [low, high]
    }

    /// "12 … 19 °C", "17 °C"; nil without a temperature.
    package var text: String? {
        labels.isEmpty ? nil : labels.map(\.text).joined(separator: " … ") + " " + display.temperatureSymbol
    }

    /// Where each label goes under the colour bar of `scale`: at its temperature's colour (0 … 1 along
    /// the bar) and which of its ends is there (SVG `text-anchor`). A lone label is centred on its
    /// colour. Of two, the low one ends at its colour and the high one starts at its, so they never
    /// overlap however close; in the bar's outer quarters each turns inwards instead, to stay over the
    /// bar (a widened scale puts the two symmetrically, so both then turn: 1 − low = high).
    func onBar(_ scale: TemperatureColorScale) -> [(fraction: Double, anchor: String, label: Label)] {
        labels.enumerated().map { i, label in
            let f = max(0, min(1, scale.fraction(label.celsius)))
            let anchor =
                labels.count == 1 ? "middle" : i == 0 ? (f < 0.25 ? "start" : "end") : (f > 0.75 ? "end" : "start")
            return (f, anchor, label)
        }
    }
}
