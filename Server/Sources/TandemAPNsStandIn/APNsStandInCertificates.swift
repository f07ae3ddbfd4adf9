import Crypto
import Foundation
import SwiftASN1
import X509

/// The stand-in's own test certificate authority and the server certificate it issues, made fresh
/// at every start (P-256 keys, ECDSA with SHA-256). A client trusts the authority's certificate
/// (``APNsStandIn/certificateAuthorityPEM``) instead of Apple's; the server certificate names DNS
/// `localhost` and IP 127.0.0.1. Both are valid from an hour before `now` for seven days, and
/// also at the system's time: a TLS client checks them against the operating system's clock, which
/// a test's `ManualClock` (by default in 2030) does not move.
struct APNsStandInCertificates: Sendable {
    /// The authority's certificate, PEM.
    let authorityPEM: String
    /// The server's certificate, PEM.
    let serverCertificatePEM: String
    /// The server's private key, PKCS#8 PEM.
    let serverKeyPEM: String

    static func make(now: Date) throws(APNsStandInError) -> APNsStandInCertificates {
        do {
            return try issue(now: now)
        } catch {
            throw .certificateCreationFailed(reason: "\(error)")
        }
    }

    private static func issue(now: Date) throws -> APNsStandInCertificates {
        let systemNow = Date()
        let notBefore = min(now, systemNow).addingTimeInterval(-60 * 60)
        let notAfter = max(now, systemNow).addingTimeInterval(7 * 24 * 60 * 60)

        let authorityKey = P256.Signing.PrivateKey()
        let authorityPublicKey = Certificate.PublicKey(authorityKey.publicKey)
        let authorityName = try DistinguishedName {
            OrganizationName("Tandem")
            CommonName("Tandem APNs stand-in test CA")
        }
        let authorityKeyID = SubjectKeyIdentifier(hash: authorityPublicKey)
        let authority = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: authorityPublicKey,
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: authorityName, subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                authorityKeyID
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey))

        let serverKey = P256.Signing.PrivateKey()
        let serverPublicKey = Certificate.PublicKey(serverKey.publicKey)
        let serverName = try DistinguishedName {
            OrganizationName("Tandem")
            CommonName("localhost")
        }
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: serverPublicKey,
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: authorityName, subject: serverName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                SubjectKeyIdentifier(hash: serverPublicKey)
                AuthorityKeyIdentifier(keyIdentifier: authorityKeyID.keyIdentifier)
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey))

        return APNsStandInCertificates(
            authorityPEM: try authority.serializeAsPEM().pemString,
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverKeyPEM: serverKey.pemRepresentation)
    }
}
