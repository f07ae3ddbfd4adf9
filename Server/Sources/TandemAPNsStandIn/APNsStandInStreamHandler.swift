import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP/2 stream of the stand-in (behind NIO's HTTP/2-to-HTTP/1 codec): collects the request,
/// has it answered off the event loop, and writes the answer with the `apns-id` header and, for a
/// refusal, APNs' JSON body.
///
/// A plain channel handler rather than an async channel: a stream that opens while the stand-in
/// shuts down is then simply closed with its connection, instead of being dropped unconsumed.
final class APNsStandInStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// More than any APNs payload: a longer body is cut here and then refused as too large.
    private static let bodyLimit = 64 * 1024

    private let answer: @Sendable (APNsStandInRequest) async -> APNsStandInAnswer
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(answer: @escaping @Sendable (APNsStandInRequest) async -> APNsStandInAnswer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body(var chunk):
            if body.readableBytes < Self.bodyLimit { body.writeBuffer(&chunk) }
        case .end:
            guard let head else { return context.close(promise: nil) }
            let request = APNsStandInRequest(
                method: head.method.rawValue, path: head.uri,
                headers: head.headers.map { (name: $0.name.lowercased(), value: $0.value) },
                body: Data(body.readableBytesView))
            let answer = answer
            let promise = context.eventLoop.makePromise(of: APNsStandInAnswer.self)
            promise.completeWithTask { await answer(request) }
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            promise.futureResult.whenSuccess { reply in
                bound.value.handler.write(reply, context: bound.value.context)
            }
        }
    }

    private func write(_ reply: APNsStandInAnswer, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let replyBody = reply.body
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: reply.apnsID)
        if !replyBody.isEmpty {
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: "\(replyBody.count)")
        }
        let head = HTTPResponseHead(version: .http2, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
        if !replyBody.isEmpty {
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: replyBody)))), promise: nil)
        }
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}
