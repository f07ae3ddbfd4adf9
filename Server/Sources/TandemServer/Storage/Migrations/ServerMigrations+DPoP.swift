extension ServerMigrations {
    /// Version 12: `dpop_proofs`, the DPoP proofs (RFC 9449) seen within their window, by key
    /// thumbprint and `jti`, so that a proof is accepted once by all the instances sharing the
    /// database. Rows are deleted once their window has passed.
    static let dpopProofs = Migration(version: 12, name: "dpop proofs seen") { _ in
        [
            """
            CREATE TABLE dpop_proofs (
                jkt TEXT NOT NULL,
                jti TEXT NOT NULL,
                expires_at BIGINT NOT NULL,
                PRIMARY KEY (jkt, jti)
            )
            """,
            "CREATE INDEX dpop_proofs_expiry ON dpop_proofs (expires_at)",
        ]
    }
}
