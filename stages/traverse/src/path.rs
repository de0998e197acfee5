//! Logical paths: relative, `/`-separated, UTF-8, no empty, `.` or `..` components.

/// Joins a parent logical path (`""` for the root) and a child path (`""` for the parent itself).
pub fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else if name.is_empty() {
        parent.to_owned()
    } else {
        let mut joined = String::with_capacity(parent.len() + 1 + name.len());
        joined.push_str(parent);
        joined.push('/');
        joined.push_str(name);
        joined
    }
}

/// True when `name` ends with `suffix` (an ASCII extension such as `.zip`), in any case. It
/// never allocates: every entry of a walk is checked against every archive extension.
pub fn has_suffix(name: &str, suffix: &str) -> bool {
    let (name, suffix) = (name.as_bytes(), suffix.as_bytes());
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Why one name cannot be a path component.
pub fn component_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("empty name");
    }
    if name == "." || name == ".." {
        return Some("dot name");
    }
    if name.contains('/') || name.contains('\\') {
        return Some("name contains a path separator");
    }
    if name.contains('\0') {
        return Some("name contains NUL");
    }
    None
}

/// Number of components in a logical path.
pub fn depth(path: &str) -> usize {
    if path.is_empty() {
        0
    } else {
        path.split('/').count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_match_in_any_case_without_splitting_characters() {
        assert!(has_suffix("Demo.App/x.ASAR", ".asar"));
        assert!(has_suffix(".zip", ".zip"));
        assert!(!has_suffix("zip", ".zip"));
        assert!(!has_suffix("résumé", ".zip"));
        assert!(has_suffix("naïve.7Z", ".7z"));
    }

    #[test]
    fn join_and_depth() {
        assert_eq!(join("", "a"), "a");
        assert_eq!(join("a/b", "c.js"), "a/b/c.js");
        assert_eq!(join("resources/app.asar", ""), "resources/app.asar");
        assert_eq!(depth(""), 0);
        assert_eq!(depth("a/b/c.js"), 3);
    }

    #[test]
    fn unsafe_components_are_named() {
        for bad in ["", ".", "..", "a/b", "a\\b", "a\0"] {
            assert!(component_problem(bad).is_some(), "{bad:?}");
        }
        assert_eq!(component_problem("ipaddr.js"), None);
    }
}
