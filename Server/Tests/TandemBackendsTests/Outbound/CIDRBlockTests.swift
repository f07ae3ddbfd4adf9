import Foundation
import TandemBackends
import Testing

@Suite("CIDR blocks")
struct CIDRBlockTests {
    @Test("An IPv4 block holds exactly its range")
    func ipv4Block() throws {
        let block = try #require(CIDRBlock("172.16.0.0/12"))
        #expect(block.contains(IPAddress("172.16.0.1")!))
        #expect(block.contains(IPAddress("172.31.255.255")!))
        #expect(!block.contains(IPAddress("172.32.0.0")!))
        #expect(!block.contains(IPAddress("172.15.255.255")!))
    }

    @Test("An IPv6 block holds exactly its range, and never an address of the other family")
    func ipv6Block() throws {
        let block = try #require(CIDRBlock("fe80::/10"))
        #expect(block.contains(IPAddress("fe80::1")!))
        #expect(block.contains(IPAddress("febf:ffff::1")!))
        #expect(!block.contains(IPAddress("fec0::1")!))
        #expect(!block.contains(IPAddress("169.254.0.1")!))
        #expect(try #require(CIDRBlock("0.0.0.0/0")).contains(IPAddress("8.8.8.8")!))
        #expect(!(try #require(CIDRBlock("0.0.0.0/0")).contains(IPAddress("::ffff:8.8.8.8")!)))
    }

    @Test("A bare address is a block of one")
    func singleAddress() throws {
        let v4 = try #require(CIDRBlock("10.0.0.7"))
        #expect(v4.prefixLength == 32)
        #expect(v4.contains(IPAddress("10.0.0.7")!))
        #expect(!v4.contains(IPAddress("10.0.0.8")!))
        #expect(try #require(CIDRBlock("fd00:ec2::254")).prefixLength == 128)
    }

    @Test(
        "Malformed blocks are refused",
        arguments: [
            "10.0.0.0/33", "10.0.0.1/8", "fe80::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "/8", "10.0.0.0/ 8",
            "example.com/8",
        ])
    func malformed(_ text: String) {
        #expect(CIDRBlock(text) == nil)
    }

    @Test("Blocks code as their text")
    func coding() throws {
        let blocks = [CIDRBlock("10.20.0.0/16")!, CIDRBlock("fd12:3456::/48")!]
        let data = try JSONEncoder().encode(blocks)
        #expect(String(decoding: data, as: UTF8.self) == #"["10.20.0.0\/16","fd12:3456::\/48"]"#)
        #expect(try JSONDecoder().decode([CIDRBlock].self, from: data) == blocks)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CIDRBlock].self, from: Data(#"["10.0.0.1/8"]"#.utf8))
        }
    }
}
