/// What fixcast says about itself: `--version`, and the User-Agent every API request carries
/// (public APIs such as MET Norway and Nominatim refuse anonymous clients; a contact URL is their rule).
public enum FixcastInfo {
    public static let version = "0.1.0"
    public static let projectURL = "https://github.com/fixcast/fixcast"
    /// `fixcast/0.1.0 (+https://github.com/fixcast/fixcast)`
    public static let userAgent = "fixcast/\(version) (+\(projectURL))"
}
