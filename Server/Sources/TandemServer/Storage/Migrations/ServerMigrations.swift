/// The server's schema, as the ordered list of migrations that builds it.
///
/// Times are `BIGINT` milliseconds since 1970, identifiers and hashes `TEXT`, flags `BIGINT`
/// 0 or 1, so one statement text serves both dialects; only byte columns differ (`BLOB` /
/// `BYTEA`). Secrets never appear here in plain form: refresh tokens and API keys as SHA-256,
/// passwords as scrypt, sealed successors as AES-GCM boxes.
enum ServerMigrations {
    /// Every migration, oldest first.
    static let all: [Migration] = [
        initialSchema, oauthSchema, businessData, signIn, operations, resourceServers, boundedGrants, sso, cockpit, ssoDefences,
        universalLinks, dpopProofs, lockScreen, dpopBinding, changeFeed, pushRegistry, pushOutbox, actions, bindingTime, approvers, pushTokenOwnership, dataWriters,
        proofWithRotation, pushPacing, backendDestinations, backendChanges, backendCredentials,
    ]

    static let initialSchema = Migration(version: 1, name: "initial schema") { dialect in
        [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE apps (
                client_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                redirect_uris TEXT NOT NULL,
                url_scheme TEXT,
                security_mode TEXT NOT NULL CHECK (security_mode IN ('apiKey', 'oauth')),
                sso_enabled BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                key_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            """
            CREATE TABLE token_families (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES apps(client_id),
                user_id TEXT NOT NULL REFERENCES users(id),
                scope TEXT NOT NULL,
                audience TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            """
            CREATE TABLE refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                family_id TEXT NOT NULL REFERENCES token_families(id),
                issued_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                rotated_at BIGINT,
                successor_hash TEXT,
                successor_sealed \(dialect.bytesType),
                successor_sealed_until BIGINT
            )
            """,
            "CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id)",
            "CREATE INDEX refresh_tokens_sealed_until ON refresh_tokens(successor_sealed_until)",
            """
            CREATE TABLE server_keys (
                id TEXT PRIMARY KEY,
                material \(dialect.bytesType) NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ]
    }
}
