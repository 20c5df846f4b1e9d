//! A quick pass over a GeoJSON file's bytes, before it is parsed, for what the streaming parse
//! needs up front: how many features the top-level `features` array holds (the progress bar's
//! total) and the top-level `crs` member, which may come after the features (JSON members have
//! no order) while every feature must be reprojected as it is read.
//!
//! It tracks only strings and nesting, so it runs at the speed of reading the file. On valid
//! JSON its answers are exact; on invalid JSON they may be wrong, which does not matter: the
//! parse that follows refuses the file.

use std::io::Read;

/// What the pass found at the top level of the document.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct TopLevel {
    /// The number of elements of the top-level `features` array, when it is an array.
    pub(crate) features: Option<u64>,
    /// The bytes of the top-level `crs` member's value.
    pub(crate) crs: Option<Vec<u8>>,
}

/// The longest top-level key the pass tells apart (`features`); longer keys are skipped.
const MAX_KEY: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    Other,
    Crs,
    Features,
}

#[derive(Default)]
struct Scanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1: the next string is a key.
    expect_key: bool,
    /// The key being read at depth 1, when short enough to matter.
    key: Option<Vec<u8>>,
    /// The member whose value is being read at depth 1.
    member: Option<Member>,
    /// Inside the top-level `features` array (depth 2): an element was seen since the last comma.
    element_open: bool,
    features: u64,
    features_array: bool,
    crs: Option<Vec<u8>>,
    crs_bytes: Option<Vec<u8>>,
}

impl Scanner {
    fn byte(&mut self, b: u8) {
        if let Some(bytes) = &mut self.crs_bytes {
            bytes.push(b);
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
                // An escaped key is not one of ours (ours are plain ASCII).
                self.key = None;
            } else if b == b'"' {
                self.in_string = false;
                if let Some(key) = self.key.take() {
                    self.member = Some(match key.as_slice() {
                        b"crs" => Member::Crs,
                        b"features" => Member::Features,
                        _ => Member::Other,
                    });
                }
            } else if let Some(key) = &mut self.key {
                if key.len() < MAX_KEY {
                    key.push(b);
                } else {
                    self.key = None;
                }
            }
            return;
        }
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.expect_key = false;
                    self.member = None;
                    self.key = Some(Vec::new());
                } else {
                    self.value_byte();
                }
            }
            b':' if self.depth == 1 => {
                if self.member == Some(Member::Crs) {
                    self.crs_bytes = Some(Vec::new());
                }
            }
            b'{' | b'[' => {
                self.value_byte();
                if self.depth == 1 && b == b'[' && self.member == Some(Member::Features) {
                    self.features_array = true;
                    self.features = 0;
                    self.element_open = false;
                }
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = b == b'{';
                }
            }
            b'}' | b']' => {
                if self.depth == 2 && self.member == Some(Member::Features) && self.element_open {
                    self.features += 1;
                    self.element_open = false;
                }
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 1 {
                    self.end_crs_if_done(b);
                }
                if self.depth == 0 {
                    self.end_crs_if_done(b);
                }
            }
            b',' => {
                if self.depth == 2 && self.member == Some(Member::Features) && self.element_open {
                    self.features += 1;
                    self.element_open = false;
                }
                if self.depth == 1 {
                    self.end_crs(1);
                    self.expect_key = true;
                }
            }
            _ => self.value_byte(),
        }
    }

    /// A byte that starts or continues a value.
    fn value_byte(&mut self) {
        if self.depth == 2 && self.member == Some(Member::Features) {
            self.element_open = true;
        }
    }

    /// A closing bracket brought the depth back to 1 (or 0): a crs object or array ends here
    /// (its bracket included), or the top-level object ends (a scalar crs value before it).
    fn end_crs_if_done(&mut self, b: u8) {
        if self.member != Some(Member::Crs) {
            return;
        }
        if self.depth == 1 {
            // The crs value's own closing bracket: keep it.
            if let Some(bytes) = self.crs_bytes.take() {
                self.crs = Some(bytes);
            }
        } else if b == b'}' {
            self.end_crs(1);
        }
    }

    /// The value of `crs` ended just before this byte (a comma or the closing brace), which is
    /// dropped from the value's bytes.
    fn end_crs(&mut self, drop_last: usize) {
        if let Some(mut bytes) = self.crs_bytes.take() {
            bytes.truncate(bytes.len().saturating_sub(drop_last));
            self.crs = Some(bytes);
        }
    }
}

/// Scans a document from `reader`; an I/O error is returned as is.
pub(crate) fn scan(mut reader: impl Read) -> std::io::Result<TopLevel> {
    let mut scanner = Scanner::default();
    let mut buffer = vec![0_u8; 256 * 1024];
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for &b in &buffer[..n] {
            scanner.byte(b);
        }
    }
    Ok(TopLevel {
        features: scanner.features_array.then_some(scanner.features),
        crs: scanner.crs,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn top(doc: &str) -> TopLevel {
        scan(doc.as_bytes()).unwrap()
    }

    fn crs(doc: &str) -> Option<serde_json::Value> {
        top(doc)
            .crs
            .map(|b| serde_json::from_slice(&b).unwrap_or_else(|e| panic!("{doc}: {e}")))
    }

    #[test]
    fn counts_the_features() {
        assert_eq!(
            top(r#"{"type":"FeatureCollection","features":[]}"#).features,
            Some(0)
        );
        assert_eq!(top(r#"{"features":[ ]}"#).features, Some(0));
        assert_eq!(
            top(r#"{"features":[{"a":[1,2]},{"b":"],}"}]}"#).features,
            Some(2)
        );
        assert_eq!(top(r#"{"features":[1, "x" ,null]}"#).features, Some(3));
        assert_eq!(
            top(r#"{"x":{"features":[1]},"features":{"a":1}}"#).features,
            None
        );
        assert_eq!(top(r#"{"feat\u0075res":[1]}"#).features, None);
        assert_eq!(top(r#"[{"features":[1]}]"#).features, None);
    }

    #[test]
    fn finds_the_crs_wherever_it_is() {
        let member = serde_json::json!({"type": "name", "properties": {"name": "EPSG:5514"}});
        for doc in [
            r#"{"crs":{"type":"name","properties":{"name":"EPSG:5514"}},"features":[]}"#,
            r#"{"features":[{"crs":1}],"crs":{"type":"name","properties":{"name":"EPSG:5514"}}}"#,
            r#"{"features":[], "crs" : {"type":"name","properties":{"name":"EPSG:5514"}} , "x":1}"#,
        ] {
            assert_eq!(crs(doc), Some(member.clone()), "{doc}");
        }
        assert_eq!(
            crs(r#"{"features":[],"crs":5}"#),
            Some(serde_json::json!(5))
        );
        assert_eq!(
            crs(r#"{"crs":"a,}b","features":[]}"#),
            Some(serde_json::json!("a,}b"))
        );
        assert_eq!(crs(r#"{"crs":null}"#), Some(serde_json::Value::Null));
        assert_eq!(crs(r#"{"features":[]}"#), None);
        assert_eq!(crs(r#"{"x":{"crs":1}}"#), None);
    }
}
