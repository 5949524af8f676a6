#if PERIMETER_INVARIANTS
    import Testing
    @testable import Geodesy

    /// With `PERIMETER_INVARIANTS` (`Scripts/invariants.sh`) the checks are compiled in and stop the process
    /// when broken: bounds that do not hold the exact distance are a precondition failure. (Without the flag
    /// this suite is not built, and `checkBounds` is empty.)
    @Suite struct InvariantCheckTests {
        @Test func boundsAboveTheExactDistanceStopTheProcess() async throws {
            await #expect(processExitsWith: .failure) {
                let table = ShapeTable([.circle(try! Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 100))])
                // The point is about 1,012 m from the centre, 912 m outside: a lower bound of 2 km is wrong.
                table.checkBounds(
                    (lower: 2_000, upper: 3_000), of: 0, from: PreparedCoordinate(Coordinate(latitude: 0, longitude: 0.0091))
                )
            }
        }

        @Test func boundsAroundTheExactDistancePass() throws {
            let table = ShapeTable([.circle(try Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 100))])
            table.checkBounds(
                (lower: 900, upper: 920), of: 0, from: PreparedCoordinate(Coordinate(latitude: 0, longitude: 0.0091)))
        }
    }
#endif
