internal import CMath

/// Sine, cosine and friends for the core's geometry (great-circle distance, unit vectors, map
/// projection), through the `CMath` shim so that FixcastCore never imports Glibc. In a namespace of
/// their own so that they never compete with Glibc's or Foundation's overloads in a file that imports
/// those too (the tests do). The answers are the C library's own, bit for bit.
package enum Elementary {
    @inline(__always) package static func sin(_ x: Double) -> Double { cmath_sin(x) }
    @inline(__always) package static func cos(_ x: Double) -> Double { cmath_cos(x) }
    @inline(__always) package static func tan(_ x: Double) -> Double { cmath_tan(x) }
    @inline(__always) package static func asin(_ x: Double) -> Double { cmath_asin(x) }
    @inline(__always) package static func atan(_ x: Double) -> Double { cmath_atan(x) }
    @inline(__always) package static func atan2(_ y: Double, _ x: Double) -> Double { cmath_atan2(y, x) }
    @inline(__always) package static func sinh(_ x: Double) -> Double { cmath_sinh(x) }
    @inline(__always) package static func log(_ x: Double) -> Double { cmath_log(x) }
    @inline(__always) package static func log10(_ x: Double) -> Double { cmath_log10(x) }
    @inline(__always) package static func exp(_ x: Double) -> Double { cmath_exp(x) }
    @inline(__always) package static func pow(_ x: Double, _ y: Double) -> Double { cmath_pow(x, y) }
    @inline(__always) package static func cbrt(_ x: Double) -> Double { cmath_cbrt(x) }
    /// The standard library's square root (correctly rounded, like C's `sqrt`).
    @inline(__always) package static func sqrt(_ x: Double) -> Double { x.squareRoot() }
}
