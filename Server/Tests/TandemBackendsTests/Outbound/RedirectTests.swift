import Foundation
import TandemBackends
import Testing

@Suite("Outbound client: redirects")
struct RedirectTests {
    @Test("A relative same-origin redirect is followed, keeping method, headers and body for 307")
    func sameOrigin() async throws {
        try await withTestServer(respond: { request in
            request.uri == "/old" ? .redirect(307, to: "new?page=2") : .text("arrived at \(request.uri)")
        }) { server in
            try await withClient { client in
                let response = try await client.send(
                    BackendRequest(
                        .post, server.url("/old"), headers: ["Authorization": "Bearer t"], body: Array("{}".utf8)))
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "arrived at /new?page=2")
                #expect(response.url == server.url("/new?page=2"))
                let second = try #require(server.requests.last)
                #expect(second.method == "POST")
                #expect(second.body == Array("{}".utf8))
                #expect(second.header("Authorization") == "Bearer t")
            }
        }
    }

    @Test("A 303 turns into a GET without a body")
    func seeOther() async throws {
        try await withTestServer(respond: { request in
            request.uri == "/submit" ? .redirect(303, to: "/result") : .text("\(request.method) \(request.body.count)")
        }) { server in
            try await withClient { client in
                let response = try await client.send(
                    BackendRequest(
                        .post, server.url("/submit"), headers: ["Content-Type": "application/json"],
                        body: Array("{\"a\":1}".utf8)))
                #expect(String(decoding: response.body, as: UTF8.self) == "GET 0")
                #expect(server.requests.last?.header("Content-Type") == nil)
            }
        }
    }

    @Test("A redirect to another origin is refused, naming only that origin, and nothing reaches it")
    func crossOrigin() async throws {
        try await withTestServer(respond: { _ in .text("elsewhere") }) { other in
            let target = other.url("/steal?token=secret").absoluteString
            try await withTestServer(respond: { _ in .redirect(302, to: target) }) { server in
                try await withClient { client in
                    let error = await outboundError { () async throws(OutboundCallError) in
                        try await client.send(BackendRequest(.get, server.url("/start")))
                    }
                    #expect(error == .crossOriginRedirect(to: "http://127.0.0.1:\(other.port)"))
                    #expect(error?.description.contains("secret") == false)
                    #expect(error?.description.contains("steal") == false)
                    #expect(other.connectionCount == 0)
                }
            }
        }
    }

    @Test("A redirect to the same host over another scheme is refused")
    func crossScheme() async throws {
        try await withTestServer(respond: { _ in .redirect(301, to: "ftp://127.0.0.1/file") }) { server in
            try await withClient { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/")))
                }
                #expect(error == .crossOriginRedirect(to: "ftp://127.0.0.1"))
            }
        }
    }

    @Test("A redirect to the metadata address is refused as another origin")
    func redirectToMetadata() async throws {
        try await withTestServer(respond: { _ in .redirect(302, to: "http://169.254.169.254/latest/meta-data/") }) {
            server in
            try await withClient { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/")))
                }
                #expect(error == .crossOriginRedirect(to: "http://169.254.169.254"))
            }
        }
    }

    @Test("Same-origin redirects stop at maximumRedirects")
    func tooMany() async throws {
        try await withTestServer(respond: { request in
            let hop = Int(request.uri.dropFirst()) ?? 0
            return .redirect(302, to: "/\(hop + 1)")
        }) { server in
            var policy = loopbackPolicy()
            policy.maximumRedirects = 2
            try await withClient(policy) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/0")))
                }
                #expect(error == .tooManyRedirects(limit: 2))
                #expect(server.requests.map(\.uri) == ["/0", "/1", "/2"])
            }
        }
    }

    @Test("Each hop is checked again: a same-origin hop whose host now resolves to a refused address is refused")
    func rulesOnEveryHop() async throws {
        let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
        try await withTestServer(respond: { request in
            resolver.set("backend.test", to: ["169.254.169.254"])
            return .redirect(302, to: "/next")
        }) { server in
            try await withClient(resolver: resolver) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", name: "backend.test")))
                }
                #expect(
                    error
                        == .addressRefused(
                            host: "backend.test", address: IPAddress("169.254.169.254")!, kind: .cloudMetadata))
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test("A redirect status without Location is returned as it is")
    func redirectWithoutLocation() async throws {
        try await withTestServer(respond: { _ in .text("no location", status: 302) }) { server in
            try await withClient { client in
                let response = try await client.send(BackendRequest(.get, server.url("/")))
                #expect(response.status == 302)
                #expect(String(decoding: response.body, as: UTF8.self) == "no location")
            }
        }
    }
}
