import Testing

@testable import TandemBackends

/// Exact decimal text: no exponent, every digit and the scale kept.
@Suite("Decimal text")
struct DecimalTextTests {
    @Test(arguments: [
        ("4805.10", "4805.10"), ("0.1", "0.1"), ("1E+2", "100"), ("1e2", "100"), ("1.50E1", "15.0"),
        ("100E-2", "1.00"), ("1.5e-3", "0.0015"), ("12E-1", "1.2"), ("-0.50", "-0.50"), ("+7", "7"),
        ("-0", "-0"), ("007.5", "7.5"), (".5", "0.5"), ("5.", "5"), ("0", "0"), ("0E+0", "0"),
        ("635545521745890001", "635545521745890001"), ("123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"),
        ("25867.03", "25867.03"), ("49.293673600000", "49.293673600000"), ("1E-0", "1"), ("-1.2E+003", "-1200"),
    ])
    func literalsAreNormalizedExactly(literal: String, expected: String) {
        #expect(DecimalText.normalized(literal) == expected)
    }

    @Test(arguments: ["", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1,5", "NaN", "INF", "-INF", " 1", "1 ", "0x10", "1e99999", "1e-99999", "１"])
    func nonDecimalsAreRefused(literal: String) {
        #expect(DecimalText.normalized(literal) == nil)
    }

    @Test func integersAreCheckedAgainstTheirRange() {
        #expect(DecimalText.integer("2147483647", in: Int64(Int32.min)...Int64(Int32.max)) == "2147483647")
        #expect(DecimalText.integer("2147483648", in: Int64(Int32.min)...Int64(Int32.max)) == nil)
        #expect(DecimalText.integer("-9223372036854775808", in: Int64.min...Int64.max) == "-9223372036854775808")
        #expect(DecimalText.integer("9223372036854775808", in: Int64.min...Int64.max) == nil)
        #expect(DecimalText.integer("+5", in: Int64.min...Int64.max) == nil)
        #expect(DecimalText.integer("1.0", in: Int64.min...Int64.max) == nil)
    }
}
