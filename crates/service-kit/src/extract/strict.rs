//! A deserializer adapter that holds JSON bodies to their schema's types: a struct (or a struct
//! variant) is read from a JSON object only, never from an array.
//!
//! serde's derived `Deserialize` for a struct also accepts a sequence of its fields' values in
//! declaration order, and `serde_json` offers it one whenever the body holds an array where an
//! object belongs (serde-rs/serde#1587). `[true, null]` would then stand for
//! `{"enabled": true, "interval": null}`: a shape no schema of ours documents. [`Strict`] wraps any
//! [`Deserializer`] and every deserializer it hands on (map values, sequence elements, `Some`,
//! newtypes, enum variants), so the rule holds at every depth, once, for every body.

use std::fmt;

use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, Error as _, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

/// Wraps a deserializer: structs only from maps, at every depth.
pub struct Strict<D>(pub D);

/// A visitor of a struct (`for_struct`) refuses sequences; every visitor wraps what it visits.
struct StrictVisitor<V> {
    inner: V,
    for_struct: bool,
}

impl<V> StrictVisitor<V> {
    fn any(inner: V) -> Self {
        Self {
            inner,
            for_struct: false,
        }
    }

    fn structure(inner: V) -> Self {
        Self {
            inner,
            for_struct: true,
        }
    }
}

struct StrictSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(deserializer))
    }
}

/// `method(arguments…)`: the wrapped deserializer's method, with the same arguments and the
/// visitor wrapped.
macro_rules! forward_wrapped {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(
                self,
                $($arg: $ty,)*
                visitor: V,
            ) -> Result<V::Value, D::Error> {
                self.0.$method($($arg,)* StrictVisitor::any(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_wrapped!(
        deserialize_any(),
        deserialize_bool(),
        deserialize_i8(),
        deserialize_i16(),
        deserialize_i32(),
        deserialize_i64(),
        deserialize_i128(),
        deserialize_u8(),
        deserialize_u16(),
        deserialize_u32(),
        deserialize_u64(),
        deserialize_u128(),
        deserialize_f32(),
        deserialize_f64(),
        deserialize_char(),
        deserialize_str(),
        deserialize_string(),
        deserialize_bytes(),
        deserialize_byte_buf(),
        deserialize_option(),
        deserialize_unit(),
        deserialize_seq(),
        deserialize_map(),
        deserialize_identifier(),
        deserialize_ignored_any(),
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    );

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_struct(name, fields, StrictVisitor::structure(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: serde::de::Error>(self, value: $ty) -> Result<V::Value, E> {
                self.inner.$method(value)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_string(String),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    );

    fn visit_none<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, deserializer: D2) -> Result<V::Value, D2::Error> {
        self.inner.visit_some(Strict(deserializer))
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(
        self,
        deserializer: D2,
    ) -> Result<V::Value, D2::Error> {
        self.inner.visit_newtype_struct(Strict(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.for_struct {
            return Err(A::Error::invalid_type(Unexpected::Seq, &self));
        }
        self.inner.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(StrictMap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(StrictEnum(data))
    }
}

struct StrictSeq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictMap<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StrictSeed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictEnum<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for StrictEnum<A> {
    type Error = A::Error;
    type Variant = StrictVariant<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(StrictSeed(seed))
            .map(|(value, variant)| (value, StrictVariant(variant)))
    }
}

struct StrictVariant<A>(A);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for StrictVariant<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(StrictSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, StrictVisitor::any(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0
            .struct_variant(fields, StrictVisitor::structure(visitor))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::Strict;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Keys {
        p256dh: String,
        auth: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Subscription {
        endpoint: String,
        keys: Keys,
        #[serde(default)]
        tags: Vec<String>,
        note: Option<Keys>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Shape {
        Point { x: f64, y: f64 },
        Pair(u8, u8),
        Named(Keys),
    }

    fn strict<T: for<'de> Deserialize<'de>>(json: &str) -> Result<T, String> {
        let mut de = serde_json::Deserializer::from_str(json);
        T::deserialize(Strict(&mut de)).map_err(|e| e.to_string())
    }

    #[test]
    fn objects_are_read_as_before() {
        let sub: Subscription = strict(
            r#"{"endpoint": "e", "keys": {"p256dh": "p", "auth": "a"}, "tags": ["x", "y"],
                "note": {"p256dh": "q", "auth": "b"}}"#,
        )
        .unwrap();
        assert_eq!(sub.keys.auth, "a");
        assert_eq!(sub.tags, ["x", "y"]);
        assert_eq!(sub.note.unwrap().p256dh, "q");
        assert_eq!(
            strict::<Shape>(r#"{"Point": {"x": 1, "y": 2}}"#).unwrap(),
            Shape::Point { x: 1.0, y: 2.0 }
        );
        assert_eq!(
            strict::<Shape>(r#"{"Pair": [1, 2]}"#).unwrap(),
            Shape::Pair(1, 2)
        );
        assert_eq!(
            strict::<Vec<(u8, String)>>(r#"[[1, "a"]]"#).unwrap(),
            vec![(1, "a".to_owned())]
        );
    }

    #[test]
    fn arrays_in_place_of_objects_are_refused_at_every_depth() {
        for (json, expected) in [
            (
                r#"["e", ["p", "a"], [], null]"#,
                "invalid type: sequence, expected struct Subscription",
            ),
            (
                r#"{"endpoint": "e", "keys": ["p", "a"], "note": null}"#,
                "expected struct Keys",
            ),
            (
                r#"{"endpoint": "e", "keys": {"p256dh": "p", "auth": "a"}, "note": ["p", "a"]}"#,
                "expected struct Keys",
            ),
            (
                r#"{"Point": [1, 2]}"#,
                "invalid type: sequence, expected struct variant Shape::Point",
            ),
            (r#"{"Named": ["p", "a"]}"#, "expected struct Keys"),
        ] {
            let err = match expected.contains("Shape") || json.starts_with(r#"{"Named"#) {
                true => strict::<Shape>(json).unwrap_err(),
                false => strict::<Subscription>(json).unwrap_err(),
            };
            assert!(err.contains(expected), "{json}: {err}");
        }
        // Without the adapter serde_json takes them, which is what this module is for.
        let lax: Result<Subscription, _> = serde_json::from_str(r#"["e", ["p", "a"], [], null]"#);
        assert!(lax.is_ok());
    }
}
