//! Keys and tokens scoped below the tenant: limited to some end users (`user_id`), agents (`agent_id`) and/or
//! tag prefixes. A memory is inside a scope when each list the scope has holds it: its `user_id` is one of
//! the users, its `agent_id` one of the agents, one of its tags is (or lies under) one of the tag prefixes
//! (`project:x` covers `project:x` and `project:x/notes`). A memory without a `user_id` is outside a scope of
//! users, and so on.
//!
//! The scope travels with the request's [`crate::auth::Tenant`] into each tenant transaction (`app.scope`),
//! where restrictive row-level security policies hide what lies outside it on every surface; the services
//! check writes against it first ([`KeyScope::admit`]) to answer 403 naming the field.

use serde::{Deserialize, Serialize};

use crate::error::{bad, Error};

/// Longest value in a scope: as long as a stored `user_id` or `agent_id` may be (`memory::MAX_ID_CHARS`).
pub const MAX_ID_CHARS: usize = 256;

/// Most values in one list of a scope.
pub const MAX_SCOPE_VALUES: usize = 100;

/// What a scoped key or token reaches; a list left out (None) does not restrict.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyScope {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub users: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// A list of identifiers as a client gives it: trimmed, without repeats, each at most [`MAX_ID_CHARS`]
/// characters without NUL; 1 to [`MAX_SCOPE_VALUES`] of them. Errors name `field`.
fn identifiers(field: &str, values: Vec<String>, tags: bool) -> Result<Vec<String>, Error> {
    let mut out: Vec<String> = Vec::new();
    for value in values {
        let mut value = value.trim().to_owned();
        if tags {
            // As tags are stored (lower case), and a prefix names a level, not its separator.
            value = value.to_lowercase().trim_end_matches([':', '/']).to_owned();
        }
        if value.is_empty() {
            return Err(bad(field, "values must not be empty"));
        }
        if value.contains('\0') || value.chars().count() > MAX_ID_CHARS {
            return Err(bad(field, format!("values must be at most {MAX_ID_CHARS} characters, without NUL")));
        }
        if !out.contains(&value) {
            out.push(value);
        }
    }
    if out.is_empty() {
        return Err(bad(field, "must hold at least one value when given (leave it out not to restrict)"));
    }
    if out.len() > MAX_SCOPE_VALUES {
        return Err(bad(field, format!("at most {MAX_SCOPE_VALUES} values")));
    }
    Ok(out)
}

impl KeyScope {
    /// A scope from a client's lists (`user_ids`, `agent_ids`, `tag_prefixes`); None when no list is given.
    pub fn parse(
        users: Option<Vec<String>>,
        agents: Option<Vec<String>>,
        tags: Option<Vec<String>>,
    ) -> Result<Option<Self>, Error> {
        let scope = Self {
            users: users.map(|v| identifiers("user_ids", v, false)).transpose()?,
            agents: agents.map(|v| identifiers("agent_ids", v, false)).transpose()?,
            tags: tags.map(|v| identifiers("tag_prefixes", v, true)).transpose()?,
        };
        Ok(scope.restricts().then_some(scope))
    }

    /// A scope as stored with a key (validated when it was created); None when no list restricts.
    pub fn stored(users: Option<Vec<String>>, agents: Option<Vec<String>>, tags: Option<Vec<String>>) -> Option<Self> {
        let scope = Self { users, agents, tags };
        scope.restricts().then_some(scope)
    }

    /// Whether any list restricts.
    pub fn restricts(&self) -> bool {
        self.users.is_some() || self.agents.is_some() || self.tags.is_some()
    }

    /// The value of `app.scope` for a tenant transaction: the scope as JSON, hex-encoded (`SET` takes no bind
    /// parameter, and hex digits need no quoting).
    pub fn setting(&self) -> String {
        hex::encode(serde_json::to_vec(self).unwrap_or_default())
    }

    /// Whether a memory of this end user, agent and tag prefixes ([`crate::memory::tag_prefixes`]) is inside.
    pub fn allows(&self, user_id: Option<&str>, agent_id: Option<&str>, tag_prefixes: &[String]) -> bool {
        let within = |list: &Option<Vec<String>>, value: Option<&str>| {
            list.as_ref().is_none_or(|l| value.is_some_and(|v| l.iter().any(|x| x == v)))
        };
        within(&self.users, user_id)
            && within(&self.agents, agent_id)
            && self.tags.as_ref().is_none_or(|l| tag_prefixes.iter().any(|p| l.contains(p)))
    }

    /// Narrows a listing's or recall's end user and agent filters to the scope's one end user or agent, when it
    /// names exactly one and the filter none: the same answer (row-level security hides the rest anyway), found
    /// through the per-user and per-agent indexes instead of filtered out afterwards.
    pub fn narrow(&self, user_id: &mut Option<String>, agent_id: &mut Option<String>) {
        for (list, value) in [(&self.users, user_id), (&self.agents, agent_id)] {
            if let (Some([only]), None) = (list.as_deref(), value.as_ref()) {
                *value = Some(only.clone());
            }
        }
    }

    /// Admits a memory a scoped key writes: an end user or agent left out is the scope's when it names exactly
    /// one, and a memory without tags gets the scope's tag prefix when it names exactly one (returns whether
    /// the tags changed); then anything outside the scope is refused (403 naming `{at}user_id`, `{at}agent_id`
    /// or `{at}tags`). `tag_prefixes` are the tags' own (`memory::tag_prefixes`).
    pub fn admit(
        &self,
        user_id: &mut Option<String>,
        agent_id: &mut Option<String>,
        tags: &mut Vec<String>,
        tag_prefixes: &[String],
        at: &str,
    ) -> Result<bool, Error> {
        for (list, value, field) in
            [(&self.users, &mut *user_id, "user_id"), (&self.agents, &mut *agent_id, "agent_id")]
        {
            let Some(list) = list else { continue };
            if value.is_none() && list.len() == 1 {
                *value = Some(list[0].clone());
            }
            match value {
                Some(v) if list.contains(v) => {}
                Some(v) => {
                    return Err(Error::Forbidden(format!(
                        "{at}{field}: {v:?} is outside this key's scope (it may write {field} {})",
                        quoted(list)
                    )))
                }
                None => {
                    return Err(Error::Forbidden(format!(
                        "{at}{field}: required by this key's scope (one of {})",
                        quoted(list)
                    )))
                }
            }
        }
        let Some(list) = &self.tags else { return Ok(false) };
        if tag_prefixes.iter().any(|p| list.contains(p)) {
            return Ok(false);
        }
        if list.len() == 1 && tags.is_empty() {
            tags.push(list[0].clone());
            return Ok(true);
        }
        Err(Error::Forbidden(format!(
            "{at}tags: this key's scope needs a tag under one of {} (got {})",
            quoted(list),
            quoted(tags)
        )))
    }
}

fn quoted(values: &[String]) -> String {
    format!("[{}]", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn a_scope_holds_what_each_of_its_lists_holds() {
        let scope = KeyScope::parse(Some(s(&["alice", " alice "])), None, Some(s(&["Project:X/"]))).unwrap().unwrap();
        assert_eq!(scope.users, Some(s(&["alice"])));
        assert_eq!(scope.tags, Some(s(&["project:x"])));
        assert!(scope.allows(Some("alice"), None, &s(&["project", "project:x", "project:x/notes"])));
        assert!(!scope.allows(Some("alice"), None, &s(&["project", "project:xy"])));
        assert!(!scope.allows(Some("bob"), None, &s(&["project", "project:x"])));
        assert!(!scope.allows(None, None, &s(&["project", "project:x"])));
        assert_eq!(KeyScope::parse(None, None, None).unwrap(), None);
        assert!(KeyScope::parse(Some(vec![]), None, None).unwrap_err().to_string().contains("user_ids"));
        assert!(KeyScope::parse(None, Some(s(&[" "])), None).unwrap_err().to_string().contains("agent_ids"));
    }

    #[test]
    fn admitting_fills_a_single_value_and_refuses_the_rest() {
        let scope = KeyScope::parse(Some(s(&["alice"])), Some(s(&["a1", "a2"])), Some(s(&["p"]))).unwrap().unwrap();
        let (mut user, mut agent, mut tags) = (None, Some("a2".to_owned()), vec![]);
        assert!(scope.admit(&mut user, &mut agent, &mut tags, &[], "").unwrap());
        assert_eq!((user.as_deref(), tags), (Some("alice"), s(&["p"])));
        let err =
            scope.admit(&mut Some("bob".into()), &mut Some("a1".into()), &mut vec![], &[], "memories[3].").unwrap_err();
        assert!(matches!(&err, Error::Forbidden(m) if m.starts_with("memories[3].user_id")), "{err}");
        let err = scope.admit(&mut None, &mut None, &mut vec![], &[], "").unwrap_err();
        assert!(matches!(&err, Error::Forbidden(m) if m.starts_with("agent_id: required")), "{err}");
        let err = scope.admit(&mut None, &mut Some("a1".into()), &mut s(&["r"]), &s(&["r"]), "").unwrap_err();
        assert!(matches!(&err, Error::Forbidden(m) if m.starts_with("tags:")), "a tag given outside: {err}");
        let two = KeyScope::parse(None, None, Some(s(&["p", "q"]))).unwrap().unwrap();
        let err = two.admit(&mut None, &mut None, &mut vec![], &[], "").unwrap_err();
        assert!(matches!(&err, Error::Forbidden(m) if m.starts_with("tags:")), "{err}");
        assert!(!two.admit(&mut None, &mut None, &mut s(&["q:1"]), &s(&["q", "q:1"]), "").unwrap());
    }

    #[test]
    fn the_setting_is_hex_of_the_lists_given() {
        let scope = KeyScope::parse(Some(s(&["o'brien"])), None, None).unwrap().unwrap();
        let decoded: serde_json::Value = serde_json::from_slice(&hex::decode(scope.setting()).unwrap()).unwrap();
        assert_eq!(decoded, serde_json::json!({"users": ["o'brien"]}));
    }
}
