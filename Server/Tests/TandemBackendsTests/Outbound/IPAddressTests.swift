import TandemBackends
import Testing

@Suite("IP addresses")
struct IPAddressTests {
    @Test("IPv4 dotted quads parse and print back")
    func ipv4() {
        #expect(IPAddress("169.254.169.254") == .v4(0xA9FE_A9FE))
        #expect(IPAddress("0.0.0.0") == .v4(0))
        #expect(IPAddress("255.255.255.255") == .v4(.max))
        #expect(IPAddress("10.1.2.3")?.description == "10.1.2.3")
    }

    @Test(
        "Malformed IPv4 is refused, including leading zeros a resolver could read as octal",
        arguments: [
            "256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "0177.0.0.1", "01.2.3.4", "+1.2.3.4", "1.2.3.4 ", "",
            "a.b.c.d", "١.٢.٣.٤",
        ])
    func malformedIPv4(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("IPv6 forms parse to the same value and print in RFC 5952 form")
    func ipv6() {
        let full = IPAddress("fe80:0000:0000:0000:0000:0000:0000:0001")
        #expect(full == IPAddress("fe80::1"))
        #expect(full == IPAddress("FE80::0:1"))
        #expect(full?.description == "fe80::1")
        #expect(IPAddress("::") == .v6(0))
        #expect(IPAddress("::1") == .v6(1))
        #expect(IPAddress("fd00:ec2::254")?.description == "fd00:ec2::254")
        #expect(IPAddress("2001:db8:0:0:1:0:0:1")?.description == "2001:db8::1:0:0:1")
        #expect(IPAddress("2001:db8:1:1:1:1:1:1")?.description == "2001:db8:1:1:1:1:1:1")
    }

    @Test(
        "Malformed IPv6 is refused",
        arguments: [
            ":::", "1:::2", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "12345::", "fe80::1%eth0", "[::1]", ":1::",
            "g::1", "::ffff:1.2.3", "1:2:3:4:5:6:7::8",
        ])
    func malformedIPv6(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test("IPv4-mapped, IPv4-compatible and NAT64 addresses carry their IPv4 address")
    func embeddedIPv4() {
        let metadata: UInt32 = 0xA9FE_A9FE
        #expect(IPAddress("::ffff:169.254.169.254")?.embeddedIPv4 == metadata)
        #expect(IPAddress("::ffff:a9fe:a9fe")?.embeddedIPv4 == metadata)
        #expect(IPAddress("::169.254.169.254")?.embeddedIPv4 == metadata)
        #expect(IPAddress("64:ff9b::169.254.169.254")?.embeddedIPv4 == metadata)
        #expect(IPAddress("::ffff:a9fe:a9fe")?.description == "::ffff:169.254.169.254")
        #expect(IPAddress("::1")?.embeddedIPv4 == nil)
        #expect(IPAddress("::")?.embeddedIPv4 == nil)
        #expect(IPAddress("2001:db8::a9fe:a9fe")?.embeddedIPv4 == nil)
        #expect(IPAddress("169.254.169.254")?.embeddedIPv4 == nil)
    }
}
