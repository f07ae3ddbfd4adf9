/// Turns a host name into the addresses a connection may go to. The outbound client judges
/// every address returned and then connects to the first, so a resolver decides what is
/// called; tests give one that answers from a table.
public protocol HostResolving: Sendable {
    /// The addresses of `host`, in the order to try them, without duplicates.
    ///
    /// - Throws: ``OutboundCallError/resolutionFailed(host:)`` when there are none;
    ///   ``OutboundCallError/cancelled`` when the calling task is cancelled first.
    func addresses(of host: String) async throws(OutboundCallError) -> [IPAddress]
}
