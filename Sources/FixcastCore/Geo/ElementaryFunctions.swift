// The C library's elementary functions, declared by their C symbols so that FixcastCore needs no
// `import Glibc`. That import would put open/read/mmap/clock_gettime within reach of the pure core; these
// declarations bring in only functions of a Double with no I/O and no state (the C library sets `errno` on a
// domain error, which nothing here reads). The symbols come from libm, which every Swift program on Linux
// links; the answers are the C functions' own, so geometry gives the same Doubles as it did through Glibc.
//
// Calling convention: a function of one or two Doubles returning a Double passes them in the same
// floating-point registers under Swift's and C's conventions (x86_64: xmm0/xmm1, arm64: d0/d1), the only
// targets fixcast builds for. A `CMath` shim target would be the alternative if that ever changes.

@_silgen_name("sin") private func cSin(_ x: Double) -> Double
@_silgen_name("cos") private func cCos(_ x: Double) -> Double
@_silgen_name("asin") private func cAsin(_ x: Double) -> Double

/// Sine, cosine and friends for the core's geometry (great-circle distance, unit vectors), in a namespace
/// of their own so that they never compete with Glibc's or Foundation's overloads in a file that imports
/// those too (the tests do).
enum Elementary {
    @inline(__always) static func sin(_ x: Double) -> Double { cSin(x) }
    @inline(__always) static func cos(_ x: Double) -> Double { cCos(x) }
    @inline(__always) static func asin(_ x: Double) -> Double { cAsin(x) }
    /// The standard library's square root (correctly rounded, like C's `sqrt`).
    @inline(__always) static func sqrt(_ x: Double) -> Double { x.squareRoot() }
}
