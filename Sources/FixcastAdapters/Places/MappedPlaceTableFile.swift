import FixcastCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// places.bin mapped read-only: the storage fixcast's offline place table reads (`PlaceTableStorage`).
/// Nothing is copied or parsed at load; a lookup makes resident only the pages it touches (clean file pages
/// the kernel may drop again), and the mapping is removed when the last copy of the table goes.
public final class MappedPlaceTableFile: PlaceTableStorage, @unchecked Sendable {
    // @unchecked: the mapping is read-only and `bytes` never changes after init.
    public let bytes: UnsafeRawBufferPointer

    /// Why a file could not be mapped, in the system's own words (strerror), so that "too many open
    /// files" is not taken for a missing file.
    public struct Failure: Error, Sendable, Hashable {
        /// nil: the file is empty.
        public let errno: Int32?
        /// What failed, with `reason`: "it could not be opened", "it could not be mapped".
        public let step: String

        /// "it could not be opened: too many open files", "it is empty".
        public var reason: String {
            guard let errno else { return "it is empty" }
            let text = String(cString: strerror(errno))
            return step + ": " + text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// Maps `path` read-only; throws when it cannot be opened or mapped, or is empty.
    public init(path: String) throws(Failure) {
        let fd = Syscall.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(errno: errno, step: "it could not be opened") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(errno: errno, step: "it could not be read") }
        guard info.st_size > 0 else { throw Failure(errno: nil, step: "") }
        let size = Int(info.st_size)
        // Why the two hints: Linux 6.x maps a whole cached folio on one touch (measured here: one byte read
        // of places.bin made 2,048 kB resident when `cp` or a write had left it in 2 MB folios), so a few
        // lookups would make most of the file resident. Dropping the file's cached pages that no process
        // maps (clean, read-only data: the cost is re-reading a few pages) and asking for no read-ahead
        // makes each fault read and map one 4 kB page: measured 4 kB per touched page instead of 2 MB.
        #if os(Linux)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        #endif
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw Failure(errno: errno, step: "it could not be mapped")
        }
        _ = madvise(base, size, Int32(MADV_RANDOM))
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    /// Asks the kernel to read `range` ahead (before a scan over every row, such as search), instead of
    /// one page per fault: `MADV_WILLNEED` from the page that holds its first byte.
    public func willRead(_ range: Range<Int>) {
        guard let base = bytes.baseAddress, !range.isEmpty, range.lowerBound >= 0, range.upperBound <= bytes.count
        else { return }
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        let start = range.lowerBound / page * page
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), range.upperBound - start, Int32(MADV_WILLNEED))
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

extension OfflinePlaceTable {
    /// Maps the binary table at `path` read-only (the way fixcast loads places.bin).
    public init(mappingFile path: String) throws(FormatError) {
        let storage: MappedPlaceTableFile
        do { storage = try MappedPlaceTableFile(path: path) } catch { throw FormatError(line: 0, reason: error.reason) }
        try self.init(storage: storage)
    }
}
