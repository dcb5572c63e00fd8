import FixcastText

/// The base URL a provider's or alert source's paths are appended to (CONTRACT.md: `base_url` and
/// its kin): the configured one without white space around it and without trailing slashes (a path
/// is not doubled), or the service's public URL when none is configured.
enum ServiceBaseURL {
    static func resolve(_ configured: String, publicURL: String) -> String {
        var base = configured.trimmingWhitespace()
        if base.isEmpty { base = publicURL }
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
