import Foundation
import TandemAuth
import TandemProtocol

/// The authorization server: metadata, the authorize redirect and the token endpoint.
extension FakeTandemServer {
    static let tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let ssoPasscodeGrant = "urn:tandem:params:oauth:grant-type:sso-passcode"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"

    func metadata() -> HTTPResponse {
        let base = Self.base.absoluteString
        return Self.json(200, [
            "issuer": base, "authorization_endpoint": base + "/oauth/authorize", "token_endpoint": base + "/oauth/token",
            "revocation_endpoint": base + "/oauth/revoke", "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code", "refresh_token", Self.tokenExchangeGrant],
        ])
    }

    /// The signed-in user's browser asking for a code: a 302 back to the app with `code` and
    /// `state`, an error redirect for a bad request, or 400 when it cannot redirect at all.
    func authorize(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        var query: [String: String] = [:]
        for item in URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { query[item.name] = item.value }
        guard query["client_id"] == state.app.clientID, state.app.securityMode == "oauth",
            let redirectURI = query["redirect_uri"], state.app.redirectURIs.contains(redirectURI)
        else { return HTTPResponse(status: 400, body: Data("unknown client or redirect_uri".utf8)) }
        func redirect(_ parameters: [(String, String?)]) -> HTTPResponse {
            var components = URLComponents(string: redirectURI) ?? URLComponents()
            components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
            return HTTPResponse(status: 302, headers: ["Location": components.url?.absoluteString ?? redirectURI])
        }
        guard query["response_type"] == "code", query["code_challenge_method"] == "S256",
            let challenge = query["code_challenge"], challenge.count == 43
        else { return redirect([("error", "invalid_request"), ("error_description", "PKCE S256 is required"), ("state", query["state"])]) }
        let code = state.nextToken("code")
        state.codes[code] = PendingCode(
            clientID: state.app.clientID, redirectURI: redirectURI, challenge: challenge, scope: query["scope"] ?? "data.read")
        return redirect([("code", code), ("state", query["state"])])
    }

    func token(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        var response = tokenAnswer(request, &state)
        response.headers["DPoP-Nonce"] = state.dpopNonce
        return response
    }

    private func tokenAnswer(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        let form = Self.form(request)
        guard form["client_id"] == state.app.clientID else { return Self.oauthError("invalid_client", "unknown client", status: 401) }
        guard state.app.securityMode == "oauth" else { return Self.oauthError("unauthorized_client", "this client uses an API key") }
        var jkt: String?
        var ath: String?
        if let header = request.headers["DPoP"] {
            let nonce = state.dpopNonce
            do throws(DPoPError) {
                let proof = try DPoPProof(parsing: header)
                try proof.check(method: "POST", url: Self.base.absoluteString + "/oauth/token", now: clock.now, nonce: (nonce, { $0 == nonce }))
                jkt = proof.publicKey.thumbprint
                ath = proof.accessTokenHash
            } catch .nonceRequired {
                return Self.oauthError("use_dpop_nonce", "use the nonce in DPoP-Nonce")
            } catch {
                return Self.oauthError("invalid_dpop_proof", "\(error)")
            }
            state.proofs.append((form["grant_type"] ?? "", jkt ?? ""))
        } else if state.app.dpopRequired {
            return Self.oauthError("invalid_dpop_proof", "this app requires a DPoP proof")
        }
        var bindJKT: String?
        if let header = request.headers[DPoPProof.bindHeaderName] {
            guard let proof = try? DPoPProof(parsing: header) else { return Self.oauthError("invalid_dpop_proof", "not a proof") }
            bindJKT = proof.publicKey.thumbprint
            state.proofs.append(("bind:" + (form["grant_type"] ?? ""), proof.publicKey.thumbprint))
        }
        switch form["grant_type"] {
        case "authorization_code": return redeemCode(form, jkt: jkt, &state)
        case "refresh_token": return refresh(form, jkt: jkt, &state)
        case Self.tokenExchangeGrant: return exchange(form, jkt: jkt, ath: ath, bindJKT: bindJKT, &state)
        case Self.ssoPasscodeGrant: return redeemSSO(form, jkt: jkt, &state)
        default: return Self.oauthError("unsupported_grant_type", "grant_type \(form["grant_type"] ?? "nil")")
        }
    }

    private func redeemCode(_ form: [String: String], jkt: String?, _ state: inout State) -> HTTPResponse {
        // A code is spent by any attempt, good or bad.
        guard let code = form["code"], let pending = state.codes.removeValue(forKey: code),
            pending.clientID == form["client_id"], pending.redirectURI == form["redirect_uri"]
        else { return Self.oauthError("invalid_grant", "the code is not valid") }
        // S256 for real: BASE64URL(SHA256(verifier)) must be the challenge the browser sent.
        guard let verifier = form["code_verifier"], (try? PKCEVerifier(verifier))?.challenge == pending.challenge else {
            state.pkceMismatches += 1
            return Self.oauthError("invalid_grant", "the code_verifier does not match the code_challenge")
        }
        return tokens(for: state.newFamily(scope: pending.scope, audience: "tandem", parent: nil, jkt: jkt), &state)
    }

    private func refresh(_ form: [String: String], jkt: String?, _ state: inout State) -> HTTPResponse {
        guard let token = form["refresh_token"] else { return Self.oauthError("invalid_request", "refresh_token is required") }
        if let spent = state.spentRefreshTokens[token] {
            state.families[spent]?.revoked = true
            return Self.oauthError("invalid_grant", "the refresh token was already used; its grant is revoked")
        }
        guard let id = state.refreshTokens[token], var family = state.families[id], !family.revoked else {
            return Self.oauthError("invalid_grant", "the grant has been revoked")
        }
        // A bound grant refreshes only with its key; a refused refresh spends nothing. A bearer
        // grant is bound only where the app requires DPoP.
        if let bound = family.jkt, bound != jkt { return Self.oauthError("invalid_dpop_proof", "the grant is bound to another key") }
        if family.jkt == nil, let jkt, state.app.dpopRequired {
            family.jkt = jkt
            state.families[id] = family
        }
        state.refreshTokens[token] = nil
        state.spentRefreshTokens[token] = id
        return tokens(for: family, &state)
    }

    /// RFC 8693: a live user access token with `data.read` becomes the widgets' grant, replacing
    /// the previous one. A bound subject token needs a proof by its key for that token (`ath`);
    /// the new grant is bound to the bind proof's key (the widgets'), else the proof's.
    private func exchange(_ form: [String: String], jkt: String?, ath: String?, bindJKT: String?, _ state: inout State) -> HTTPResponse {
        guard form["subject_token_type"] == Self.accessTokenType, form["audience"] == "tandem-extension",
            let subject = form["subject_token"], let parentID = state.accessTokens[subject], let parent = state.families[parentID],
            !parent.revoked, parent.audience == "tandem", parent.scope.split(separator: " ").contains("data.read")
        else { return Self.oauthError("invalid_request", "subject_token is not a live access token of this client with scope data.read") }
        if let bound = parent.jkt, bound != jkt || ath != DPoPProof.accessTokenHash(subject) {
            return Self.oauthError("invalid_dpop_proof", "the subject token is DPoP-bound: a proof of its use by its key")
        }
        for (id, family) in state.families where family.parent == parentID { state.families[id]?.revoked = true }
        let grant = state.newFamily(scope: "data.read", audience: "tandem-extension", parent: parentID, jkt: bindJKT ?? jkt)
        return tokens(for: grant, issuedTokenType: Self.accessTokenType, &state)
    }

    /// The SSO passcode grant: the first use claims the passcode for its device secret; until
    /// the test decides (``FakeTandemServer/decideSSO(_:approve:)``) the answer is
    /// `authorization_pending`; then tokens (once) or `access_denied`. Anything else is
    /// `invalid_grant`.
    private func redeemSSO(_ form: [String: String], jkt: String?, _ state: inout State) -> HTTPResponse {
        guard let passcode = form["sso_passcode"], let device = form["device_secret"], device.count >= 32,
            var sso = state.ssoPasscodes[passcode]
        else { return Self.oauthError("invalid_grant", "the passcode is not valid") }
        if sso.device == nil { sso.device = device }
        guard sso.device == device, !sso.redeemed else { return Self.oauthError("invalid_grant", "the passcode is not valid") }
        sso.label = form["device_label"]
        defer { state.ssoPasscodes[passcode] = sso }
        switch sso.approved {
        case nil: return Self.oauthError("authorization_pending", "waiting for the desktop")
        case false?: return Self.oauthError("access_denied", "the desktop denied this device")
        case true?:
            sso.redeemed = true
            let family = state.newFamily(scope: form["scope"] ?? "data.read data.write events.write offline_access", audience: "tandem", parent: nil, jkt: jkt)
            return tokens(for: family, account: Self.ssoAccount, &state)
        }
    }

    /// The account the SSO passcodes sign in to.
    static let ssoAccount = "ada"

    /// RFC 7009: revokes the grant of a refresh or access token; 200 whatever it was.
    func revoke(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        let token = Self.form(request)["token"] ?? ""
        if let id = state.refreshTokens[token] ?? state.accessTokens[token] { state.families[id]?.revoked = true }
        return HTTPResponse(status: 200)
    }

    private func tokens(for family: Family, issuedTokenType: String? = nil, account: String? = nil, _ state: inout State) -> HTTPResponse {
        let accessToken = state.nextToken(family.audience == "tandem" ? "at" : "xat")
        let refreshToken = state.nextToken(family.audience == "tandem" ? "rt" : "xrt")
        state.accessTokens[accessToken] = family.id
        state.refreshTokens[refreshToken] = family.id
        var body: [String: Any] = [
            "access_token": accessToken, "token_type": family.jkt == nil ? "Bearer" : "DPoP", "expires_in": 300, "refresh_token": refreshToken, "scope": family.scope,
        ]
        body["issued_token_type"] = issuedTokenType
        body["account"] = account
        return Self.json(200, body, headers: ["Cache-Control": "no-store"])
    }
}
