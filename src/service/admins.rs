//! Operators' sessions: `cairn admin create` (CLI), login (argon2id password → access JWT + refresh token),
//! refresh (rotation within a family; a reused token revokes the whole family), logout (ends the family, and
//! with it every access token of the session), and authenticating an access token.
//!
//! Login attempts are limited per account here and per client address by the admin surface.

use chrono::{Duration, Utc};
use serde_json::json;
use uuid::Uuid;

use super::{audit, Services};
use crate::auth::admin::{self, Claims, Operator, MIN_PASSWORD_CHARS};
use crate::error::{bad, Error, Result};
use crate::store::admins;

/// A signed-in session's tokens.
#[derive(Debug, Clone)]
pub struct Session {
    pub access_token: String,
    pub expires_in: u64,
    pub refresh_token: String,
    pub refresh_expires_in: u64,
    pub admin_id: Uuid,
    pub email: String,
}

fn normalise_email(email: &str) -> Result<String> {
    let email = email.trim().to_lowercase();
    if email.len() > 254 || !email.contains('@') || email.starts_with('@') || email.ends_with('@') {
        return Err(bad("email", "must be an email address"));
    }
    Ok(email)
}

/// Creates an admin, or resets the password of an existing one (the CLI on the database host).
pub async fn create(svc: &Services, op: &Operator, email: &str, password: &str) -> Result<admins::AdminRow> {
    let email = normalise_email(email)?;
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(bad("password", format!("must be at least {MIN_PASSWORD_CHARS} characters")));
    }
    let owned = password.to_owned();
    let hash = tokio::task::spawn_blocking(move || admin::hash_password(&owned))
        .await
        .map_err(|e| Error::Internal(e.into()))??;
    let row = admins::upsert_admin(svc.db.owner(), &email, &hash).await?;
    // A new password ends every session the old one opened.
    admins::revoke_admin(svc.db.owner(), row.id).await?;
    audit::record(svc, &op.actor(), None, "admin.create", Some(row.id.to_string()), json!({"email": email})).await;
    Ok(row)
}

/// The tokens of a session whose refresh token (`refresh_token`) is stored.
fn tokens(svc: &Services, admin_id: Uuid, email: &str, family: Uuid, refresh_token: String) -> Result<Session> {
    let access_token = svc.tokens.issue(admin_id, email, family)?;
    Ok(Session {
        access_token,
        expires_in: svc.tokens.access_ttl.as_secs(),
        refresh_token,
        refresh_expires_in: svc.config.refresh_token_ttl_secs,
        admin_id,
        email: email.to_owned(),
    })
}

fn refresh_expiry(svc: &Services) -> chrono::DateTime<Utc> {
    Utc::now() + Duration::seconds(svc.config.refresh_token_ttl_secs as i64)
}

/// Starts a session in a new family.
async fn open(svc: &Services, admin_id: Uuid, email: &str) -> Result<Session> {
    let (refresh_token, hash) = admin::refresh_token();
    let family = Uuid::new_v4();
    admins::insert_session(svc.db.owner(), admin_id, family, &hash, refresh_expiry(svc)).await?;
    tokens(svc, admin_id, email, family, refresh_token)
}

/// Signs an admin in with email and password, from `client`. Only failures are throttled, per account and
/// address (see [`crate::auth::limits::LoginThrottle`]): nobody locks the operator out by guessing.
pub async fn login(svc: &Services, email: &str, password: &str, client: Option<std::net::IpAddr>) -> Result<Session> {
    let email = normalise_email(email)?;
    if password.is_empty() || password.len() > 1024 {
        return Err(bad("password", "must be 1 to 1024 bytes"));
    }
    svc.logins.check(&email, client)?;
    let admin = admins::find_by_email(svc.db.owner(), &email).await?;
    let hash = admin.as_ref().map(|a| a.password_hash.clone());
    let matches = svc.keys.check_password(password, hash).await?;
    let admin = admin.filter(|a| matches && a.disabled_at.is_none());
    let Some(admin) = admin else {
        svc.logins.failed(&email, client);
        // The presented email is a claim, not an identity: recorded as such, never as the actor.
        let details = json!({"claimed_email": email});
        audit::record(svc, "anonymous", None, "admin.login_failed", None, details).await;
        return Err(Error::Unauthenticated("invalid email or password".into()));
    };
    let session = open(svc, admin.id, &admin.email).await?;
    admins::touch_login(svc.db.owner(), admin.id).await?;
    audit::record(svc, &format!("admin:{}", admin.email), None, "admin.login", Some(admin.id.to_string()), json!({}))
        .await;
    Ok(session)
}

/// Exchanges a refresh token for new tokens in the same family. A token that was already used (or revoked)
/// revokes the whole family: whoever holds the newer token is signed out too.
pub async fn refresh(svc: &Services, token: &str) -> Result<Session> {
    let invalid = || Error::Unauthenticated("invalid or expired refresh token".into());
    if !token.starts_with("crt_") || token.len() > 200 {
        return Err(invalid());
    }
    let session = admins::find_session(svc.db.owner(), &admin::token_hash(token)).await?.ok_or_else(invalid)?;
    if session.expires_at <= Utc::now() || session.disabled_at.is_some() {
        return Err(invalid());
    }
    let (refresh_token, hash) = admin::refresh_token();
    let rotated = session.used_at.is_none()
        && session.revoked_at.is_none()
        && admins::rotate_session(
            svc.db.owner(),
            session.id,
            session.admin_id,
            session.family_id,
            &hash,
            refresh_expiry(svc),
        )
        .await?;
    if !rotated {
        let revoked = admins::revoke_family(svc.db.owner(), session.family_id).await?;
        let actor = format!("admin:{}", session.email);
        let details = json!({"family_id": session.family_id, "tokens_revoked": revoked});
        audit::record(svc, &actor, None, "admin.refresh_reused", Some(session.admin_id.to_string()), details).await;
        return Err(Error::Unauthenticated("refresh token already used: the session is revoked; sign in again".into()));
    }
    tokens(svc, session.admin_id, &session.email, session.family_id, refresh_token)
}

/// Ends the session of `claims` (its refresh tokens and, at once, its access tokens).
pub async fn logout(svc: &Services, claims: &Claims) -> Result<()> {
    admins::revoke_family(svc.db.owner(), claims.fam).await?;
    let actor = format!("admin:{}", claims.email);
    audit::record(svc, &actor, None, "admin.logout", Some(claims.sub.to_string()), json!({})).await;
    Ok(())
}

/// The operator behind an access token: valid signature, algorithm, expiry, issuer and audience, and a
/// session that was not ended.
pub async fn authenticate(svc: &Services, token: &str) -> Result<(Operator, Claims)> {
    let claims = svc.tokens.verify(token)?;
    if !admins::family_live(svc.db.owner(), claims.fam, claims.sub).await? {
        return Err(Error::Unauthenticated("invalid admin token: the session has ended".into()));
    }
    Ok((Operator::Admin { id: claims.sub, email: claims.email.clone() }, claims))
}
