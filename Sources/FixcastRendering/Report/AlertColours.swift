import FixcastCore

/// The colours an alert's period is shaded and labelled in, by severity: the red–orange–yellow
/// ladder people know from warning maps (NWS, Meteoalarm), blue for minor, grey for unknown. Each
/// label colour is dark enough to read on the panel's near-white (contrast above 4.5:1).
public struct AlertColours: Sendable, Hashable {
    public let fill: String
    public let text: String

    public init(_ severity: AlertSeverity) {
        switch severity {
        case .extreme: (fill, text) = ("#cf222e", "#82071e")
        case .severe: (fill, text) = ("#f0883e", "#9a3f00")
        case .moderate: (fill, text) = ("#d4a72c", "#7d4e00")
        case .minor: (fill, text) = ("#54aeff", "#0a3069")
        case .unknown: (fill, text) = ("#8c959f", "#424a53")
        }
    }
}
