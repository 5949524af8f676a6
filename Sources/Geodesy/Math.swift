#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Thin wrappers so that the math functions have one spelling everywhere in Geodesy.
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _asin(_ x: Double) -> Double { asin(x) }
@usableFromInline func _acos(_ x: Double) -> Double { acos(x) }
