#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C math functions the draws use, under the spelling Geodesy's `Math.swift` gives them.
func _sin(_ x: Double) -> Double { sin(x) }
func _cos(_ x: Double) -> Double { cos(x) }
func _log(_ x: Double) -> Double { log(x) }
func _exp(_ x: Double) -> Double { exp(x) }
