/// Whether a word read from a config file may be quoted back in an error: not when it has the shape
/// of a credential pasted by mistake (an API key, a base64 password), which a bare TOML key can be.
/// Longer than any setting's name (24 characters) or holding four digits or more: no key of fixcast's
/// config is either, so a typo of one is still quoted ("wether").
public enum SecretShape {
    public static func looksLikeSecret(_ word: String) -> Bool {
        word.count > 24 || word.filter(\.isNumber).count >= 4
    }

    /// `"word"`, or a phrase saying it is not shown.
    public static func quoted(_ word: String) -> String {
        looksLikeSecret(word) ? "(a word not shown: it looks like a secret)" : "\"\(word)\""
    }
}
