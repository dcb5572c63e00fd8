/// The part of fixcast a problem belongs to; it is named in every error a person sees and in the
/// reading's `errors` list (CONTRACT.md).
public enum Component: String, Sendable, CaseIterable {
    case gps, weather, place, alerts, ahead, storage, config, mqtt
}

/// An error that can reach a person: one sentence naming the component, what went wrong and
/// what to do (the house rule). Each layer has its own enum conforming to this; lower errors are
/// wrapped, never leaked.
public protocol UserFacingError: Error, Sendable {
    var component: Component { get }
    /// One sentence, starting with the component ("gpsd at 127.0.0.1:2947 is not answering; start gpsd or pass --at LAT,LON.").
    var message: String { get }
}
