//! A package's `exports` and `imports` maps, read as Node.js reads them (its resolution
//! algorithm's `PACKAGE_EXPORTS_RESOLVE`, `PACKAGE_IMPORTS_EXPORTS_RESOLVE` and
//! `PACKAGE_TARGET_RESOLVE`): subpath keys, `*` patterns by specificity, conditions in the
//! order the file writes them, fallback arrays, and `null` for what is not exported. Pure:
//! it names a path inside the package, and the caller looks the path up.

use std::cmp::Ordering;

use rea_parse::PackageTarget;

/// Which of Node.js's two resolvers reads a specifier; they match different conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModuleSystem {
    /// `require(…)`.
    Require,
    /// `import …`, `export … from` and `import(…)`.
    Import,
}

impl ModuleSystem {
    /// The resolver of a reference of `kind` (a [`rea_parse::Reference`]'s).
    pub fn of_reference(kind: &str) -> ModuleSystem {
        match kind {
            "static-import" | "dynamic-import" => ModuleSystem::Import,
            _ => ModuleSystem::Require,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ModuleSystem::Require => "require",
            ModuleSystem::Import => "import",
        }
    }

    /// Whether a condition holds: Node.js's own (`node`, `node-addons`, `module-sync` since
    /// Node.js 20.19 and 22.12, and `require` or `import`) and `default`. Conditions a bundler
    /// or a runtime flag adds (`browser`, `development`, `electron`…) do not.
    fn matches(self, condition: &str) -> bool {
        match condition {
            "default" | "node" | "node-addons" | "module-sync" => true,
            "require" => self == ModuleSystem::Require,
            "import" => self == ModuleSystem::Import,
            _ => false,
        }
    }
}

/// What a map names for a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mapped {
    /// A path relative to the package's directory (`dist/index.js`).
    Path(String),
    /// A package specifier, which only `imports` may name.
    Package(String),
    /// Nothing: the key is not exported under these conditions (or is mapped to `null`).
    Unexported,
    /// A target or key Node.js rejects, and why.
    Invalid(&'static str),
}

/// `subpath` (`.` or `./sub`) of a package whose `exports` is `exports`.
pub fn exports(subpath: &str, exports: &PackageTarget, system: ModuleSystem) -> Mapped {
    let subpaths = match exports {
        PackageTarget::Map(entries) => {
            let dotted = entries.iter().filter(|(k, _)| k.starts_with('.')).count();
            if dotted == 0 {
                None
            } else if dotted == entries.len() {
                Some(entries)
            } else {
                return Mapped::Invalid("exports mixes subpaths and conditions");
            }
        }
        _ => None,
    };
    match subpaths {
        Some(entries) => lookup(subpath, entries, false, system),
        // A string, an array or conditions: what the package itself exports.
        None if subpath == "." => settle(target(exports, None, false, system)),
        None => Mapped::Unexported,
    }
}

/// `key` in a map of subpaths (`exports`) or of `#names` (`imports`): the exact key, else
/// the most specific `*` pattern that matches.
pub fn lookup(
    key: &str,
    entries: &[(String, PackageTarget)],
    imports: bool,
    system: ModuleSystem,
) -> Mapped {
    if !key.contains('*')
        && let Some((_, value)) = entries.iter().find(|(k, _)| k == key)
    {
        return settle(target(value, None, imports, system));
    }
    let mut best: Option<(&str, &PackageTarget)> = None;
    for (pattern, value) in entries {
        let Some((base, trailer)) = pattern.split_once('*') else {
            continue;
        };
        if trailer.contains('*') || !key.starts_with(base) || key == base {
            continue;
        }
        let fits = trailer.is_empty() || (key.ends_with(trailer) && key.len() >= pattern.len());
        if fits && best.is_none_or(|(b, _)| pattern_key_compare(pattern, b) == Ordering::Less) {
            best = Some((pattern, value));
        }
    }
    let Some((pattern, value)) = best else {
        return Mapped::Unexported;
    };
    let (base, trailer) = pattern.split_once('*').unwrap_or((pattern, ""));
    let matched = &key[base.len()..key.len() - trailer.len()];
    settle(target(value, Some(matched), imports, system))
}

/// Node.js's `PATTERN_KEY_COMPARE`: the longer prefix before `*` first, then the longer key.
fn pattern_key_compare(a: &str, b: &str) -> Ordering {
    let base = |k: &str| k.find('*').map_or(k.len(), |i| i + 1);
    base(b).cmp(&base(a)).then(b.len().cmp(&a.len()))
}

/// A target's outcome, with JavaScript's `undefined` (no condition matched) kept apart from
/// `null` (mapped to nothing), as fallback arrays need.
enum Outcome {
    Found(Mapped),
    Undefined,
    Null,
    Invalid(&'static str),
}

fn settle(outcome: Outcome) -> Mapped {
    match outcome {
        Outcome::Found(mapped) => mapped,
        Outcome::Undefined | Outcome::Null => Mapped::Unexported,
        Outcome::Invalid(why) => Mapped::Invalid(why),
    }
}

/// Node.js's `PACKAGE_TARGET_RESOLVE`, without the file system.
fn target(
    value: &PackageTarget,
    matched: Option<&str>,
    imports: bool,
    system: ModuleSystem,
) -> Outcome {
    match value {
        PackageTarget::Path(path) => string_target(path, matched, imports),
        PackageTarget::Map(conditions) => {
            if conditions
                .iter()
                .any(|(k, _)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
            {
                return Outcome::Invalid("a condition is a number");
            }
            for (condition, inner) in conditions {
                if !system.matches(condition) {
                    continue;
                }
                match target(inner, matched, imports, system) {
                    Outcome::Undefined => continue,
                    other => return other,
                }
            }
            Outcome::Undefined
        }
        PackageTarget::Alternatives(items) => {
            if items.is_empty() {
                return Outcome::Null;
            }
            let mut last = Outcome::Undefined;
            for item in items {
                match target(item, matched, imports, system) {
                    Outcome::Found(mapped) => return Outcome::Found(mapped),
                    Outcome::Undefined => {}
                    other => last = other,
                }
            }
            last
        }
        PackageTarget::Null => Outcome::Null,
        PackageTarget::Invalid => Outcome::Invalid("a target is neither a string nor a map"),
    }
}

fn string_target(path: &str, matched: Option<&str>, imports: bool) -> Outcome {
    let Some(inner) = path.strip_prefix("./") else {
        // Only `imports` may name another package; never a path outside the package.
        if !imports || path.starts_with("../") || path.starts_with('/') || is_url(path) {
            return Outcome::Invalid("a target does not start with ./");
        }
        let spec = match matched {
            Some(m) => path.replace('*', m),
            None => path.to_owned(),
        };
        return Outcome::Found(Mapped::Package(spec));
    };
    if inner.split(['/', '\\']).any(forbidden_segment) {
        return Outcome::Invalid("a target holds a ., .. or node_modules segment");
    }
    match matched {
        Some(m) if m.split(['/', '\\']).any(forbidden_segment) => {
            Outcome::Invalid("the subpath holds a ., .. or node_modules segment")
        }
        Some(m) => Outcome::Found(Mapped::Path(inner.replace('*', m))),
        None => Outcome::Found(Mapped::Path(inner.to_owned())),
    }
}

/// `.`, `..` or `node_modules`, also percent-encoded, in any case.
fn forbidden_segment(segment: &str) -> bool {
    let decoded = segment
        .to_ascii_lowercase()
        .replace("%2e", ".")
        .replace("%5f", "_");
    matches!(decoded.as_str(), "." | ".." | "node_modules")
}

/// `scheme:…`, which a target may not be.
fn is_url(path: &str) -> bool {
    path.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() >= 2
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> PackageTarget {
        PackageTarget::Path(p.to_owned())
    }

    fn map(entries: &[(&str, PackageTarget)]) -> PackageTarget {
        PackageTarget::Map(
            entries
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn conditions_are_taken_in_the_files_order() {
        let exports = map(&[
            ("types", path("./index.d.ts")),
            ("browser", path("./browser.js")),
            ("import", path("./index.mjs")),
            ("require", path("./index.cjs")),
            ("default", path("./fallback.js")),
        ]);
        let require = ModuleSystem::Require;
        let import = ModuleSystem::Import;
        assert_eq!(
            exports_of(".", &exports, require),
            Mapped::Path("index.cjs".into())
        );
        assert_eq!(
            exports_of(".", &exports, import),
            Mapped::Path("index.mjs".into())
        );
        // `default` first wins over everything after it.
        let first = map(&[("default", path("./d.js")), ("import", path("./i.js"))]);
        assert_eq!(exports_of(".", &first, import), Mapped::Path("d.js".into()));
        // A string exports the package itself, and nothing else.
        assert_eq!(
            exports_of(".", &path("./main.js"), require),
            Mapped::Path("main.js".into())
        );
        assert_eq!(
            exports_of("./main.js", &path("./main.js"), require),
            Mapped::Unexported
        );
    }

    fn exports_of(subpath: &str, value: &PackageTarget, system: ModuleSystem) -> Mapped {
        exports(subpath, value, system)
    }

    #[test]
    fn patterns_take_the_most_specific_key() {
        let exports = map(&[
            (".", path("./index.js")),
            ("./*", path("./dist/*.js")),
            ("./features/*.js", path("./src/features/*.js")),
            ("./features/private/*", PackageTarget::Null),
            ("./package.json", path("./package.json")),
        ]);
        let r = ModuleSystem::Require;
        let cases = [
            ("./a/b", Mapped::Path("dist/a/b.js".into())),
            ("./features/x.js", Mapped::Path("src/features/x.js".into())),
            // The trailer must fit: `./features/x` is the catch-all's.
            ("./features/x", Mapped::Path("dist/features/x.js".into())),
            ("./features/private/y", Mapped::Unexported),
            ("./package.json", Mapped::Path("package.json".into())),
            (".", Mapped::Path("index.js".into())),
            (
                "./a/../b",
                Mapped::Invalid("the subpath holds a ., .. or node_modules segment"),
            ),
        ];
        for (key, expected) in cases {
            assert_eq!(exports_of(key, &exports, r), expected, "{key}");
        }
    }

    #[test]
    fn fallbacks_skip_invalid_targets_and_null_ends_nothing() {
        let exports = map(&[
            (
                "./a",
                PackageTarget::Alternatives(vec![path("https://x.test/a.js"), path("./a.js")]),
            ),
            ("./b", PackageTarget::Alternatives(vec![])),
            ("./c", path("../outside.js")),
            ("./d", path("./node_modules/dep/index.js")),
            ("./e", map(&[("browser", path("./e.js"))])),
        ]);
        let r = ModuleSystem::Require;
        assert_eq!(exports_of("./a", &exports, r), Mapped::Path("a.js".into()));
        assert_eq!(exports_of("./b", &exports, r), Mapped::Unexported);
        assert!(matches!(exports_of("./c", &exports, r), Mapped::Invalid(_)));
        assert!(matches!(exports_of("./d", &exports, r), Mapped::Invalid(_)));
        assert_eq!(exports_of("./e", &exports, r), Mapped::Unexported);
        let mixed = map(&[(".", path("./a.js")), ("import", path("./b.js"))]);
        assert!(matches!(exports_of(".", &mixed, r), Mapped::Invalid(_)));
    }

    #[test]
    fn imports_may_name_packages() {
        let imports = [
            ("#dep".to_owned(), path("dep/sub")),
            ("#int/*".to_owned(), path("./src/internal/*.js")),
            (
                "#env".to_owned(),
                map(&[
                    ("node", path("./env-node.js")),
                    ("default", path("./env.js")),
                ]),
            ),
        ];
        let r = ModuleSystem::Require;
        assert_eq!(
            lookup("#dep", &imports, true, r),
            Mapped::Package("dep/sub".into())
        );
        assert_eq!(
            lookup("#int/a/b", &imports, true, r),
            Mapped::Path("src/internal/a/b.js".into())
        );
        assert_eq!(
            lookup("#env", &imports, true, r),
            Mapped::Path("env-node.js".into())
        );
        assert_eq!(lookup("#none", &imports, true, r), Mapped::Unexported);
        // `exports` may not name a package.
        assert!(matches!(
            lookup("#dep", &imports, false, r),
            Mapped::Invalid(_)
        ));
    }
}
