//! `http.public_url`'s check: the one value of the HTTP settings with a shape to check.

/// `http.public_url` is empty or an `http(s)` URL with a host and no query or fragment.
pub(super) fn check_public_url(url: &str) -> Result<(), String> {
    if url.is_empty() {
        return Ok(());
    }
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let host = rest.map(|r| r.split('/').next().unwrap_or_default());
    let bad_char = |c: char| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '@');
    match host {
        Some(host) if !host.is_empty() && !url.contains(bad_char) => Ok(()),
        _ => Err(format!(
            "http.public_url must be empty or an http(s) URL with a host and no query, \
             fragment or user, e.g. https://streets.example.city/api/v1; got {url:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code

    use super::check_public_url;

    #[test]
    fn public_url_must_be_an_http_url_with_a_host() {
        for good in [
            "",
            "http://localhost:8082/api/v1",
            "https://a.example",
            "https://a.example/x/",
        ] {
            assert_eq!(check_public_url(good), Ok(()), "{good:?}");
        }
        for bad in [
            "streets.example.city/api/v1",
            "ftp://a.example",
            "https://",
            "https:///api/v1",
            "https://a.example/api?x=1",
            "https://a.example/#top",
            "https://user@a.example",
            "https://a.example/ api",
        ] {
            let err = check_public_url(bad).unwrap_err();
            assert!(err.contains("http.public_url"), "{bad:?}: {err}");
        }
    }
}
