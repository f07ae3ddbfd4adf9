import Testing

@testable import TandemBackends

@Suite("Address rules")
struct AddressRulesTests {
    private func refusal(_ text: String, _ policy: OutboundPolicy = OutboundPolicy()) -> RefusedAddressKind? {
        guard let address = IPAddress(text) else {
            Issue.record("\(text) does not parse")
            return nil
        }
        return AddressRules(policy: policy).refusal(for: address)
    }

    @Test(
        "Metadata, link-local, unspecified, multicast, broadcast and loopback are refused by default, in every form",
        arguments: [
            ("169.254.169.254", RefusedAddressKind.cloudMetadata),
            ("::ffff:169.254.169.254", .cloudMetadata),
            ("::ffff:a9fe:a9fe", .cloudMetadata),
            ("64:ff9b::169.254.169.254", .cloudMetadata),
            ("fd00:ec2::254", .cloudMetadata),
            ("100.100.100.200", .cloudMetadata),
            ("::ffff:100.100.100.200", .cloudMetadata),
            ("169.254.1.1", .linkLocal),
            ("fe80::1", .linkLocal),
            ("febf::1", .linkLocal),
            ("::ffff:169.254.1.1", .linkLocal),
            ("0.0.0.0", .unspecified),
            ("0.1.2.3", .unspecified),
            ("::", .unspecified),
            ("::ffff:0.0.0.0", .unspecified),
            ("224.0.0.1", .multicast),
            ("239.255.255.250", .multicast),
            ("ff02::1", .multicast),
            ("::ffff:224.0.0.1", .multicast),
            ("255.255.255.255", .broadcastOrReserved),
            ("::ffff:255.255.255.255", .broadcastOrReserved),
            ("127.0.0.1", .loopback),
            ("127.8.9.10", .loopback),
            ("::1", .loopback),
            ("::ffff:127.0.0.1", .loopback),
        ])
    func refusedByDefault(_ address: String, _ kind: RefusedAddressKind) {
        #expect(refusal(address) == kind)
    }

    @Test(
        "Private networks and public addresses are allowed by default",
        arguments: [
            "10.1.2.3", "172.16.0.1", "172.31.255.254", "192.168.1.10", "100.64.0.1", "fd12:3456::1", "fc00::1",
            "8.8.8.8", "2001:db8::1", "::ffff:10.1.2.3",
        ])
    func allowedByDefault(_ address: String) {
        #expect(refusal(address) == nil)
    }

    @Test("Private networks are refused when the policy says so, public addresses still allowed")
    func refusesPrivateNetworks() {
        let policy = OutboundPolicy(refusesPrivateNetworks: true)
        for address in ["10.1.2.3", "172.20.0.1", "192.168.0.1", "fd12::1", "::ffff:10.0.0.1", "100.64.1.1"] {
            #expect(refusal(address, policy) == .privateNetwork, "\(address)")
        }
        #expect(refusal("8.8.8.8", policy) == nil)
        #expect(refusal("172.32.0.1", policy) == nil)
    }

    @Test("Loopback is allowed only with allowsLoopback; metadata stays refused")
    func loopback() {
        let policy = OutboundPolicy(allowsLoopback: true)
        #expect(refusal("127.0.0.1", policy) == nil)
        #expect(refusal("::1", policy) == nil)
        #expect(refusal("::ffff:127.0.0.1", policy) == nil)
        #expect(refusal("169.254.169.254", policy) == .cloudMetadata)
    }

    @Test("An allowed block overrides a refusal, in either form, and only inside the block")
    func exceptions() {
        let policy = OutboundPolicy(
            refusesPrivateNetworks: true, allowedAddresses: [CIDRBlock("10.20.0.0/16")!, CIDRBlock("169.254.10.0/24")!])
        #expect(refusal("10.20.3.4", policy) == nil)
        #expect(refusal("::ffff:10.20.3.4", policy) == nil)
        #expect(refusal("10.21.0.1", policy) == .privateNetwork)
        #expect(refusal("169.254.10.5", policy) == nil)
        #expect(refusal("169.254.169.254", policy) == .cloudMetadata)
    }
}
