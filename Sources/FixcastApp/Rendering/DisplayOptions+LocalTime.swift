import FixcastAdapters
import FixcastCore
import FixcastRendering

extension DisplayOptions {
    /// The settings' units and language, with the machine's time zone rules (`LocalTimeOffset`,
    /// which reads the system's zone files: rendering itself stays pure and is given the rule).
    public init(settings: Settings) {
        self.init(settings: settings, utcOffset: LocalTimeOffset.system)
    }
}
