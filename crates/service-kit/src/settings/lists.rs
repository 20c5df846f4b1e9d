//! Which settings are lists, read off the settings type itself.
//!
//! The environment holds only strings; `config` turns a comma-separated value into a list only
//! for the keys it is told about. Instead of a hand-kept list of such keys (which missed every
//! list but one), [`list_keys`] asks the type: it drives `T`'s `Deserialize` with a probe that
//! follows one dotted path at a time and reports what the type asks for at its end, a struct
//! (whose field names give the next paths), a sequence (a list setting), or anything else.
//! No value is ever built: each run stops with an error once the path's end has been seen, so
//! validations inside the settings' own deserializers never get in the way.

use std::cell::Cell;
use std::fmt;

use serde::de::value::{Error, StrDeserializer};
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

/// Deepest nesting followed (the settings are a handful of levels; a recursive type stops here).
const MAX_DEPTH: usize = 12;

/// The dotted keys of every list-valued setting of `T` (e.g. `http.cors_allowed_origins`),
/// sorted. Options and newtypes are looked through: `Option<Vec<String>>` is a list.
pub fn list_keys<T: DeserializeOwned>() -> Vec<String> {
    let mut lists = Vec::new();
    let mut paths: Vec<Vec<&'static str>> = vec![Vec::new()];
    while let Some(path) = paths.pop() {
        match shape_at::<T>(&path) {
            Some(Shape::Struct(fields)) if path.len() < MAX_DEPTH => {
                for field in fields {
                    let mut next = path.clone();
                    next.push(field);
                    paths.push(next);
                }
            }
            Some(Shape::Seq) => lists.push(path.join(".")),
            _ => {}
        }
    }
    lists.sort();
    lists
}

/// What a type asks the deserializer for at the end of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Struct(&'static [&'static str]),
    Seq,
    Other,
}

fn shape_at<T: DeserializeOwned>(path: &[&'static str]) -> Option<Shape> {
    let seen = Cell::new(None);
    // Always an error: the probe stops every run once it has seen the path's end.
    let _ = T::deserialize(Probe { path, seen: &seen });
    seen.get()
}

/// A deserializer that offers, at each struct on the way, a map holding only the path's next
/// field, and records the shape requested once the path is used up.
struct Probe<'a> {
    path: &'a [&'static str],
    seen: &'a Cell<Option<Shape>>,
}

impl Probe<'_> {
    fn end(self, shape: Shape) -> Error {
        if self.path.is_empty() {
            self.seen.set(Some(shape));
        }
        Error::custom("probe: end of path")
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        Err(self.end(Shape::Other))
    }

    // Everything but what the path goes through (options, newtypes, structs) and a list ends it.
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct tuple tuple_struct map enum identifier ignored_any
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
        Err(self.end(Shape::Seq))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.path.split_first() {
            None => Err(self.end(Shape::Struct(fields))),
            Some((field, rest)) => visitor.visit_map(OneField {
                field: Some(field),
                rest,
                seen: self.seen,
            }),
        }
    }
}

/// A map of one key, whose value is the probe for the rest of the path.
struct OneField<'a> {
    field: Option<&'static str>,
    rest: &'a [&'static str],
    seen: &'a Cell<Option<Shape>>,
}

impl<'de> MapAccess<'de> for OneField<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        self.field
            .take()
            .map(|field| seed.deserialize(StrDeserializer::<Error>::new(field)))
            .transpose()
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(Probe {
            path: self.rest,
            seen: self.seen,
        })
    }
}

impl fmt::Debug for Probe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Probe").field("path", &self.path).finish()
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Deserializer};

    use super::list_keys;

    #[allow(dead_code)] // only the type is looked at
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Root {
        name: String,
        tags: Vec<String>,
        inner: Inner,
        #[serde(default)]
        maybe: Option<Inner>,
        ports: Option<Vec<u16>>,
        #[serde(rename = "when")]
        at: Option<chrono::DateTime<chrono::Utc>>,
        #[serde(deserialize_with = "non_empty")]
        checked: String,
        pair: (u8, u8),
        mode: Mode,
    }

    #[allow(dead_code)]
    #[derive(Deserialize)]
    struct Inner {
        hosts: Vec<String>,
        limit: u32,
        deeper: Deeper,
    }

    #[allow(dead_code)]
    #[derive(Deserialize)]
    struct Deeper(Vec<String>);

    #[derive(Deserialize)]
    enum Mode {
        On,
    }

    fn non_empty<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() {
            return Err(serde::de::Error::custom("empty"));
        }
        Ok(text)
    }

    #[test]
    fn every_sequence_at_any_depth_and_nothing_else() {
        assert_eq!(
            list_keys::<Root>(),
            [
                "inner.deeper",
                "inner.hosts",
                "maybe.deeper",
                "maybe.hosts",
                "ports",
                "tags"
            ]
        );
    }
}
