//! Sending one webhook: the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
//! `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), and an HTTP client that cannot be
//! turned against the service's own network: every address a name resolves to is checked (loopback,
//! private, link-local and cloud-metadata addresses are refused unless the operator allows their network),
//! the connection goes to a checked address only (no second lookup to rebind), no proxy, no redirects, a
//! time limit on the whole exchange and a cap on what is read of the answer.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::config::WebhookSettings;
use crate::error::{Error, Result};

/// The secret's prefix (Standard Webhooks).
pub const SECRET_PREFIX: &str = "whsec_";
/// Most bytes of an answer read (for the delivery log's excerpt); the rest is not read.
const MAX_ANSWER_BYTES: usize = 4096;
/// Most characters of an answer kept in the log.
const MAX_EXCERPT_CHARS: usize = 300;

/// A new secret: `whsec_` and the base64 of 32 random bytes.
pub fn new_secret() -> String {
    let mut key = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut key);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key))
}

/// The `webhook-signature` header's value for a message.
pub fn sign(secret: &str, msg_id: &str, timestamp: i64, body: &[u8]) -> Result<String> {
    let encoded = secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret);
    let key = STANDARD.decode(encoded).map_err(|e| Error::internal(format!("a webhook secret is not base64: {e}")))?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|e| Error::internal(e.to_string()))?;
    mac.update(msg_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Ok(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

/// Which addresses webhooks may reach: every public one, and internal ones only in the allowed networks.
#[derive(Debug, Clone, Default)]
pub struct AddressPolicy {
    allowed: Vec<ipnet::IpNet>,
}

impl AddressPolicy {
    pub fn new(allowed: Vec<ipnet::IpNet>) -> Self {
        Self { allowed }
    }

    /// Whether a delivery may connect to `ip`.
    pub fn permits(&self, ip: IpAddr) -> bool {
        !is_internal(ip) || self.allowed.iter().any(|net| net.contains(&ip))
    }
}

/// Loopback, private, link-local (cloud metadata), shared, reserved, multicast, documentation and
/// unspecified addresses, and IPv6 forms that carry such an IPv4 address.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96) carries an IPv4 address; ::/96 (unspecified, loopback, the deprecated
            // IPv4-compatible form) is internal whole.
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                return is_internal_v4(Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8));
            }
            if s[..6] == [0, 0, 0, 0, 0, 0] {
                return true;
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] & 0xffc0) == 0xfec0 // site-local
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        }
    }
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared address space (carrier NAT)
        || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
        || (o[0] == 198 && (o[1] & 0xfe) == 18) // benchmarking
        || o[0] >= 240 // reserved
}

/// Resolves a name to the addresses the policy permits, or fails naming the address refused.
struct GuardedResolver {
    policy: Arc<AddressPolicy>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let refused = found.iter().find(|a| !policy.permits(a.ip())).map(SocketAddr::ip);
            // All or nothing: a name that also resolves to an internal address is refused whole.
            if let Some(ip) = refused {
                return Err(refused_address(&host, ip).into());
            }
            if found.is_empty() {
                return Err(format!("{host} resolves to no address").into());
            }
            Ok(Box::new(found.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

fn refused_address(host: &str, ip: IpAddr) -> String {
    format!(
        "{host} resolves to {ip}, an internal address webhooks may not reach (an operator can allow its network \
         with CAIRN_WEBHOOK_ALLOW_NETWORKS)"
    )
}

/// What one attempt came to.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub delivered: bool,
    pub status_code: Option<u16>,
    pub error: Option<String>,
    pub latency: Duration,
}

/// Sends webhooks. Cheap to clone.
#[derive(Clone)]
pub struct Sender {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
}

impl Sender {
    pub fn new(settings: &WebhookSettings) -> Result<Self> {
        let policy = Arc::new(AddressPolicy::new(settings.allow_networks.clone()));
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout.min(Duration::from_secs(5)))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .user_agent(concat!("Cairn-Webhooks/", env!("CARGO_PKG_VERSION")))
            .dns_resolver(Arc::new(GuardedResolver { policy: policy.clone() }))
            .build()
            .map_err(|e| Error::internal(format!("building the webhook client: {e}")))?;
        Ok(Self { client, policy })
    }

    pub fn policy(&self) -> &AddressPolicy {
        &self.policy
    }

    /// Posts `body` to `url`, signed with `secret` as message `msg_id`.
    pub async fn send(&self, url: &str, secret: &str, msg_id: &str, body: Vec<u8>) -> Outcome {
        let started = Instant::now();
        let failed = |error: String, status_code: Option<u16>| Outcome {
            delivered: false,
            status_code,
            error: Some(error),
            latency: started.elapsed(),
        };
        let parsed = match reqwest::Url::parse(url) {
            Ok(u) => u,
            Err(e) => return failed(format!("the url does not parse: {e}"), None),
        };
        // An address in the URL is never resolved: check it here.
        if let Some(ip) = literal_ip(&parsed) {
            if !self.policy.permits(ip) {
                return failed(refused_address(&ip.to_string(), ip), None);
            }
        }
        let timestamp = chrono::Utc::now().timestamp();
        let signature = match sign(secret, msg_id, timestamp, &body) {
            Ok(s) => s,
            Err(e) => return failed(e.to_string(), None),
        };
        let request = self
            .client
            .post(parsed)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("webhook-id", msg_id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body);
        let mut response = match request.send().await {
            Ok(r) => r,
            Err(e) => return failed(error_chain(&e), None),
        };
        let status = response.status();
        // Read a little of the answer (for the log), never all of it.
        let mut answer = Vec::new();
        while answer.len() < MAX_ANSWER_BYTES {
            match response.chunk().await {
                Ok(Some(chunk)) => answer.extend_from_slice(&chunk[..chunk.len().min(MAX_ANSWER_BYTES - answer.len())]),
                Ok(None) | Err(_) => break,
            }
        }
        drop(response);
        if status.is_success() {
            return Outcome {
                delivered: true,
                status_code: Some(status.as_u16()),
                error: None,
                latency: started.elapsed(),
            };
        }
        let excerpt: String = String::from_utf8_lossy(&answer).chars().take(MAX_EXCERPT_CHARS).collect();
        let error = if status.is_redirection() {
            "the endpoint answered with a redirect, which is not followed".to_owned()
        } else if excerpt.trim().is_empty() {
            format!("the endpoint answered {status}")
        } else {
            format!("the endpoint answered {status}: {}", excerpt.trim())
        };
        failed(error, Some(status.as_u16()))
    }
}

/// The host of `url` when it is an IP address.
pub fn literal_ip(url: &reqwest::Url) -> Option<IpAddr> {
    url.host_str()?.trim_start_matches('[').trim_end_matches(']').parse().ok()
}

/// An error and its causes, as one line (reqwest's own message says only "error sending request").
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut parts = vec![err.to_string()];
    let mut source = err.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

/// `localhost` and its subdomains name the loopback interface whatever a resolver says.
pub fn names_loopback(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_refused_unless_allowed() {
        for internal in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
        ] {
            assert!(is_internal(internal.parse().unwrap()), "{internal}");
        }
        for public in ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            assert!(!is_internal(public.parse().unwrap()), "{public}");
        }
        let policy = AddressPolicy::new(vec!["127.0.0.1/32".parse().unwrap()]);
        assert!(policy.permits("127.0.0.1".parse().unwrap()));
        assert!(!policy.permits("127.0.0.2".parse().unwrap()));
        assert!(!AddressPolicy::default().permits("10.0.0.1".parse().unwrap()));
    }

    #[test]
    fn the_signature_is_the_standard_webhooks_one() {
        // The example of the Standard Webhooks specification.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        let signature = sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap();
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assert!(new_secret().starts_with(SECRET_PREFIX) && new_secret() != new_secret());
    }
}
