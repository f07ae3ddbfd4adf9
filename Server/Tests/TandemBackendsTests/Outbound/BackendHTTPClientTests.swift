import Foundation
import Testing

@testable import TandemBackends

@Suite("Outbound client: calls and the URL and address rules")
struct BackendHTTPClientTests {
    @Test("A GET to a loopback server returns status, headers in order, body, final URL and elapsed time")
    func normalGet() async throws {
        try await withTestServer(respond: { request in
            ScriptedResponse(
                status: 200, headers: [("X-First", "1"), ("Content-Type", "application/json"), ("X-First", "2")],
                body: Array(#"{"value":[{"id":1}]}"#.utf8))
        }) { server in
            try await withClient { client in
                let url = server.url("/odata/Orders?$top=1")
                let response = try await client.send(BackendRequest(.get, url, headers: ["Accept": "application/json"]))
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == #"{"value":[{"id":1}]}"#)
                #expect(response.headers.values(for: "x-first") == ["1", "2"])
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.url == url)
                #expect(response.elapsed > .zero)
                let received = try #require(server.requests.first)
                #expect(received.method == "GET")
                #expect(received.uri == "/odata/Orders?$top=1")
                #expect(received.header("Accept") == "application/json")
            }
        }
    }

    @Test("A POST sends its body; a 404 is a response, not an error")
    func postAndClientError() async throws {
        try await withTestServer(respond: { request in
            .text("no such entity set", status: request.method == "POST" ? 404 : 500)
        }) { server in
            try await withClient { client in
                let response = try await client.send(
                    BackendRequest(
                        .post, server.url("/missing"), headers: ["Content-Type": "application/json"],
                        body: Array("{}".utf8)))
                #expect(response.status == 404)
                #expect(server.requests.first?.body == Array("{}".utf8))
            }
        }
    }

    @Test(
        "A host name is resolved by the client's resolver and the connection pinned to that address, keeping the name in Host"
    )
    func pinnedToVettedAddress() async throws {
        try await withTestServer(respond: { _ in .text("pinned") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
            try await withClient(resolver: resolver) { client in
                let response = try await client.send(BackendRequest(.get, server.url("/", name: "backend.test")))
                #expect(String(decoding: response.body, as: UTF8.self) == "pinned")
                #expect(resolver.lookupCount == 1)
                #expect(server.requests.first?.header("Host") == "backend.test:\(server.port)")
            }
        }
    }

    @Test("A literal metadata address is refused before any connection")
    func metadataLiteral() async throws {
        try await withClient(OutboundPolicy()) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, URL(string: "https://169.254.169.254/latest/meta-data/")!))
            }
            #expect(
                error
                    == .addressRefused(
                        host: "169.254.169.254", address: IPAddress("169.254.169.254")!, kind: .cloudMetadata))
            #expect(client.pinnedClientCount == 0, "a connection was set up")
        }
    }

    @Test(
        "A host that resolves to the metadata address is refused, and nothing reaches the server even on a port it listens on"
    )
    func metadataByName() async throws {
        try await withTestServer(respond: { _ in .text("should not be reached") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1", "::ffff:169.254.169.254"]])
            try await withClient(resolver: resolver) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", name: "backend.test")))
                }
                #expect(
                    error
                        == .addressRefused(
                            host: "backend.test", address: IPAddress("::ffff:169.254.169.254")!, kind: .cloudMetadata))
                #expect(server.connectionCount == 0)
            }
        }
    }

    @Test("An IPv6 link-local literal is refused")
    func ipv6LinkLocal() async throws {
        try await withClient(OutboundPolicy()) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, URL(string: "https://[fe80::1]:8443/")!))
            }
            #expect(error == .addressRefused(host: "fe80::1", address: IPAddress("fe80::1")!, kind: .linkLocal))
            #expect(client.pinnedClientCount == 0, "a connection was set up")
        }
    }

    @Test("A host whose address changes to a refused one is refused on the next call (no rebinding)")
    func rebinding() async throws {
        try await withTestServer(respond: { _ in .text("ok") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
            try await withClient(resolver: resolver) { client in
                let url = server.url("/", name: "backend.test")
                let first = try await client.send(BackendRequest(.get, url))
                #expect(first.status == 200)
                resolver.set("backend.test", to: ["169.254.169.254"])
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, url))
                }
                #expect(
                    error
                        == .addressRefused(
                            host: "backend.test", address: IPAddress("169.254.169.254")!, kind: .cloudMetadata))
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test("Plain http to a public host is refused: before resolving by default, after it under a loopback policy")
    func plainHTTP() async throws {
        let resolver = TableResolver(["example.com": ["93.184.215.14"]])
        let url = URL(string: "http://example.com/")!
        try await withClient(OutboundPolicy(), resolver: resolver) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url))
            }
            #expect(error == .plainHTTPRefused(origin: "http://example.com"))
            #expect(resolver.lookupCount == 0)
        }
        try await withClient(OutboundPolicy(allowsLoopback: true), resolver: resolver) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url))
            }
            #expect(error == .plainHTTPRefused(origin: "http://example.com"))
        }
        try await withClient(OutboundPolicy(allowsLoopback: true), resolver: resolver) { client in
            let literal = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, URL(string: "http://10.1.2.3/")!))
            }
            #expect(literal == .plainHTTPRefused(origin: "http://10.1.2.3"))
        }
    }

    @Test("Loopback is called only when the policy allows loopback")
    func loopbackNeedsPolicy() async throws {
        try await withTestServer(respond: { _ in .text("local") }) { server in
            try await withClient(OutboundPolicy()) { client in
                let plain = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/")))
                }
                #expect(plain == .plainHTTPRefused(origin: "http://127.0.0.1:\(server.port)"))
                let secure = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", scheme: "https")))
                }
                #expect(secure == .addressRefused(host: "127.0.0.1", address: IPAddress("127.0.0.1")!, kind: .loopback))
            }
            #expect(server.connectionCount == 0)
            try await withClient(OutboundPolicy(allowsLoopback: true)) { client in
                let response = try await client.send(BackendRequest(.get, server.url("/")))
                #expect(response.status == 200)
            }
        }
    }

    @Test("Plain http to a name that resolves off the loopback is refused even when loopback is allowed")
    func plainHTTPToLocalhostResolvingElsewhere() async throws {
        let resolver = TableResolver(["localhost": ["10.1.2.3"]])
        try await withClient(OutboundPolicy(allowsLoopback: true), resolver: resolver) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, URL(string: "http://localhost:8080/")!))
            }
            #expect(error == .plainHTTPRefused(origin: "http://localhost:8080"))
        }
    }

    @Test(
        "URLs with another scheme, user info, no host or an unusual host are refused",
        arguments: [
            ("ftp://backend.example.com/file", OutboundCallError.invalidURL(.unsupportedScheme)),
            ("file:///etc/passwd", .invalidURL(.unsupportedScheme)),
            ("gopher://127.0.0.1:6379/", .invalidURL(.unsupportedScheme)),
            ("https://user:secret@backend.example.com/", .invalidURL(.userInfo)),
            ("https://user@backend.example.com/", .invalidURL(.userInfo)),
            ("https:///path", .invalidURL(.missingHost)),
            ("/relative/path", .invalidURL(.notAbsolute)),
            ("https://back%65nd.example.com/", .invalidURL(.unsupportedHost)),
            ("https://[fe80::1%25eth0]/", .invalidURL(.unsupportedHost)),
        ])
    func refusedURLs(_ text: String, _ expected: OutboundCallError) async throws {
        let url = try #require(URL(string: text))
        let resolver = TableResolver([:])
        try await withClient(OutboundPolicy(allowsLoopback: true), resolver: resolver) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url))
            }
            #expect(error == expected)
            #expect(resolver.lookupCount == 0)
        }
    }

    @Test("A caller's Host header and header values with line breaks are refused, naming no value")
    func refusedHeaders() async throws {
        try await withClient { client in
            let url = URL(string: "https://backend.example.com/")!
            let host = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url, headers: ["Host": "metadata.internal"]))
            }
            #expect(host == .invalidRequest(reason: "the Host header is set from the URL, not by the caller"))
            let injected = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url, headers: ["X-Token": "abc\r\nX-Evil: 1"]))
            }
            #expect(injected?.description.contains("abc") == false)
            #expect(injected == .invalidRequest(reason: "the value of header X-Token has a control character"))
        }
    }

    @Test("After shutdown, calls fail with shutDown")
    func afterShutdown() async throws {
        let client = try BackendHTTPClient(policy: loopbackPolicy(), logger: quietLogger, resolver: TableResolver([:]))
        try await client.shutdown()
        let error = await outboundError { () async throws(OutboundCallError) in
            try await client.send(BackendRequest(.get, URL(string: "http://127.0.0.1:9/")!))
        }
        #expect(error == .shutDown)
    }

    @Test("A refused connection is a typed connection failure naming only the origin")
    func connectionRefused() async throws {
        let server = try await TestHTTPServer.start(respond: { _ in .text("gone") })
        let url = server.url("/orders?token=secret")
        await server.stop()
        try await withClient { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, url))
            }
            guard case .connectionFailed(let origin, _) = error else {
                Issue.record("expected a connection failure, got \(String(describing: error))")
                return
            }
            #expect(origin == "http://127.0.0.1:\(server.port)")
            #expect(error?.description.contains("secret") == false)
        }
    }
}
