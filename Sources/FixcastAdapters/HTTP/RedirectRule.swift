import FixcastCore
import FixcastText

/// Decides whether a redirect is followed (issue 24): only to the same origin — scheme, host and
/// port — as the URL fixcast was given. A plain-`http://` loopback mirror may be asked for the
/// position in clear text because it is on this machine; a redirect from it to another host (a
/// private-range address, the internet) would send that position unencrypted wherever the mirror
/// points, and one from `https://` to `http://` would drop the encryption. Another port on the same
/// host is another service, so it is refused too. A service that moved is fixed by pointing the base
/// URL at where it is now, which the refusal names.
enum RedirectRule {
    /// The longest a URL is shown in a message; the origin comes first, so it survives the cut.
    static let maxShownCharacters = 64

    static func allows(from origin: HTTPURLCheck.Checked, to target: HTTPURLCheck.Checked) -> Bool {
        origin.isSameOrigin(as: target)
    }

    /// A URL for a message: scheme, host, port and path, without user info, query or fragment (a
    /// query can hold an API key or the position), control characters shown as `\u{…}`, capped.
    static func shown(_ url: String) -> String {
        var rest = Substring(url)
        if let q = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<q] }
        if let schemeEnd = rest.firstRange(of: "://") {
            let afterScheme = rest[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            if let at = afterScheme[..<authorityEnd].lastIndex(of: "@") {
                rest = rest[..<schemeEnd.upperBound] + afterScheme[afterScheme.index(after: at)...]
            }
        }
        return TerminalText.echo(String(rest), maxCharacters: maxShownCharacters)
    }
}
