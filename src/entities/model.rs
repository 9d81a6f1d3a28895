//! Entity extraction by the configured chat model: it is asked for JSON, and whatever it answers is held
//! to the same rules as the local extractor's output (known types only, names bounded, deduplicated).

use serde_json::Value;

use super::{dedupe, parse_type, Found, TYPES};
use crate::models::chat::ChatModel;

const SYSTEM: &str = "You extract named entities from a short memory an AI agent stored. Answer with JSON \
only, of the form {\"entities\": [{\"name\": \"...\", \"type\": \"...\"}]}. Types: person, organization, \
project, tool, concept, location, preference, fact. Use the name as written (a tool's usual spelling). \
A preference is what someone likes or chooses, named in a few words; a fact a short, stable statement. \
Leave out pronouns, dates and generic words. At most 20 entities; none is an empty list.";

/// The entities the model finds in `text`.
pub async fn extract(model: &ChatModel, text: &str) -> anyhow::Result<Vec<Found>> {
    let answer = model.complete_json(SYSTEM, text).await?;
    Ok(parse(&answer))
}

/// The valid entities of a model's answer; anything else in it is ignored.
pub fn parse(answer: &Value) -> Vec<Found> {
    let items = answer.get("entities").and_then(Value::as_array).cloned().unwrap_or_default();
    let found = items
        .iter()
        .filter_map(|item| {
            let name = item.get("name")?.as_str()?;
            let kind = parse_type(item.get("type")?.as_str()?)?;
            debug_assert!(TYPES.contains(&kind));
            Some(Found { name: name.to_owned(), kind })
        })
        .collect();
    dedupe(found)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unknown_types_and_malformed_items_are_dropped() {
        let answer = json!({"entities": [
            {"name": "Ann", "type": "Person"},
            {"name": "Mars", "type": "planet"},
            {"name": 7, "type": "fact"},
            {"type": "tool"},
            {"name": "ann", "type": "concept"}
        ]});
        assert_eq!(parse(&answer), vec![Found { name: "Ann".into(), kind: "person" }]);
        assert!(parse(&json!({"unexpected": true})).is_empty());
    }
}
