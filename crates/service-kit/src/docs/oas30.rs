//! An OpenAPI 3.0.3 rendition of the OpenAPI 3.1 description utoipa 5 writes, for clients
//! that read only 3.0: OGC API – Features' "OpenAPI 3.0" conformance class and the GIS clients
//! that follow it (GDAL, QGIS, OWSLib). Built once at start-up by walking the JSON.
//!
//! What 3.0 can say is said its way; what it cannot is dropped (that only loosens a schema):
//! - the document: `openapi: 3.0.3`; `webhooks`, `jsonSchemaDialect`, `info.summary`,
//!   `info.license.identifier` and `components.pathItems` dropped; `paths` always present;
//! - a schema: `type: [T, "null"]` → `type: T, nullable: true` (several types: `anyOf`);
//!   a `oneOf` / `anyOf` branch `{"type": "null"}` → `nullable: true` with the other branch
//!   merged in when it is the only one; a `$ref` with siblings → `allOf: [{"$ref"}]` beside
//!   them (3.0 ignores a `$ref`'s siblings); `examples: [..]` → `example` (the first);
//!   `const` → a one-value `enum`; numeric `exclusiveMinimum` / `exclusiveMaximum` →
//!   `minimum` / `maximum` with the boolean flag; `prefixItems` → `items` (the one schema, or
//!   `anyOf` of them) and `maxItems` when no other item is allowed; boolean schemas → `{}` /
//!   `{"not": {}}`; JSON Schema keywords 3.0 lacks ([`DROPPED`]) removed.
//!
//! Schemas are found where OpenAPI puts them (`components.schemas`, any `schema` of a
//! parameter, header or media type, and their sub-schemas), so a property named `type` or
//! `const` stays a property and examples are left as they are.

use serde_json::{json, Map, Value};

/// JSON Schema keywords of OpenAPI 3.1 that a 3.0 Schema Object does not have.
pub const DROPPED: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$defs",
    "$comment",
    "$vocabulary",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentSchemas",
    "dependentRequired",
    "patternProperties",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "if",
    "then",
    "else",
];

/// The OpenAPI 3.0.3 rendition of an OpenAPI 3.1 document.
pub fn openapi_3_0(doc: &Value) -> Value {
    let mut doc = doc.clone();
    let Value::Object(root) = &mut doc else {
        return doc;
    };
    root.insert("openapi".into(), "3.0.3".into());
    root.remove("webhooks");
    root.remove("jsonSchemaDialect");
    if let Some(Value::Object(info)) = root.get_mut("info") {
        info.remove("summary");
        if let Some(Value::Object(license)) = info.get_mut("license") {
            license.remove("identifier");
        }
    }
    root.entry("paths").or_insert_with(|| json!({}));
    if let Some(Value::Object(components)) = root.get_mut("components") {
        components.remove("pathItems");
    }
    for key in ["paths", "components"] {
        if let Some(part) = root.get_mut(key) {
            document(part);
        }
    }
    doc
}

/// Walks the non-schema part of the document to the schemas in it.
fn document(node: &mut Value) {
    match node {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    "schema" => schema(child),
                    "schemas" => {
                        if let Value::Object(schemas) = child {
                            schemas.values_mut().for_each(schema);
                        }
                    }
                    // Example values are data, not description.
                    "example" | "examples" => {}
                    _ => document(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(document),
        _ => {}
    }
}

/// Rewrites one schema and its sub-schemas.
fn schema(node: &mut Value) {
    let map = match node {
        Value::Bool(true) => {
            *node = json!({});
            return;
        }
        Value::Bool(false) => {
            *node = json!({ "not": {} });
            return;
        }
        Value::Object(map) => map,
        _ => return,
    };
    null_branches(map);
    type_list(map);
    keywords(map);
    ref_siblings(map);
    sub_schemas(map);
}

fn is_null_type(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// `oneOf` / `anyOf` with a `{"type": "null"}` branch: `nullable: true` instead of the branch;
/// a single remaining branch is merged into this schema (its keys where this one has none).
fn null_branches(map: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        if !branches.iter().any(is_null_type) {
            continue;
        }
        let mut rest: Vec<Value> = branches
            .iter()
            .filter(|b| !is_null_type(b))
            .cloned()
            .collect();
        map.insert("nullable".into(), true.into());
        match rest.len() {
            0 => {
                map.remove(key);
                map.insert("enum".into(), json!([null]));
            }
            1 => {
                map.remove(key);
                if let Some(Value::Object(only)) = rest.pop() {
                    for (k, v) in only {
                        map.entry(k).or_insert(v);
                    }
                }
            }
            _ => {
                map.insert(key.into(), rest.into());
            }
        }
    }
}

/// `type` as a list: `"null"` becomes `nullable: true`; one other type stays `type`, several
/// become `anyOf`. A lone `type: "null"` allows only null.
fn type_list(map: &mut Map<String, Value>) {
    let types: Vec<Value> = match map.get("type") {
        Some(Value::Array(types)) => types.clone(),
        Some(Value::String(t)) if t == "null" => vec![Value::from("null")],
        _ => return,
    };
    map.remove("type");
    let (null, others): (Vec<Value>, Vec<Value>) =
        types.into_iter().partition(|t| t.as_str() == Some("null"));
    if !null.is_empty() {
        map.insert("nullable".into(), true.into());
    }
    match others.len() {
        0 => {
            map.insert("enum".into(), json!([null]));
        }
        1 => {
            map.insert("type".into(), others.into_iter().next().unwrap_or_default());
        }
        _ => {
            let alternatives: Vec<Value> =
                others.into_iter().map(|t| json!({ "type": t })).collect();
            if map.contains_key("anyOf") {
                add_to_all_of(map, json!({ "anyOf": alternatives }), false);
            } else {
                map.insert("anyOf".into(), alternatives.into());
            }
        }
    }
}

/// The keywords 3.1 spells differently, and those 3.0 lacks.
fn keywords(map: &mut Map<String, Value>) {
    if let Some(examples) = map.remove("examples") {
        if let Some(first) = examples.as_array().and_then(|e| e.first()) {
            map.entry("example").or_insert_with(|| first.clone());
        }
    }
    if let Some(value) = map.remove("const") {
        map.entry("enum").or_insert_with(|| json!([value]));
    }
    exclusive_bound(
        map,
        "exclusiveMinimum",
        "minimum",
        |exclusive, inclusive| exclusive >= inclusive,
    );
    exclusive_bound(
        map,
        "exclusiveMaximum",
        "maximum",
        |exclusive, inclusive| exclusive <= inclusive,
    );
    prefix_items(map);
    if let Some(Value::Bool(allowed)) = map.get("items").cloned() {
        map.insert("items".into(), json!({}));
        if !allowed {
            map.insert("maxItems".into(), 0.into());
        }
    }
    for key in DROPPED {
        map.remove(*key);
    }
}

/// A numeric `exclusiveMinimum: n` → `minimum: n, exclusiveMinimum: true`, unless an inclusive
/// bound already there is the stricter (`stricter(exclusive, inclusive)` says when it is not).
fn exclusive_bound(
    map: &mut Map<String, Value>,
    exclusive_key: &str,
    inclusive_key: &str,
    stricter: fn(f64, f64) -> bool,
) {
    let Some(Value::Number(exclusive)) = map.get(exclusive_key).cloned() else {
        return;
    };
    map.remove(exclusive_key);
    let inclusive = map.get(inclusive_key).and_then(Value::as_f64);
    let exclusive_wins = match (exclusive.as_f64(), inclusive) {
        (Some(e), Some(i)) => stricter(e, i),
        _ => true,
    };
    if exclusive_wins {
        map.insert(inclusive_key.into(), Value::Number(exclusive));
        map.insert(exclusive_key.into(), true.into());
    }
}

/// `prefixItems` (a tuple) → `items`: the one schema, or `anyOf` of them and of `items`;
/// `items: false` (nothing after the tuple) → `maxItems`.
fn prefix_items(map: &mut Map<String, Value>) {
    let Some(Value::Array(prefix)) = map.remove("prefixItems") else {
        return;
    };
    let count = prefix.len();
    let rest = map.remove("items");
    let closed = rest == Some(Value::Bool(false));
    let mut alternatives: Vec<Value> = Vec::new();
    for item in prefix.into_iter().chain(rest.filter(|r| !r.is_boolean())) {
        if !alternatives.contains(&item) {
            alternatives.push(item);
        }
    }
    let items = match alternatives.len() {
        0 => json!({}),
        1 => alternatives.remove(0),
        _ => json!({ "anyOf": alternatives }),
    };
    map.insert("items".into(), items);
    if closed {
        let max = map
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(count as u64, |m| m.min(count as u64));
        map.insert("maxItems".into(), max.into());
    }
}

/// 3.0 ignores what stands beside a `$ref`: keep it by moving the `$ref` into `allOf`.
fn ref_siblings(map: &mut Map<String, Value>) {
    if map.len() < 2 {
        return;
    }
    if let Some(reference) = map.remove("$ref") {
        add_to_all_of(map, json!({ "$ref": reference }), true);
    }
}

/// Adds a schema to `allOf` (made when absent), first or last.
fn add_to_all_of(map: &mut Map<String, Value>, schema: Value, first: bool) {
    let mut list = match map.remove("allOf") {
        Some(Value::Array(list)) => list,
        _ => Vec::new(),
    };
    if first {
        list.insert(0, schema);
    } else {
        list.push(schema);
    }
    map.insert("allOf".into(), list.into());
}

fn sub_schemas(map: &mut Map<String, Value>) {
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties.values_mut().for_each(schema);
    }
    for key in ["items", "not"] {
        if let Some(child) = map.get_mut(key) {
            schema(child);
        }
    }
    // A boolean `additionalProperties` is 3.0 as it is.
    if let Some(child @ Value::Object(_)) = map.get_mut("additionalProperties") {
        schema(child);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = map.get_mut(key) {
            list.iter_mut().for_each(schema);
        }
    }
}

#[cfg(test)]
mod tests;
