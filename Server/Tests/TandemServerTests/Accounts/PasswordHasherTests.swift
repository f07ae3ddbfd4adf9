@testable import TandemServer
import Testing

/// scrypt password hashes: salted, self-describing, checked in constant time.
@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("a hash verifies its password only, and two hashes of one password differ")
    func hashVerifiesOnlyItsPassword() throws {
        let hasher = PasswordHasher(logN: 10)
        let first = try hasher.hash("correct horse battery staple")
        let second = try hasher.hash("correct horse battery staple")
        #expect(first.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(first != second, "a fresh salt per hash")
        #expect(!first.contains("correct horse"))
        #expect(try hasher.verify("correct horse battery staple", against: first))
        #expect(try !hasher.verify("correct horse battery stapler", against: first))
        // The parameters travel with the hash: a hasher with another cost still verifies it.
        #expect(try PasswordHasher().verify("correct horse battery staple", against: second))
    }

    @Test("a malformed stored hash is a typed error, not a crash")
    func malformedHashIsRefused() {
        for bad in ["", "plain", "$scrypt$ln=99,r=8,p=1$c2FsdA$aGFzaA", "$bcrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA", "$scrypt$ln=10$c2FsdA$aGFzaA"] {
            #expect(throws: PasswordError.malformedHash, "\(bad)") { try PasswordHasher().verify("x", against: bad) }
        }
    }

    @Test("a stored hash in standard base64 (+ or /) is malformed: base64url is decoded strictly")
    func standardBase64IsRefused() {
        for bad in ["$scrypt$ln=10,r=8,p=1$c2Fs+A$aGFzaA", "$scrypt$ln=10,r=8,p=1$c2FsdA$aGF/aA", "$scrypt$ln=10,r=8,p=1$c2FsdA=$aGFzaA"] {
            #expect(throws: PasswordError.malformedHash, "\(bad)") { try PasswordHasher().verify("x", against: bad) }
        }
    }
}
