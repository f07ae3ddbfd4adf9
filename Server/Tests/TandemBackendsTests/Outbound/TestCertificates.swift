/// A test certificate authority and a server certificate for `backend.test` that it signed,
/// made once with the `openssl` command line: P-256 keys, valid from 2000 to 2126, so that
/// neither a machine's clock nor the next hundred years make them fail. In a folder with an
/// empty `db/index.txt`, `db/serial` holding `1000`, and a `ca.cnf` with a `[test_ca]` section
/// (database, serial, `new_certs_dir = db`, `policy` requiring a commonName) and two extension
/// sections, `authority` (`basicConstraints = critical,CA:TRUE`,
/// `keyUsage = critical,keyCertSign,cRLSign`) and `server` (`basicConstraints = CA:FALSE`,
/// `keyUsage = critical,digitalSignature`, `extendedKeyUsage = serverAuth`,
/// `subjectAltName = DNS:backend.test`):
///
///     openssl ecparam -name prime256v1 -genkey -noout -out ca.key
///     openssl req -new -key ca.key -subj "/CN=Tandem Outbound Test CA" -config ca.cnf -out ca.csr
///     openssl ca -batch -config ca.cnf -selfsign -keyfile ca.key -in ca.csr -extensions authority \
///         -startdate 20000101000000Z -enddate 21260101000000Z -out ca.crt
///     openssl ecparam -name prime256v1 -genkey -noout -out leaf.key
///     openssl req -new -key leaf.key -subj "/CN=backend.test" -config ca.cnf -out leaf.csr
///     openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -in leaf.csr -extensions server \
///         -startdate 20000101000000Z -enddate 21260101000000Z -out leaf.crt
///
/// The keys are for these tests only and protect nothing.
enum TestCertificates {
    /// The test CA's certificate, the root a policy adds to trust the server.
    static let authorityPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBeDCCAR6gAwIBAgICEAAwCgYIKoZIzj0EAwIwIjEgMB4GA1UEAwwXVGFuZGVt
        IE91dGJvdW5kIFRlc3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjEyNjAxMDEwMDAw
        MDBaMCIxIDAeBgNVBAMMF1RhbmRlbSBPdXRib3VuZCBUZXN0IENBMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEWB4F/ygOqlcavyPIYCaGo8BBCIm4OGTRqA1B3rmi
        j3GqgsQzgK4zSoLrH3qx2QS52k5tBt6wVZyJbjLXGPbauaNCMEAwDwYDVR0TAQH/
        BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFDBeMN1R1E4RxX1Hg1QR
        7WS+cJ2kMAoGCCqGSM49BAMCA0gAMEUCIBSIQ/s3kebjEuNkx08rRpGPSZihRAt9
        FHZjhKVfVfz5AiEAiqi/QNRkI8XcUqPkJidQVNdMxIkASBKa8ZwvTj4GKoE=
        -----END CERTIFICATE-----
        """

    /// The server's certificate, naming only `backend.test`.
    static let serverPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBuTCCAV6gAwIBAgICEAEwCgYIKoZIzj0EAwIwIjEgMB4GA1UEAwwXVGFuZGVt
        IE91dGJvdW5kIFRlc3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjEyNjAxMDEwMDAw
        MDBaMBcxFTATBgNVBAMMDGJhY2tlbmQudGVzdDBZMBMGByqGSM49AgEGCCqGSM49
        AwEHA0IABIpXio/GPWGGK+2IRuXCrB0CKw1mRtxR+GF8GBAoZ42S7wKBRRDHZ6yc
        2nevMogvhQ4UJtyt3uBkRjqsv3hF+hyjgYwwgYkwCQYDVR0TBAIwADAOBgNVHQ8B
        Af8EBAMCB4AwEwYDVR0lBAwwCgYIKwYBBQUHAwEwFwYDVR0RBBAwDoIMYmFja2Vu
        ZC50ZXN0MB0GA1UdDgQWBBQIUahzb5UJxbqcJL3nWzKV6iaUeDAfBgNVHSMEGDAW
        gBQwXjDdUdROEcV9R4NUEe1kvnCdpDAKBggqhkjOPQQDAgNJADBGAiEA7wkn15r4
        G4OV9XuL/YV4Ii26jwoq6A2hFuwmFE0cSdYCIQD1M+QJvHPXpTQGLERdiTkE8Kn/
        12rl3sPtD7ako9rgNA==
        -----END CERTIFICATE-----
        """

    /// The server's private key.
    static let serverKeyPEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIEWthYOAtugdx4KeIS1BYz3Soz0sq5HRIzlkC4ifQYYroAoGCCqGSM49
        AwEHoUQDQgAEileKj8Y9YYYr7YhG5cKsHQIrDWZG3FH4YXwYEChnjZLvAoFFEMdn
        rJzad68yiC+FDhQm3K3e4GRGOqy/eEX6HA==
        -----END EC PRIVATE KEY-----
        """
}
