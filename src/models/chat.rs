//! An OpenAI-compatible chat model (`/v1/chat/completions`: OpenAI, Ollama, vLLM, LM Studio...), used
//! where a configured LLM does better than local rules (entity extraction). Optional: without
//! `CAIRN_LLM_BASE_URL` and `CAIRN_LLM_MODEL` every feature falls back to its local method.

use anyhow::Context;
use serde::Deserialize;
use serde_json::{json, Value};

use super::endpoint::Endpoint;
use crate::config::LlmConfig;

pub struct ChatModel {
    endpoint: Endpoint,
    model: String,
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
}

impl ChatModel {
    pub fn new(config: LlmConfig) -> anyhow::Result<Self> {
        let endpoint = Endpoint::new(&config.base_url, config.api_key, config.timeout, config.retries, "chat")?;
        Ok(Self { endpoint, model: config.model })
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// The model's answer to `user` under `system`, at temperature 0.
    pub async fn complete(&self, system: &str, user: &str) -> anyhow::Result<String> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        });
        let completion: Completion = self.endpoint.post("chat/completions", &body).await?;
        completion
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content)
            .context("the chat model returned no message")
    }

    /// As [`Self::complete`], parsing the first JSON object in the answer (models often wrap it in prose
    /// or a code fence).
    pub async fn complete_json(&self, system: &str, user: &str) -> anyhow::Result<Value> {
        let answer = self.complete(system, user).await?;
        first_json_object(&answer).with_context(|| {
            let head: String = answer.chars().take(200).collect();
            format!("the chat model's answer holds no JSON object: {head:?}")
        })
    }
}

/// The first complete JSON object in `text`.
pub fn first_json_object(text: &str) -> Option<Value> {
    text.match_indices('{').find_map(|(start, _)| {
        let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(v @ Value::Object(_))) => Some(v),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_found_inside_prose_and_fences() {
        let v = first_json_object("Sure! ```json\n{\"entities\": [{\"name\": \"Ann\"}]}\n``` done").unwrap();
        assert_eq!(v["entities"][0]["name"], "Ann");
        assert!(first_json_object("no json {here").is_none());
    }
}
