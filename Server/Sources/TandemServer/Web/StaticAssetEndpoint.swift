import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /assets/{name}`: the pages' stylesheet and scripts. Served with `nosniff` and a short
/// public cache; an unknown name is a plain 404.
struct StaticAssetEndpoint: Sendable {
    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/assets/:name") { _, context in
            guard let name = context.parameters.get("name"), let asset = StaticAsset.all[name] else {
                return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "not found")))
            }
            let headers: HTTPFields = [
                .contentType: asset.contentType,
                .cacheControl: "public, max-age=3600",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ]
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
        }
    }
}
