import FixcastCore

/// A C library that its shim opens with `dlopen` at first use instead of linking it (libcurl, libgps,
/// libmosquitto, libxml2), so that a command which never uses it never loads it and its dependencies
/// (issue 22: `fixcast line` ≤ 20 ms and ≤ 12 MB). Each shim exports the same four functions; this
/// turns their answer into a `MissingLibrary` for the component's one sentence.
struct LoadableLibrary {
    let soname: String
    private let loadLibrary: @convention(c) () -> Int32
    private let loadError: @convention(c) () -> UnsafePointer<CChar>?
    private let probeLibrary: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int32

    init(
        soname: UnsafePointer<CChar>?, load: @convention(c) () -> Int32,
        error: @convention(c) () -> UnsafePointer<CChar>?,
        probe: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int32
    ) {
        self.soname = soname.map { String(cString: $0) } ?? ""
        loadLibrary = load
        loadError = error
        probeLibrary = probe
    }

    /// Opens the library (once per process; a failure is tried again next time): nil when it is ready.
    func load() -> MissingLibrary? {
        guard loadLibrary() != 0 else { return nil }
        return MissingLibrary(soname: soname, detail: loadError().map { String(cString: $0) } ?? "")
    }

    /// Opens `soname` the way `load` opens the real one, and closes it again: nil when it would do.
    /// Tests name a library that does not exist; the shim's own library is left alone.
    func probe(soname: String) -> MissingLibrary? {
        var buffer = [CChar](repeating: 0, count: 512)
        let rc = buffer.withUnsafeMutableBufferPointer { probeLibrary(soname, $0.baseAddress, $0.count) }
        guard rc != 0 else { return nil }
        let detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return MissingLibrary(soname: soname, detail: detail)
    }
}
