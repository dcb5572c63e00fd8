/// Where a table's image lives: its bytes, who keeps them alive, and what to do before a long read. The
/// formats read the bytes and nothing else; where they come from is the storage's business: an array in
/// memory (`InMemoryTableStorage`, tests and `fixcast-bench --compile`) or a read-only file mapping (the
/// adapters' `MappedPlaceTableFile`, the way fixcast loads its tables; FixcastCore names this port
/// `PlaceTableStorage`).
///
/// A class (`AnyObject`) because it owns the memory `bytes` points into: the bytes stay valid and unchanged
/// for as long as the object lives, and a table holds it for as long as any copy of the table exists.
public protocol TableStorage: AnyObject, Sendable {
    /// The whole image. Valid and unchanged for the storage's lifetime.
    var bytes: UnsafeRawBufferPointer { get }

    /// A hint that every byte of `range` (offsets into `bytes`) is about to be read in order, as a search
    /// does over every record and name. A mapping reads such a range ahead instead of one page per fault;
    /// memory ignores it. Out-of-range or empty ranges are ignored.
    func willRead(_ range: Range<Int>)
}

/// An image held in memory: a copy of an array, freed with the storage.
public final class InMemoryTableStorage: TableStorage, @unchecked Sendable {
    // @unchecked: `bytes` is written once, in init, and never through this type again.
    public let bytes: UnsafeRawBufferPointer
    private let owned: UnsafeMutableRawBufferPointer

    public init(copying array: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, array.count), alignment: 16)
        array.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = buffer.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        owned = buffer
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<array.count])
    }

    /// Memory is already resident: nothing to read ahead.
    public func willRead(_ range: Range<Int>) {}

    deinit { owned.deallocate() }
}
