//! Endpoint redaction: credentials and fragments are dropped and query values replaced, so
//! secrets that ship in code never reach Evidence.

const PLACEHOLDER: &str = "[REDACTED]";
const FAKE_ORIGIN: &str = "https://rea.invalid";

/// `value` with credentials removed, the fragment removed and every query value replaced by
/// `[REDACTED]` (URL-encoded as `%5BREDACTED%5D`); query keys are kept. Relative values stay
/// relative. A value that does not parse is cut at its first `?` or `#`.
pub fn url(value: &str) -> String {
    let base = url::Url::parse(FAKE_ORIGIN).ok();
    let parsed = url::Url::options().base_url(base.as_ref()).parse(value);
    let Ok(mut parsed) = parsed else {
        return value.split(['?', '#']).next().unwrap_or("").to_owned();
    };
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    parsed.set_fragment(None);
    if parsed.query().is_some() {
        let keys: Vec<String> = parsed.query_pairs().map(|(k, _)| k.into_owned()).collect();
        parsed.set_query(None);
        if !keys.is_empty() {
            let mut pairs = parsed.query_pairs_mut();
            for key in &keys {
                pairs.append_pair(key, PLACEHOLDER);
            }
        }
    }
    let text = parsed.to_string();
    let relative = !value.contains("://") && !value.starts_with("//");
    match text.strip_prefix(FAKE_ORIGIN) {
        Some(rest) if relative => rest.to_owned(),
        _ => text,
    }
}

/// A value read out of a configuration or a command line as Evidence keeps it: a URL (a
/// value that starts with `scheme://`) redacted as [`url`] redacts one, and anything cut to
/// at most `max` bytes.
pub fn value(text: &str, max: usize) -> String {
    let is_url = text.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if is_url {
        crate::source::cut(&url(text), max).to_owned()
    } else {
        crate::source::cut(text, max).to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::url;

    #[test]
    fn secrets_are_redacted_and_keys_kept() {
        let out = url("https://user:pw@api.example.test/items?token=fixture-secret&x=1#frag");
        assert_eq!(
            out,
            "https://api.example.test/items?token=%5BREDACTED%5D&x=%5BREDACTED%5D"
        );
        assert!(!out.contains("fixture-secret") && !out.contains("pw") && !out.contains("frag"));
    }

    #[test]
    fn relative_values_stay_relative() {
        assert_eq!(
            url("/api/v1/items?q=secret"),
            "/api/v1/items?q=%5BREDACTED%5D"
        );
        assert_eq!(url("wss://h.test/socket"), "wss://h.test/socket");
    }
}
