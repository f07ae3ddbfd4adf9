import HTTPTypes
import TandemProtocol

extension HTTPField.Name {
    /// `DPoP`: a request's proof of possession (RFC 9449 §4.1).
    static let dpop = HTTPField.Name(DPoPProof.headerName)!
    /// `DPoP-Nonce`: the nonce the server wants in the next proof (RFC 9449 §8).
    static let dpopNonce = HTTPField.Name(DPoPProof.nonceHeaderName)!
}
