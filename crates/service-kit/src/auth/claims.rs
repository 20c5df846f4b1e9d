//! From verified claims to a [`Principal`].

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{AuthError, Principal};

type Claims = Map<String, Value>;

pub(crate) fn principal(
    claims: &Claims,
    roles_claim: &str,
    client_id_claim: &str,
) -> Result<Principal, AuthError> {
    let subject = match claims.get("sub") {
        Some(Value::String(sub)) if !sub.trim().is_empty() => sub.clone(),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            return Err(AuthError::MissingClaim("sub"))
        }
        Some(_) => return Err(AuthError::InvalidClaim("sub")),
    };

    // RFC 7519 §4.1.1: `iss` is one StringOrURI. jsonwebtoken also takes an array and accepts it
    // when any member is the configured issuer, so a token naming a second issuer would pass.
    match claims.get("iss") {
        None | Some(Value::String(_)) => {}
        Some(_) => return Err(AuthError::InvalidClaim("iss")),
    }

    let mut scopes = BTreeSet::new();
    if let Some(scope) = claims.get("scope") {
        scopes.extend(string_set(scope).ok_or(AuthError::InvalidClaim("scope"))?);
    }
    if let Some(scp) = claims.get("scp") {
        scopes.extend(string_set(scp).ok_or(AuthError::InvalidClaim("scp"))?);
    }

    let roles = match lookup(claims, roles_claim) {
        Some(value) => string_set(value).ok_or(AuthError::InvalidClaim("roles"))?,
        None => BTreeSet::new(),
    };

    let client_id = [client_id_claim, "client_id"]
        .into_iter()
        .filter(|name| !name.is_empty())
        .find_map(|name| match claims.get(name) {
            Some(Value::String(id)) if !id.trim().is_empty() => Some(id.clone()),
            _ => None,
        });

    let text = |name: &str| match claims.get(name) {
        Some(Value::String(value)) if !value.trim().is_empty() => Some(value.trim().to_owned()),
        _ => None,
    };

    Ok(Principal {
        subject,
        scopes,
        roles,
        client_id,
        email: text("email"),
        locale: text("locale"),
    })
}

/// The claim `name`; when there is no claim of that exact name (claim names may contain dots,
/// e.g. URLs), a dotted path into nested objects such as `realm_access.roles`.
pub(crate) fn lookup<'a>(claims: &'a Claims, name: &str) -> Option<&'a Value> {
    if let Some(value) = claims.get(name) {
        return Some(value);
    }
    let mut parts = name.split('.');
    let mut current = claims.get(parts.next()?)?;
    for part in parts {
        current = current.as_object()?.get(part)?;
    }
    Some(current)
}

/// A space-separated string or an array of strings; `null` is empty. `None` for anything else.
fn string_set(value: &Value) -> Option<BTreeSet<String>> {
    match value {
        Value::Null => Some(BTreeSet::new()),
        Value::String(s) => Some(s.split_whitespace().map(str::to_owned).collect()),
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::trim).map(str::to_owned))
            .filter(|item| !matches!(item.as_deref(), Some("")))
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: Value) -> Claims {
        match value {
            Value::Object(map) => map,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn nested_roles_and_client_fallback() {
        let c = claims(json!({
            "sub": "u1",
            "scp": ["a", "b"],
            "scope": "c",
            "realm_access": {"roles": "x y"},
            "client_id": "app"
        }));
        let p = principal(&c, "realm_access.roles", "azp").unwrap();
        assert_eq!(p.scopes, ["a", "b", "c"].map(String::from).into());
        assert_eq!(p.roles, ["x", "y"].map(String::from).into());
        assert_eq!(p.client_id.as_deref(), Some("app"));
    }

    #[test]
    fn dotted_claim_name_wins_over_path() {
        let c = claims(json!({"sub": "u", "https://city.example/roles": ["r"]}));
        let p = principal(&c, "https://city.example/roles", "azp").unwrap();
        assert!(p.has_role("r"));
    }

    #[test]
    fn bad_shapes() {
        let c = claims(json!({"sub": ""}));
        assert_eq!(
            principal(&c, "roles", "azp").unwrap_err(),
            AuthError::MissingClaim("sub")
        );
        let c = claims(json!({"sub": "u", "iss": ["https://evil.example/", "https://id"]}));
        assert_eq!(
            principal(&c, "roles", "azp").unwrap_err(),
            AuthError::InvalidClaim("iss")
        );
        let c = claims(json!({"sub": "u", "roles": [1]}));
        assert_eq!(
            principal(&c, "roles", "azp").unwrap_err(),
            AuthError::InvalidClaim("roles")
        );
    }
}
