//! Markdown safety rules (see issue 3).
