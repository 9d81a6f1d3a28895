//! Short-lived tenant tokens, for browsers and devices that must not hold a key: minted from an admin key
//! (`POST /api/v1/tokens`), limited to read or write and usually to a [`KeyScope`] (an end user, an agent, tag
//! prefixes), valid for minutes. A token is `cairn_tok_` + a JWT (HS256, signed with `CAIRN_JWT_SECRET`, the
//! admin tokens' secret, under the audience `cairn-api`): it is checked without argon2 or a row of its own,
//! and dies with the key that minted it (revoked, expired, deleted or no longer admin: checked on use, the
//! key's state cached like a key's and forgotten at once when it changes).

use chrono::Utc;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::tenancy::KeyScope;

/// What every token starts with.
pub const TOKEN_PREFIX: &str = "cairn_tok_";
/// The audience of tenant tokens (admin tokens have their own).
pub const TOKEN_AUDIENCE: &str = "cairn-api";
/// A token's lifetime unless asked otherwise, in seconds.
pub const DEFAULT_TOKEN_TTL_SECS: i64 = 900;
/// The longest lifetime a token may ask for, in seconds.
pub const MAX_TOKEN_TTL_SECS: i64 = 3600;

/// The claims of a tenant token.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TokenClaims {
    /// The admin key that minted it.
    pub sub: Uuid,
    /// Its tenant.
    pub tid: Uuid,
    /// `read` or `read` and `write`.
    pub scp: Vec<String>,
    /// The scope: end users, agents, tag prefixes (absent: not restricted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usr: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agt: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<Vec<String>>,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    pub jti: Uuid,
}

impl TokenClaims {
    /// Claims for a token of `key` (of `tenant`) living `ttl_secs` from now.
    pub fn new(
        key: Uuid,
        tenant: Uuid,
        scopes: Vec<String>,
        scope: Option<&KeyScope>,
        issuer: &str,
        ttl_secs: i64,
    ) -> Self {
        let now = Utc::now().timestamp();
        Self {
            sub: key,
            tid: tenant,
            scp: scopes,
            usr: scope.and_then(|s| s.users.clone()),
            agt: scope.and_then(|s| s.agents.clone()),
            tag: scope.and_then(|s| s.tags.clone()),
            iss: issuer.to_owned(),
            aud: TOKEN_AUDIENCE.to_owned(),
            iat: now,
            exp: now + ttl_secs,
            jti: Uuid::new_v4(),
        }
    }

    /// The token's scope, if it has one.
    pub fn scope(&self) -> Option<KeyScope> {
        KeyScope::stored(self.usr.clone(), self.agt.clone(), self.tag.clone())
    }
}
