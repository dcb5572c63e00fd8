/// Little-endian reads at any alignment, the one way the mapped tables (places.bin, alert-areas.bin,
/// basemap.bin) read their numbers; callers keep `offset` within bounds (each table checks its
/// sections against the bytes before it follows them).
extension UnsafeRawBufferPointer {
    @inline(__always) package func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) package func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) package func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) package func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }
    @inline(__always) package func i32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }
}

/// Little-endian writes, the one way the tables' images are made (places.bin's encoder, the tests'
/// builders of alert-areas.bin and basemap.bin).
extension Array where Element == UInt8 {
    package mutating func append(u16 v: UInt16) { append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)]) }
    package mutating func append(u32 v: UInt32) {
        append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)])
    }
    package mutating func append(u64 v: UInt64) {
        append(u32: UInt32(truncatingIfNeeded: v))
        append(u32: UInt32(truncatingIfNeeded: v >> 32))
    }
}
