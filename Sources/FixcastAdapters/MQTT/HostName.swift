#if canImport(Glibc)
    import Glibc
#endif

/// The machine's host name (gethostname(2)), the default MQTT device id's source.
public enum HostName {
    /// nil when the system will not say.
    public static func current() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
