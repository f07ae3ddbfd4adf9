import Foundation
import TandemBackends
import Testing

@Suite("Outbound client: the body size cap")
struct SizeCapTests {
    private static let cap = 64 * 1024

    @Test("A Content-Length over the cap is refused before the body is read")
    func declaredTooLarge() async throws {
        try await withTestServer(respond: { _ in
            ScriptedResponse(
                body: Array(repeating: 0x61, count: 10), framing: .declaredLength(100 * 1024 * 1024), stalls: true)
        }) { server in
            try await withClient(loopbackPolicy(maximumResponseBytes: Self.cap, requestTimeout: .seconds(60))) {
                client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/big")))
                }
                #expect(error == .responseTooLarge(limit: Self.cap))
            }
        }
    }

    @Test("A chunked body without Content-Length is refused once it passes the cap")
    func streamedTooLarge() async throws {
        try await withTestServer(respond: { _ in
            ScriptedResponse(
                body: Array(repeating: 0x62, count: 4 * 1024 * 1024), framing: .chunked, chunkSize: 8 * 1024)
        }) { server in
            try await withClient(loopbackPolicy(maximumResponseBytes: Self.cap)) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/stream")))
                }
                #expect(error == .responseTooLarge(limit: Self.cap))
            }
        }
    }

    @Test("A chunked body past the cap that then stalls is refused, not timed out: the cap needs no end of body")
    func streamedTooLargeThenStalls() async throws {
        try await withTestServer(respond: { _ in
            ScriptedResponse(body: Array(repeating: 0x63, count: Self.cap + 1), framing: .chunked, stalls: true)
        }) { server in
            try await withClient(loopbackPolicy(maximumResponseBytes: Self.cap, requestTimeout: .seconds(60))) {
                client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/stream")))
                }
                #expect(error == .responseTooLarge(limit: Self.cap))
            }
        }
    }

    @Test("A body of exactly the cap is accepted, with and without Content-Length")
    func exactlyTheCap() async throws {
        try await withTestServer(respond: { request in
            ScriptedResponse(
                body: Array(repeating: 0x64, count: Self.cap),
                framing: request.uri == "/chunked" ? .chunked : .contentLength)
        }) { server in
            try await withClient(loopbackPolicy(maximumResponseBytes: Self.cap)) { client in
                let sized = try await client.send(BackendRequest(.get, server.url("/sized")))
                let chunked = try await client.send(BackendRequest(.get, server.url("/chunked")))
                #expect(sized.body.count == Self.cap)
                #expect(chunked.body.count == Self.cap)
            }
        }
    }

    @Test("A HEAD response's Content-Length is not held against the cap")
    func headRequest() async throws {
        try await withTestServer(respond: { _ in
            ScriptedResponse(headers: [("Content-Length", "99999999")], framing: .declaredLength(99_999_999))
        }) { server in
            try await withClient(loopbackPolicy(maximumResponseBytes: Self.cap)) { client in
                let response = try await client.send(BackendRequest(.head, server.url("/")))
                #expect(response.status == 200)
                #expect(response.body.isEmpty)
            }
        }
    }
}
