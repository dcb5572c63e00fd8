/// Little-endian reads at any alignment, the one way the mapped tables (places.bin, alert-areas.bin,
/// basemap.bin) read their numbers; callers keep `offset` within bounds (each table checks its
/// sections against the bytes before it follows them).
extension UnsafeRawBufferPointer {
    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }
    @inline(__always) func i32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }
}
