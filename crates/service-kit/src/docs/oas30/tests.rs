//! The rewriting rules, one schema or document at a time (3.1 in, 3.0 out). The served
//! rendition of a real description is checked by the services' tests (streets-api validates
//! it with openapi-spec-validator).

use super::*;

/// A 3.1 document with the schema as `components.schemas.S`.
fn with_schema(schema: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": {"S": schema}}
    })
}

#[test]
fn schemas() {
    let cases: &[(&str, Value, Value)] = &[
        (
            "Option<String>: a type list with null",
            json!({"type": ["string", "null"], "maxLength": 5}),
            json!({"type": "string", "nullable": true, "maxLength": 5}),
        ),
        (
            "a type list of two types and null",
            json!({"type": ["string", "integer", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "nullable": true}),
        ),
        (
            "a type list without null",
            json!({"type": ["integer"]}),
            json!({"type": "integer"}),
        ),
        (
            "only null",
            json!({"type": "null"}),
            json!({"nullable": true, "enum": [null]}),
        ),
        (
            "Option<Ref>: oneOf null and a $ref with a description",
            json!({"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/E", "description": "d"}]}),
            json!({"allOf": [{"$ref": "#/components/schemas/E"}], "description": "d", "nullable": true}),
        ),
        (
            "anyOf null and a bare $ref",
            json!({"anyOf": [{"$ref": "#/components/schemas/E"}, {"type": "null"}]}),
            json!({"allOf": [{"$ref": "#/components/schemas/E"}], "nullable": true}),
        ),
        (
            "oneOf null and an inline schema: merged, the outer keys win",
            json!({"oneOf": [{"type": "null"}, {"type": "string", "description": "inner"}], "description": "outer"}),
            json!({"type": "string", "description": "outer", "nullable": true}),
        ),
        (
            "oneOf null and two branches: kept, nullable",
            json!({"oneOf": [{"type": "null"}, {"type": "string"}, {"type": "integer"}]}),
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": true}),
        ),
        (
            "oneOf without null is 3.0 already",
            json!({"oneOf": [{"type": "string", "enum": ["Feature"]}], "description": "d"}),
            json!({"oneOf": [{"type": "string", "enum": ["Feature"]}], "description": "d"}),
        ),
        (
            "a $ref alone stays",
            json!({"$ref": "#/components/schemas/E"}),
            json!({"$ref": "#/components/schemas/E"}),
        ),
        (
            "a $ref with siblings moves into allOf",
            json!({"$ref": "#/components/schemas/E", "description": "d"}),
            json!({"allOf": [{"$ref": "#/components/schemas/E"}], "description": "d"}),
        ),
        (
            "a $ref with siblings and an allOf goes first",
            json!({"$ref": "#/components/schemas/E", "allOf": [{"required": ["a"]}]}),
            json!({"allOf": [{"$ref": "#/components/schemas/E"}, {"required": ["a"]}]}),
        ),
        (
            "examples: the first becomes example",
            json!({"type": "integer", "examples": [3, 4]}),
            json!({"type": "integer", "example": 3}),
        ),
        (
            "an example already there wins over examples",
            json!({"type": "integer", "example": 1, "examples": [3]}),
            json!({"type": "integer", "example": 1}),
        ),
        (
            "const becomes a one-value enum",
            json!({"const": "Feature"}),
            json!({"enum": ["Feature"]}),
        ),
        (
            "exclusiveMinimum number",
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": 5000}),
            json!({"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 5000}),
        ),
        (
            "exclusiveMaximum number",
            json!({"type": "number", "exclusiveMaximum": 1.5}),
            json!({"type": "number", "maximum": 1.5, "exclusiveMaximum": true}),
        ),
        (
            "exclusiveMinimum under a stricter minimum is dropped",
            json!({"type": "integer", "exclusiveMinimum": 0, "minimum": 3}),
            json!({"type": "integer", "minimum": 3}),
        ),
        (
            "exclusiveMinimum at the minimum wins",
            json!({"type": "integer", "exclusiveMinimum": 3, "minimum": 3}),
            json!({"type": "integer", "minimum": 3, "exclusiveMinimum": true}),
        ),
        (
            "exclusiveMaximum over a stricter maximum is dropped",
            json!({"type": "integer", "exclusiveMaximum": 10, "maximum": 9}),
            json!({"type": "integer", "maximum": 9}),
        ),
        (
            "boolean exclusiveMinimum is 3.0 already",
            json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true}),
            json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true}),
        ),
        (
            "a closed tuple of one type",
            json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false}),
            json!({"type": "array", "items": {"type": "number"}, "maxItems": 2}),
        ),
        (
            "a tuple of two types and further items",
            json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}),
            json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
        ),
        (
            "items: false alone",
            json!({"type": "array", "items": false}),
            json!({"type": "array", "items": {}, "maxItems": 0}),
        ),
        (
            "JSON Schema keywords 3.0 lacks are dropped",
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$id": "x", "$comment": "c", "$defs": {},
                "type": "string",
                "contentMediaType": "image/png", "contentEncoding": "base64",
                "unevaluatedProperties": false, "patternProperties": {"^x": {}},
                "propertyNames": {"pattern": "^a"}, "dependentRequired": {"a": ["b"]},
                "if": {}, "then": {}, "else": {}
            }),
            json!({"type": "string"}),
        ),
        (
            "sub-schemas: properties, items, additionalProperties, allOf, not",
            json!({
                "type": "object",
                "properties": {
                    "title": {"type": ["string", "null"]},
                    "type": {"const": "Feature"},
                    "const": {"type": "integer", "examples": [1]}
                },
                "additionalProperties": {"type": ["integer", "null"]},
                "allOf": [{"properties": {"a": {"exclusiveMinimum": 1}}}],
                "not": {"type": ["boolean", "null"]}
            }),
            json!({
                "type": "object",
                "properties": {
                    "title": {"type": "string", "nullable": true},
                    "type": {"enum": ["Feature"]},
                    "const": {"type": "integer", "example": 1}
                },
                "additionalProperties": {"type": "integer", "nullable": true},
                "allOf": [{"properties": {"a": {"minimum": 1, "exclusiveMinimum": true}}}],
                "not": {"type": "boolean", "nullable": true}
            }),
        ),
        (
            "nested arrays and boolean sub-schemas",
            json!({
                "type": "array",
                "items": {"type": "array", "items": {"type": ["number", "null"]}},
                "additionalProperties": true,
                "allOf": [true, false]
            }),
            json!({
                "type": "array",
                "items": {"type": "array", "items": {"type": "number", "nullable": true}},
                "additionalProperties": true,
                "allOf": [{}, {"not": {}}]
            }),
        ),
        (
            "the merged branch is rewritten too",
            json!({"anyOf": [{"type": "null"}, {"type": "array", "items": {"const": 1}, "examples": [[1]]}]}),
            json!({"type": "array", "items": {"enum": [1]}, "example": [1], "nullable": true}),
        ),
        (
            "example and default values are data, left alone",
            json!({"type": "object", "example": {"type": ["a", "null"], "const": 1}, "default": {"examples": [1]}}),
            json!({"type": "object", "example": {"type": ["a", "null"], "const": 1}, "default": {"examples": [1]}}),
        ),
    ];
    for (name, input, want) in cases {
        let got = openapi_3_0(&with_schema(input.clone()));
        assert_eq!(
            got["components"]["schemas"]["S"], *want,
            "{name}: {input} gave {}",
            got["components"]["schemas"]["S"]
        );
    }
}

#[test]
fn documents() {
    let cases: &[(&str, Value, Value)] = &[
        (
            "version, license identifier, info summary, webhooks, dialect, pathItems",
            json!({
                "openapi": "3.1.0",
                "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
                "info": {"title": "t", "summary": "s", "version": "1",
                         "license": {"name": "EUPL-1.2", "identifier": "EUPL-1.2"}},
                "paths": {},
                "webhooks": {"w": {}},
                "components": {"pathItems": {"p": {}}}
            }),
            json!({
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1", "license": {"name": "EUPL-1.2"}},
                "paths": {},
                "components": {}
            }),
        ),
        (
            "paths made when absent (optional in 3.1, required in 3.0)",
            json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}}),
            json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}),
        ),
        (
            "parameter, request body, response and header schemas; examples untouched",
            json!({
                "openapi": "3.1.0",
                "info": {"title": "t", "version": "1"},
                "paths": {"/a/{id}": {
                    "parameters": [{"name": "id", "in": "path", "required": true,
                                    "schema": {"type": "string"}, "example": "x"}],
                    "post": {
                        "parameters": [{"name": "n", "in": "query",
                                        "schema": {"type": ["integer", "null"], "exclusiveMinimum": 0}}],
                        "requestBody": {"content": {"application/json": {
                            "schema": {"$ref": "#/components/schemas/B", "description": "body"},
                            "examples": {"one": {"value": {"type": ["x", "null"]}}}
                        }}},
                        "responses": {"200": {
                            "description": "ok",
                            "headers": {"ETag": {"schema": {"type": ["string", "null"]}}},
                            "content": {"application/json": {
                                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/B"}},
                                "example": [{"const": 1}]
                            }}
                        }}
                    }
                }},
                "components": {
                    "schemas": {"B": {"type": "object", "properties": {"t": {"type": ["string", "null"]}}}},
                    "parameters": {"P": {"name": "p", "in": "query", "schema": {"const": 1}}},
                    "responses": {"R": {"description": "r", "content": {"application/json": {"schema": {"examples": [1]}}}}}
                }
            }),
            json!({
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1"},
                "paths": {"/a/{id}": {
                    "parameters": [{"name": "id", "in": "path", "required": true,
                                    "schema": {"type": "string"}, "example": "x"}],
                    "post": {
                        "parameters": [{"name": "n", "in": "query",
                                        "schema": {"type": "integer", "nullable": true,
                                                   "minimum": 0, "exclusiveMinimum": true}}],
                        "requestBody": {"content": {"application/json": {
                            "schema": {"allOf": [{"$ref": "#/components/schemas/B"}], "description": "body"},
                            "examples": {"one": {"value": {"type": ["x", "null"]}}}
                        }}},
                        "responses": {"200": {
                            "description": "ok",
                            "headers": {"ETag": {"schema": {"type": "string", "nullable": true}}},
                            "content": {"application/json": {
                                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/B"}},
                                "example": [{"const": 1}]
                            }}
                        }}
                    }
                }},
                "components": {
                    "schemas": {"B": {"type": "object", "properties": {"t": {"type": "string", "nullable": true}}}},
                    "parameters": {"P": {"name": "p", "in": "query", "schema": {"enum": [1]}}},
                    "responses": {"R": {"description": "r", "content": {"application/json": {"schema": {"example": 1}}}}}
                }
            }),
        ),
    ];
    for (name, input, want) in cases {
        let got = openapi_3_0(input);
        assert_eq!(got, *want, "{name}: got {got}");
    }
}

#[test]
fn a_utoipa_description_is_rewritten() {
    #[derive(utoipa::ToSchema)]
    #[allow(dead_code)]
    struct Inner {
        a: i32,
    }
    #[derive(utoipa::ToSchema)]
    #[allow(dead_code)]
    struct Outer {
        title: Option<String>,
        inner: Option<Inner>,
        #[schema(exclusive_minimum = 0.0)]
        radius: f64,
    }
    #[derive(utoipa::OpenApi)]
    #[openapi(
        info(title = "t", version = "1", license(name = "MIT", identifier = "MIT")),
        components(schemas(Outer, Inner))
    )]
    struct Doc;

    let api = serde_json::to_value(<Doc as utoipa::OpenApi>::openapi()).unwrap_or_default();
    assert_eq!(api["openapi"], "3.1.0");
    let got = openapi_3_0(&api);
    assert_eq!(got["openapi"], "3.0.3");
    assert_eq!(got["info"]["license"], json!({"name": "MIT"}));
    let outer = &got["components"]["schemas"]["Outer"]["properties"];
    assert_eq!(outer["title"], json!({"type": "string", "nullable": true}));
    assert_eq!(
        outer["inner"],
        json!({"allOf": [{"$ref": "#/components/schemas/Inner"}], "nullable": true})
    );
    assert_eq!(outer["radius"]["minimum"].as_f64(), Some(0.0));
    assert_eq!(outer["radius"]["exclusiveMinimum"], json!(true));
}
