//! The OpenAPI schemas of the inputs every surface shares, derived from their one definition: the domain
//! types (`MemoryInput`, `RecallParams`...) derive `schemars::JsonSchema` with their limits and enums
//! written once, against the same constants validation uses; MCP's tool schemas are those schemas, and
//! here the same schemas become utoipa's, for request bodies ([`utoipa::ToSchema`]) and query strings
//! ([`utoipa::IntoParams`]).

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{RefOr, Required, Schema};

/// `T`'s JSON schema, self-contained (no `$defs`), as a JSON value without the meta keys.
pub fn json_schema<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let mut value = settings.into_generator().into_root_schema_for::<T>().to_value();
    tidy(&mut value);
    value
}

/// Drops what an OpenAPI document does not need (titles, the meta-schema).
fn tidy(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("title");
            map.remove("$schema");
            // OpenAPI tools read `example`; schemars writes JSON Schema's `examples`.
            if let Some(Value::Array(mut examples)) = map.remove("examples") {
                if !examples.is_empty() {
                    map.insert("example".into(), examples.swap_remove(0));
                }
            }
            for v in map.values_mut() {
                tidy(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// `T`'s schema as utoipa's.
pub fn schema<T: JsonSchema>() -> RefOr<Schema> {
    let value = json_schema::<T>();
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("the schema of {} is not an OpenAPI schema ({e}): {value}", T::schema_name()))
}

/// `T`'s fields as query parameters: each property a parameter with its schema and description.
pub fn params<T: JsonSchema>(parameter_in: Option<ParameterIn>) -> Vec<Parameter> {
    let value = json_schema::<T>();
    let required: Vec<&str> =
        value["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let Some(properties) = value["properties"].as_object() else { return Vec::new() };
    properties
        .iter()
        .map(|(name, property)| {
            let mut property = property.clone();
            let description = property.as_object_mut().and_then(|p| p.remove("description"));
            let schema: RefOr<Schema> = serde_json::from_value(property).unwrap_or_else(|e| {
                panic!("the parameter {name} of {} is not an OpenAPI schema: {e}", T::schema_name())
            });
            let required = if required.contains(&name.as_str()) { Required::True } else { Required::False };
            ParameterBuilder::new()
                .name(name)
                .parameter_in(parameter_in.clone().unwrap_or(ParameterIn::Query))
                .required(required)
                .description(description.and_then(|d| d.as_str().map(str::to_owned)))
                .schema(Some(schema))
                .build()
        })
        .collect()
}

/// Implements utoipa's `ToSchema` (under the type's name) and `IntoParams` for domain inputs, from their
/// JSON schemas.
macro_rules! from_json_schema {
    ($($ty:ty),* $(,)?) => {
        $(
            impl utoipa::PartialSchema for $ty {
                fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                    $crate::api::schema::schema::<$ty>()
                }
            }

            impl utoipa::ToSchema for $ty {}

            impl utoipa::IntoParams for $ty {
                fn into_params(
                    parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
                ) -> Vec<utoipa::openapi::path::Parameter> {
                    $crate::api::schema::params::<$ty>(parameter_in())
                }
            }
        )*
    };
}

from_json_schema!(
    crate::memory::MemoryInput,
    crate::memory::MemoryPatch,
    crate::memory::filter::TagParams,
    crate::recall::RecallParams,
    crate::recall::MultiParams,
    crate::recall::GroupedParams,
    crate::recall::ContextParams,
    crate::graph::AssociationInput,
    crate::graph::RelatedParams,
    crate::service::consolidation::ConsolidateParams,
    crate::service::eval::EvalParams,
    crate::service::eval::ProbeSetParams,
    crate::service::webhooks::EndpointParams,
    crate::service::webhooks::EndpointPatch,
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shared input converts (a schemars construct utoipa cannot read would panic at start-up).
    #[test]
    fn every_shared_input_has_an_openapi_schema_and_parameters() {
        use utoipa::{IntoParams, PartialSchema};
        let _ = crate::memory::MemoryInput::schema();
        let _ = crate::memory::MemoryPatch::schema();
        let _ = crate::memory::filter::TagParams::into_params(|| None);
        let _ = crate::recall::RecallParams::into_params(|| None);
        let _ = crate::recall::RecallParams::schema();
        let _ = crate::recall::MultiParams::into_params(|| None);
        let _ = crate::recall::GroupedParams::schema();
        let _ = crate::recall::ContextParams::schema();
        let _ = crate::graph::AssociationInput::schema();
        let _ = crate::graph::RelatedParams::into_params(|| None);
        let _ = crate::service::consolidation::ConsolidateParams::schema();
        let _ = crate::service::eval::EvalParams::schema();
        let _ = crate::service::eval::ProbeSetParams::schema();
        let _ = crate::service::webhooks::EndpointParams::schema();
        let _ = crate::service::webhooks::EndpointPatch::schema();
    }

    /// The limits come from the constants validation uses.
    #[test]
    fn limits_are_the_validation_constants() {
        let memory = json_schema::<crate::memory::MemoryInput>();
        assert_eq!(memory["properties"]["content"]["maxLength"], crate::memory::MAX_CONTENT_CHARS);
        assert_eq!(memory["properties"]["tags"]["maxItems"], crate::memory::MAX_TAGS);
        let recall = json_schema::<crate::recall::RecallParams>();
        assert_eq!(recall["properties"]["limit"]["maximum"], crate::recall::MAX_LIMIT);
    }
}
