//! Operators of the deployment: argon2id passwords, short-lived access JWTs and rotating refresh tokens.
//!
//! Access tokens are HS256 JWTs signed with `CAIRN_JWT_SECRET`; the header names the signing key (`kid`,
//! the first bytes of the secret's sha-256), and the secrets in `CAIRN_JWT_PREVIOUS_SECRETS` still verify,
//! so the signing key is rotated by moving the old secret there, setting a new one, and dropping the old
//! one after the access-token lifetime. Verification pins the algorithm (no `none`, no switching), and
//! requires a valid signature, expiry, issuer and audience. Refresh tokens are opaque random strings; only
//! their sha-256 is stored (see `service::admins` for families and reuse detection).

use std::time::Duration;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHasher, SaltString};
use chrono::Utc;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::error::Error;

/// Who manages the deployment: a signed-in admin, or the CLI on the database host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operator {
    Admin { id: Uuid, email: String },
    Cli,
}

impl Operator {
    /// Who to name in the audit log (`admin:<email>`, `cli`).
    pub fn actor(&self) -> String {
        match self {
            Self::Admin { email, .. } => format!("admin:{email}"),
            Self::Cli => "cli".into(),
        }
    }
}

/// Shortest accepted admin password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// An argon2id PHC string of `password`.
pub fn hash_password(password: &str) -> Result<String, Error> {
    let salt = SaltString::generate(&mut OsRng);
    super::hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::internal(format!("hashing a password: {e}")))
}

/// Whether `password` matches the PHC string `hash` (constant-time).
pub fn verify_password(password: &str, hash: &str) -> bool {
    super::verify_hash(password, hash)
}

/// The claims of an access token.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// The admin's id.
    pub sub: Uuid,
    pub email: String,
    /// The session (refresh-token family) the token belongs to; logging out ends it at once.
    pub fam: Uuid,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    pub jti: Uuid,
}

/// A signing or verifying key and its id.
struct Secret {
    kid: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Secret {
    fn new(secret: &[u8]) -> Result<Self, Error> {
        if secret.len() < 32 {
            return Err(Error::invalid("CAIRN_JWT_SECRET: must be at least 32 bytes"));
        }
        let kid = hex::encode(&Sha256::digest(secret)[..6]);
        let encoding = EncodingKey::from_secret(secret).map_err(|e| Error::internal(format!("JWT key: {e}")))?;
        let decoding = DecodingKey::from_secret(secret).map_err(|e| Error::internal(format!("JWT key: {e}")))?;
        Ok(Self { kid, encoding, decoding })
    }
}

/// Issues and verifies access tokens.
pub struct TokenKeys {
    current: Secret,
    previous: Vec<Secret>,
    pub issuer: String,
    pub audience: String,
    pub access_ttl: Duration,
}

impl TokenKeys {
    /// Keys from the configured secrets; without a current one, a random secret of this process (tokens then
    /// work on this instance only, which is logged).
    pub fn new(
        current: Option<&str>,
        previous: Option<&str>,
        issuer: &str,
        audience: &str,
        access_ttl: Duration,
    ) -> Result<Self, Error> {
        let current = match current.map(str::trim).filter(|s| !s.is_empty()) {
            Some(secret) => Secret::new(secret.as_bytes())?,
            None => Secret::new(super::random_alnum(48).as_bytes())?,
        };
        let previous = previous
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Secret::new(s.as_bytes()))
            .collect::<Result<_, _>>()?;
        Ok(Self { current, previous, issuer: issuer.into(), audience: audience.into(), access_ttl })
    }

    /// A signed access token for the admin `id` in session `family`.
    pub fn issue(&self, id: Uuid, email: &str, family: Uuid) -> Result<String, Error> {
        let now = Utc::now().timestamp();
        let claims = Claims {
            sub: id,
            email: email.into(),
            fam: family,
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            iat: now,
            exp: now + self.access_ttl.as_secs() as i64,
            jti: Uuid::new_v4(),
        };
        self.sign(&claims)
    }

    /// `claims` signed with the current secret (HS256, the secret's id in the header).
    pub fn sign<C: Serialize>(&self, claims: &C) -> Result<String, Error> {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(self.current.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.current.encoding)
            .map_err(|e| Error::internal(format!("signing a token: {e}")))
    }

    /// The claims of a valid admin token: HS256 only, signed by a known key, not expired, ours (issuer,
    /// audience).
    pub fn verify(&self, token: &str) -> Result<Claims, Error> {
        self.decode(token, &self.audience, "admin token", 5)
    }

    /// The claims of a valid token of `audience` (named `what` in errors), expiry checked with `leeway_secs`.
    pub fn decode<C: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
        what: &str,
        leeway_secs: u64,
    ) -> Result<C, Error> {
        let invalid = |why: &str| Error::Unauthenticated(format!("invalid {what}: {why}"));
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("malformed"))?;
        if header.alg != Algorithm::HS256 {
            return Err(invalid("unexpected algorithm"));
        }
        let key = match header.kid.as_deref() {
            Some(kid) => std::iter::once(&self.current)
                .chain(&self.previous)
                .find(|k| k.kid == kid)
                .ok_or_else(|| invalid("unknown signing key"))?,
            None => &self.current,
        };
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = leeway_secs;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        jsonwebtoken::decode::<C>(token, &key.decoding, &validation).map(|d| d.claims).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind;
            match e.kind() {
                ErrorKind::ExpiredSignature => invalid("expired"),
                ErrorKind::InvalidAudience => invalid("wrong audience"),
                ErrorKind::InvalidIssuer => invalid("wrong issuer"),
                ErrorKind::InvalidSignature => invalid("bad signature"),
                _ => invalid("rejected"),
            }
        })
    }
}

/// A new refresh token and the sha-256 that is stored.
pub fn refresh_token() -> (String, Vec<u8>) {
    let token = format!("crt_{}", super::random_alnum(48));
    let hash = token_hash(&token);
    (token, hash)
}

/// The stored form of a refresh token.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(secret: &str, previous: Option<&str>) -> TokenKeys {
        TokenKeys::new(Some(secret), previous, "cairn", "cairn-admin", Duration::from_secs(60)).unwrap()
    }

    #[test]
    fn tokens_verify_only_with_our_key_issuer_and_audience() {
        let a = keys("a-secret-of-at-least-thirty-two-bytes!!", None);
        let token = a.issue(Uuid::new_v4(), "ops@example.com", Uuid::new_v4()).unwrap();
        assert_eq!(a.verify(&token).unwrap().email, "ops@example.com");
        let b = keys("another-secret-of-at-least-thirty-two-bytes", None);
        assert!(b.verify(&token).is_err(), "another key");
        let rotated =
            keys("another-secret-of-at-least-thirty-two-bytes", Some("a-secret-of-at-least-thirty-two-bytes!!"));
        assert!(rotated.verify(&token).is_ok(), "the previous key still verifies after rotation");
        let mut other_aud = keys("a-secret-of-at-least-thirty-two-bytes!!", None);
        other_aud.audience = "elsewhere".into();
        assert!(other_aud.verify(&token).unwrap_err().to_string().contains("audience"));
        assert!(TokenKeys::new(Some("short"), None, "i", "a", Duration::from_secs(1)).is_err());
    }
}
