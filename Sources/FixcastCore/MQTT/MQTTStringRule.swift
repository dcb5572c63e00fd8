/// What may be handed to libmosquitto as one of MQTT's strings: a topic, the client id, the user
/// name (a "UTF-8 encoded string", MQTT 3.1.1 §1.5.3 and 5.0 §1.5.4), and the password ("binary
/// data", §3.1.3.5). One rule, used where a setting is read (config and environment: exit 2 naming
/// the key) and again in the adapter right before the call, so no value the protocol cannot carry
/// ever reaches the library.
///
/// The limits are the protocol's own: a two-byte length in front of every string, so at most
/// 65,535 bytes; and in text fields no NUL, no C0 or C1 control character, DEL or Unicode
/// noncharacter, which the specification forbids or lets a receiver refuse and which libmosquitto's
/// `mosquitto_validate_utf8` refuses (a publish to such a topic silently never leaves).
public enum MQTTStringRule {
    /// MQTT's two-byte length prefix.
    public static let maxBytes = 65_535

    /// Why `text` cannot be an MQTT UTF-8 string field ("must …"); nil when it can. Swift strings are
    /// valid UTF-8 already (a config's bytes are checked when the file is read).
    public static func problem(_ text: String) -> String? {
        if text.utf8.count > maxBytes {
            return "must be at most \(maxBytes) bytes of UTF-8 (MQTT's limit), not \(text.utf8.count)"
        }
        if text.unicodeScalars.contains(where: isForbidden) {
            return "must not contain control characters (C0, DEL or C1) or Unicode noncharacters"
        }
        return nil
    }

    /// Why `data` cannot be MQTT binary data such as the password ("must …"); nil when it can. The
    /// reason never repeats the value: a password is a secret.
    public static func binaryProblem(_ data: String) -> String? {
        if data.utf8.count > maxBytes {
            return "must be at most \(maxBytes) bytes (MQTT's limit)"
        }
        // libmosquitto takes it as a C string: a NUL would cut it short without a word.
        if data.utf8.contains(0) { return "must not contain a NUL character" }
        return nil
    }

    /// A scalar MQTT text may not hold: U+0000–U+001F, U+007F–U+009F, and the noncharacters
    /// U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of every plane.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v <= 0x1F || (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || (v & 0xFFFE) == 0xFFFE
    }
}
