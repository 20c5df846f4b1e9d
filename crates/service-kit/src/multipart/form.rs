//! A whole form in memory, for small forms and tests.

use std::collections::BTreeMap;

use actix_web::web::Bytes;

use super::{MultipartReader, Part};
use crate::error::ApiError;

/// A whole form in memory, from [`MultipartReader::collect`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    /// Text fields by name.
    pub texts: BTreeMap<&'static str, String>,
    /// Files in the order they came.
    pub files: Vec<FormFile>,
}

impl Form {
    /// The value of the text field `name`, if it was sent.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.get(name).map(String::as_str)
    }
}

/// A file of a [`Form`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormFile {
    /// See [`FilePart::field`].
    pub field: &'static str,
    /// See [`FilePart::filename`].
    pub filename: Option<String>,
    /// See [`FilePart::content_type`].
    pub content_type: Option<String>,
    /// The file's contents.
    pub bytes: Bytes,
}

impl MultipartReader {
    /// Reads the whole form into memory (bounded by the limits).
    pub async fn collect(mut self) -> Result<Form, ApiError> {
        let mut form = Form::default();
        while let Some(part) = self.next().await? {
            match part {
                Part::Text { name, value } => {
                    form.texts.insert(name, value);
                }
                Part::File(mut file) => {
                    let bytes = file.bytes().await?;
                    form.files.push(FormFile {
                        field: file.field,
                        filename: file.filename.take(),
                        content_type: file.content_type.take(),
                        bytes,
                    });
                }
            }
        }
        Ok(form)
    }
}
