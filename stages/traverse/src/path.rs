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
