//! Artifact path resolution: how a specifier, a filesystem expression or an HTML reference
//! names a file of the same container. Never touches the disk: it answers from the inventory.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use rea_parse::PackageTarget;

mod package_map;

use package_map::Mapped;
pub use package_map::ModuleSystem;

/// Where a path came from, which decides how it resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    PackageEntrypoint,
    FilesystemExpression,
    ModuleSpecifier,
    HtmlReference,
    /// A path below Electron's resources directory (`process.resourcesPath`).
    ResourcesPath,
}

impl Context {
    pub fn as_str(self) -> &'static str {
        match self {
            Context::PackageEntrypoint => "package-entrypoint",
            Context::FilesystemExpression => "filesystem-expression",
            Context::ModuleSpecifier => "module-specifier",
            Context::HtmlReference => "html-reference",
            Context::ResourcesPath => "resources-path",
        }
    }

    pub fn parse(text: &str) -> Context {
        match text {
            "package-entrypoint" => Context::PackageEntrypoint,
            "filesystem-expression" => Context::FilesystemExpression,
            "html-reference" => Context::HtmlReference,
            "resources-path" => Context::ResourcesPath,
            _ => Context::ModuleSpecifier,
        }
    }
}

/// The outcome of resolving one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// `resolved`, `not-found`, `unavailable`, `external` or `rejected`.
    pub status: &'static str,
    pub path: Option<String>,
    pub limitation: Option<String>,
}

impl Resolution {
    fn status(status: &'static str, limitation: &str) -> Resolution {
        Resolution {
            status,
            path: None,
            limitation: Some(limitation.to_owned()),
        }
    }
}

const EXTENSIONS: &[&str] = &[
    ".js", ".cjs", ".mjs", ".ts", ".tsx", ".json", ".html", ".node",
];

const BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "electron",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// What resolution reads of one `package.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageScope {
    pub name: Option<String>,
    pub main: Option<String>,
    /// `exports`, in the file's order.
    pub exports: Option<PackageTarget>,
    /// `imports`, in the file's order.
    pub imports: Option<PackageTarget>,
}

impl PackageScope {
    /// A package with a `main` and nothing else.
    pub fn with_main(main: &str) -> PackageScope {
        PackageScope {
            main: Some(main.to_owned()),
            ..PackageScope::default()
        }
    }
}

/// How deep resolution follows a package's `main`, or an `imports` target naming another
/// package.
const MAX_PACKAGE_DEPTH: usize = 4;

/// What a package lookup carries along: the container it stays in, the resolver whose
/// conditions it matches, and how many `imports` targets led to it.
#[derive(Clone, Copy)]
struct Ask<'a> {
    container: &'a str,
    system: ModuleSystem,
    depth: usize,
}

/// The files of an inventory, by container. Resolution looks paths up by the hundred
/// thousand, so lookups go through hash maps; the sorted map serves range queries.
pub struct Files {
    /// Every file path, and whether its bytes are available, in path order.
    files: BTreeMap<String, bool>,
    /// The same, for lookups.
    available: FxHashMap<String, bool>,
    /// Container paths (nested archives), longest first.
    containers: Vec<String>,
    /// Each `package.json`, by the package's directory.
    packages: FxHashMap<String, PackageScope>,
    /// Directories that hold at least one file.
    dirs: FxHashSet<String>,
    /// The page each script a page loads with `<script src>` runs in, by the script's path
    /// (the first such page in path order; see [`Files::set_page_scripts`]).
    page_scripts: FxHashMap<String, String>,
    /// The scripts each page loads, resolved, by the page's path, in path order.
    scripts_of_page: FxHashMap<String, Vec<String>>,
}

impl Files {
    pub fn new(
        files: BTreeMap<String, bool>,
        mut containers: Vec<String>,
        packages: BTreeMap<String, PackageScope>,
    ) -> Files {
        containers.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        let mut dirs = FxHashSet::default();
        for path in files.keys() {
            let mut cur = path.as_str();
            while let Some((dir, _)) = cur.rsplit_once('/') {
                if !dirs.insert(dir.to_owned()) {
                    break;
                }
                cur = dir;
            }
        }
        let available = files.iter().map(|(p, a)| (p.clone(), *a)).collect();
        Files {
            files,
            available,
            containers,
            packages: packages.into_iter().collect(),
            dirs,
            page_scripts: FxHashMap::default(),
            scripts_of_page: FxHashMap::default(),
        }
    }

    /// Records the pages that load scripts (page path, the script's `src` as written, with the
    /// page's `<base href>` applied), which changes where the scripts' own requires resolve
    /// from ([`Files::resolve_reference`]).
    pub fn set_page_scripts<'s>(&mut self, pages: impl IntoIterator<Item = (&'s str, String)>) {
        let mut found: Vec<(String, String)> = pages
            .into_iter()
            .filter_map(|(page, src)| {
                let r = self.resolve(page, &src, Context::HtmlReference);
                Some((r.path.filter(|_| r.status == "resolved")?, page.to_owned()))
            })
            .collect();
        found.sort();
        found.dedup();
        for (script, page) in found {
            self.scripts_of_page
                .entry(page.clone())
                .or_default()
                .push(script.clone());
            self.page_scripts.entry(script).or_insert(page);
        }
    }

    /// The scripts `page` loads (its `<script src>` and HTML imports), resolved, in path order.
    pub fn scripts_of_page(&self, page: &str) -> &[String] {
        self.scripts_of_page.get(page).map_or(&[], Vec::as_slice)
    }

    /// Each script a page loads with `<script src>`, with that page (the first in path order).
    pub fn page_scripts(&self) -> impl Iterator<Item = (&str, &str)> {
        self.page_scripts
            .iter()
            .map(|(script, page)| (script.as_str(), page.as_str()))
    }

    /// Resolves a reference of `kind` (a [`rea_parse::Reference`]'s) written in `from`. A
    /// script a page loads with `<script src>` runs in that page's context: Electron gives it
    /// the page's `__dirname`, and its `require` and its workers' URLs start from the page's
    /// directory, not the script's own (electron/electron#421, #1162). So a relative
    /// `require` or worker URL there resolves from the page's directory first, and from the
    /// script's own when that finds nothing (a script beside its page, or one a bundler
    /// resolved already); `import`s resolve from the script as always.
    pub fn resolve_reference(&self, from: &str, spec: &str, kind: &str) -> Resolution {
        let system = ModuleSystem::of_reference(kind);
        let own = || self.resolve_in(from, spec, Context::ModuleSpecifier, system);
        let page_relative = matches!(
            kind,
            "require" | "worker" | "shared-worker" | "service-worker"
        ) && spec.starts_with('.');
        let Some(page) = self.page_scripts.get(from).filter(|_| page_relative) else {
            return own();
        };
        self.resolve_from_page(
            page,
            from,
            spec,
            (Context::ModuleSpecifier, system),
            "the page whose <script> loads this file: a page's scripts share its module context",
        )
    }

    /// Resolves `spec`, written in `from`, from the directory of `page` (`why` says which page
    /// that is, in the resolution's note), or from `from`'s own when that finds nothing.
    pub fn resolve_from_page(
        &self,
        page: &str,
        from: &str,
        spec: &str,
        (context, system): (Context, ModuleSystem),
        why: &str,
    ) -> Resolution {
        let found = self.resolve_in(page, spec, context, system);
        if found.status != "resolved" {
            return self.resolve_in(from, spec, context, system);
        }
        Resolution {
            limitation: Some(format!("resolved from the directory of {page}, {why}")),
            ..found
        }
    }

    /// The container holding `path`: the longest container path that prefixes it, or `""`.
    pub fn container_of(&self, path: &str) -> &str {
        self.containers
            .iter()
            .find(|c| {
                path.len() > c.len()
                    && path.starts_with(c.as_str())
                    && path.as_bytes()[c.len()] == b'/'
            })
            .map_or("", String::as_str)
    }

    pub fn contains(&self, path: &str) -> bool {
        self.available.contains_key(path)
    }

    /// `.node` files under `dir` (recursively), in path order.
    pub fn native_under(&self, dir: &str) -> Vec<&str> {
        self.under(dir, &[".node"])
    }

    /// JavaScript files (`.js`, `.cjs`, `.mjs`) under `dir` (recursively), in path order.
    pub fn scripts_under(&self, dir: &str) -> Vec<&str> {
        self.under(dir, &[".js", ".cjs", ".mjs"])
    }

    /// Files under `dir` (recursively) whose names end with one of `extensions` (ASCII case
    /// ignored), in path order.
    fn under(&self, dir: &str, extensions: &[&str]) -> Vec<&str> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.files
            .range(prefix.clone()..)
            .take_while(|(p, _)| p.starts_with(&prefix))
            .map(|(p, _)| p.as_str())
            .filter(|p| {
                let lower = p.to_ascii_lowercase();
                extensions.iter().any(|e| lower.ends_with(e))
            })
            .collect()
    }

    /// Resolves `spec`, written in the file `from`, in `context`; a package's `exports` and
    /// `imports` are read as `require` reads them.
    pub fn resolve(&self, from: &str, spec: &str, context: Context) -> Resolution {
        self.resolve_in(from, spec, context, ModuleSystem::Require)
    }

    /// The file a module specifier whose syntax is not known names (a module a bridge, a
    /// wrapper, a helper call or a channel reads): as `require` resolves it, or else as
    /// `import` does; `None` unless one resolves.
    pub fn resolved_module(&self, from: &str, spec: &str) -> Option<String> {
        ["require", "static-import"]
            .into_iter()
            .map(|kind| self.resolve_reference(from, spec, kind))
            .find(|r| r.status == "resolved")
            .and_then(|r| r.path)
    }

    /// Resolves `spec`, written in the file `from`, in `context`, a package's `exports` and
    /// `imports` read with the conditions of `system`.
    pub fn resolve_in(
        &self,
        from: &str,
        spec: &str,
        context: Context,
        system: ModuleSystem,
    ) -> Resolution {
        if spec.is_empty() || spec.len() > 4096 || spec.contains(['\0', '\\']) {
            return Resolution::status(
                "rejected",
                "the path is empty, too long, or holds NUL or a backslash",
            );
        }
        // A page served or built from a template: `{{BASE_URL}}/app.js`, `<%= base %>app.js`,
        // `${base}/app.js`, `%PUBLIC_URL%/app.js`, filled in later.
        if context == Context::HtmlReference
            && (["{{", "<%", "${"].iter().any(|open| spec.contains(open))
                || spec.strip_prefix('%').is_some_and(|rest| {
                    rest.split_once('%').is_some_and(|(name, _)| {
                        !name.is_empty()
                            && name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
                    })
                }))
        {
            return Resolution::status(
                "unresolved",
                "the path holds a template placeholder, filled in where it is served or built",
            );
        }
        let lower = spec.to_ascii_lowercase();
        if ["%2e", "%2f", "%5c"].iter().any(|e| lower.contains(e)) {
            return Resolution::status("rejected", "the path holds an encoded dot or separator");
        }
        let mut spec = spec;
        // A leading `#` is a package's own import (`#internal`), not a fragment.
        let package_import = context == Context::ModuleSpecifier && spec.starts_with('#');
        if matches!(context, Context::ModuleSpecifier | Context::HtmlReference) && !package_import {
            spec = spec.split(['?', '#']).next().unwrap_or("");
        }
        let spec = match spec.strip_prefix("file://") {
            Some(rest) => rest,
            None => spec,
        };
        if has_scheme(spec) {
            return Resolution::status(
                "external",
                "the reference names a URL scheme outside the artifact",
            );
        }
        if context == Context::ResourcesPath {
            return self.resolve_resources(from, spec);
        }
        let container = self.container_of(from);
        let from_dir = from.rsplit_once('/').map_or("", |(d, _)| d);
        let bare = !(spec.starts_with('.') || spec.starts_with('/'));
        if bare && context == Context::ModuleSpecifier {
            let ask = Ask {
                container,
                system,
                depth: 0,
            };
            return self.resolve_package(ask, from_dir, spec);
        }
        let joined = if let Some(rooted) = spec.strip_prefix('/') {
            if container.is_empty() {
                rooted.to_owned()
            } else {
                format!("{container}/{rooted}")
            }
        } else if from_dir.is_empty() {
            spec.to_owned()
        } else {
            format!("{from_dir}/{spec}")
        };
        let Some(normal) = normalize(&joined) else {
            return Resolution::status("rejected", "the path escapes the artifact root");
        };
        if !container.is_empty() && !normal.starts_with(&format!("{container}/")) {
            return Resolution::status("rejected", "the path leaves its container");
        }
        let found = self.candidates(&normal, 0);
        match spec.strip_prefix('/') {
            Some(rooted) if context == Context::HtmlReference && found.status == "not-found" => {
                self.served_from_page(container, from_dir, rooted)
                    .unwrap_or(found)
            }
            _ => found,
        }
    }

    /// A path below Electron's resources directory, which holds the application's archive
    /// (`resources/app.asar`) beside its unpacked companion and a build's extra resources: the
    /// directory of the container `from` sits in. A path into the archive itself
    /// (`app.asar/x`, `app.asar.unpacked/x`) is taken inside the container, where the
    /// inventory lists unpacked files too. When the container is the input itself, the
    /// directory lies outside what was read, and only such a path into the archive resolves.
    fn resolve_resources(&self, from: &str, spec: &str) -> Resolution {
        let container = self.container_of(from);
        let (parent, archive) = match container.rsplit_once('/') {
            Some((parent, name)) => (parent, name),
            None => ("", container),
        };
        let first = spec.split('/').next().unwrap_or("");
        let rest = spec[first.len()..].trim_start_matches('/');
        let into_archive = if archive.is_empty() {
            first.ends_with(".asar") || first.ends_with(".asar.unpacked")
        } else {
            first == archive || first.strip_suffix(".unpacked") == Some(archive)
        };
        let joined = if into_archive {
            if container.is_empty() {
                rest.to_owned()
            } else {
                format!("{container}/{rest}")
            }
        } else if container.is_empty() {
            return Resolution::status(
                "unavailable",
                "the path is below Electron's resources directory (process.resourcesPath), which lies outside the input: the application's whole distribution holds it",
            );
        } else if parent.is_empty() {
            spec.to_owned()
        } else {
            format!("{parent}/{spec}")
        };
        match normalize(&joined) {
            Some(normal) if !normal.is_empty() => self.candidates(&normal, 0),
            _ => Resolution::status("rejected", "the path escapes the artifact root"),
        }
    }

    /// A rooted path a page names (`<script src="/_next/static/chunks/x.js">`) that is not at
    /// the root of its container: a site exported into a folder of the application (Next.js's
    /// `out/`, served by `electron-serve` or a protocol handler) has its served root at the
    /// page's folder or one above it. The nearest such folder holding the path is taken, and
    /// the resolution says so.
    fn served_from_page(
        &self,
        container: &str,
        page_dir: &str,
        rooted: &str,
    ) -> Option<Resolution> {
        let mut dir = page_dir;
        while dir.len() > container.len() {
            let found = normalize(&format!("{dir}/{rooted}"))
                .filter(|normal| normal.starts_with(&format!("{dir}/")))
                .map(|normal| self.candidates(&normal, 0))
                .filter(|found| found.status == "resolved");
            if let Some(found) = found {
                return Some(Resolution {
                    limitation: Some(format!(
                        "a rooted path not at the root of its container: taken from {dir} as the page's served root"
                    )),
                    ..found
                });
            }
            dir = dir.rsplit_once('/').map_or("", |(parent, _)| parent);
        }
        None
    }

    /// A URL of a scheme the application serves itself (`protocol.handle("app", …)`): its
    /// handler is code that was not run, so the URL's path (`index.html` for a directory) is
    /// taken, as the common handlers map it, beside the file that loads it, then at the root
    /// of its container; a host other than `.`, `-`, `localhost` or none is tried first as a
    /// first directory (a file at that path is the better evidence). A file found this way
    /// says how it was found.
    pub fn resolve_served(
        &self,
        from: &str,
        url: &str,
        roots: &std::collections::BTreeSet<(String, String)>,
    ) -> Resolution {
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        let path = if path.is_empty() || path.ends_with('/') {
            format!("{path}index.html")
        } else {
            path.to_owned()
        };
        let named_host = !matches!(host, "" | "." | "-" | "localhost");
        // Under each directory the scheme's handlers build their paths on, from the file
        // that names it: the URL's path, then the host as a directory above it.
        for (handler, root) in roots {
            let mut under = vec![join_root(root, &path)];
            if named_host {
                under.push(join_root(root, &format!("{host}/{path}")));
            }
            for spec in under {
                let found = self.resolve(handler, &spec, Context::FilesystemExpression);
                if found.status == "resolved" {
                    return Resolution {
                        limitation: Some(format!(
                            "served by the application's own protocol handler, which was not run: the URL's path was taken as {spec} from {handler}, under a directory the handler builds its paths on"
                        )),
                        ..found
                    };
                }
            }
        }
        let mut tries = Vec::with_capacity(4);
        if named_host {
            tries.push(format!("./{host}/{path}"));
        }
        tries.push(format!("./{path}"));
        if named_host {
            tries.push(format!("/{host}/{path}"));
        }
        tries.push(format!("/{path}"));
        for spec in &tries {
            let found = self.resolve(from, spec, Context::FilesystemExpression);
            if found.status == "resolved" {
                return Resolution {
                    limitation: Some(format!(
                        "served by the application's own protocol handler, which was not run: the URL's path was taken as {spec} from {from}"
                    )),
                    ..found
                };
            }
        }
        Resolution::status(
            "not-found",
            "a URL of a scheme the application serves itself; no file of the application is at its path",
        )
    }

    /// A URL `electron-serve` serves (`app://-/about.html`), looked up as the package does:
    /// the URL's path under the served directory (resolved against the application's root,
    /// the container's), a directory by its `<file>.html`; a path that names nothing, with no
    /// extension or ending in `.html` or `.asar`, falls back on the served directory's
    /// `<file>.html` (a single-page application's routes). The URL's path stays under the
    /// directory (the URL parser drops `..` above its root). Only exact paths count: the
    /// package adds no extensions.
    pub fn resolve_electron_serve(
        &self,
        from: &str,
        (directory, file): (&str, &str),
        url: &str,
    ) -> Resolution {
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        // A URL's path never climbs above its root: the URL parser drops such `..`.
        let mut parts: Vec<&str> = Vec::new();
        for part in rest.split_once('/').map_or("", |(_, path)| path).split('/') {
            match part {
                "" | "." | "%2e" | "%2E" => {}
                ".." | ".%2e" | ".%2E" | "%2e." | "%2E." | "%2e%2e" | "%2E%2E" => {
                    parts.pop();
                }
                other => parts.push(other),
            }
        }
        let path = parts.join("/");
        let path = path.as_str();
        let container = self.container_of(from);
        let base = match normalize(&format!("{container}/{directory}")) {
            Some(base)
                if container.is_empty()
                    || base == container
                    || base.starts_with(&format!("{container}/")) =>
            {
                base
            }
            _ => {
                return Resolution::status(
                    "rejected",
                    "the directory electron-serve serves leaves its container",
                );
            }
        };
        let join = |dir: &str, name: &str| {
            if dir.is_empty() {
                name.to_owned()
            } else if name.is_empty() {
                dir.to_owned()
            } else {
                format!("{dir}/{name}")
            }
        };
        let index = join(&base, &format!("{file}.html"));
        let limitation = |how: &str| {
            format!(
                "served by electron-serve from {directory}, whose lookup was followed without running it: {how}"
            )
        };
        let Some(target) = normalize(&join(&base, path))
            .filter(|t| base.is_empty() || t == &base || t.starts_with(&format!("{base}/")))
        else {
            return Resolution::status(
                "rejected",
                "the URL's path leaves the directory electron-serve serves",
            );
        };
        let found = |path: &str, how: &str| {
            self.available.get(path).map(|available| Resolution {
                limitation: Some(limitation(how)),
                ..self.found(path, *available)
            })
        };
        if let Some(found) = found(&target, "the file at the URL's path") {
            return found;
        }
        if self.dirs.contains(&target) || target == base {
            let page = join(&target, &format!("{file}.html"));
            return found(&page, "the directory's page").unwrap_or_else(|| {
                Resolution::status("not-found", "electron-serve serves a directory by its page, which the application does not have")
            });
        }
        // Node's `path.extname`: a leading dot is no extension.
        let extension = path
            .rsplit('/')
            .next()
            .and_then(|name| name.rsplit_once('.'))
            .filter(|(stem, _)| !stem.is_empty())
            .map(|(_, ext)| ext);
        if matches!(extension, None | Some("html" | "asar"))
            && let Some(found) = found(
                &index,
                "no file is at the URL's path, so the served directory's page",
            )
        {
            return found;
        }
        Resolution::status(
            "not-found",
            "a URL electron-serve serves; no file of the application is at its path",
        )
    }

    /// A bare specifier, as Node.js resolves it: a built-in; a package's own `#import`; the
    /// package the file belongs to, by its name; or the first `node_modules/<name>` upward
    /// from the file, within its container. A package with `exports` answers from that map
    /// alone (a subpath it does not export is not found, even when the file is there);
    /// another answers as files do, its `main` for the package itself.
    fn resolve_package(&self, ask: Ask<'_>, from_dir: &str, spec: &str) -> Resolution {
        let plain = spec.strip_prefix("node:").unwrap_or(spec);
        let first = plain.split('/').next().unwrap_or(plain);
        if spec.starts_with("node:") || BUILTINS.contains(&first) {
            return Resolution::status("external", "a Node.js or Electron module");
        }
        if spec.starts_with('#') {
            return self.resolve_package_import(ask, from_dir, spec);
        }
        let container = ask.container;
        let (name, subpath) = package_name(spec);
        if let Some(name) = name
            && let Some((dir, scope)) = self.scope_of(container, from_dir)
            && scope.name.as_deref() == Some(name)
            && let Some(exports) = &scope.exports
        {
            let mapped = package_map::exports(&subpath, exports, ask.system);
            return self.mapped(ask, dir, &subpath, mapped);
        }
        // Search node_modules upward from the source directory, within the container.
        let mut dir = from_dir.to_owned();
        loop {
            let modules = if dir.is_empty() {
                "node_modules".to_owned()
            } else {
                format!("{dir}/node_modules")
            };
            if let Some(name) = name
                && let Some(package_dir) = normalize(&format!("{modules}/{name}"))
                && let Some(scope) = self.packages.get(&package_dir)
                && let Some(exports) = &scope.exports
            {
                let mapped = package_map::exports(&subpath, exports, ask.system);
                return self.mapped(ask, &package_dir, &subpath, mapped);
            }
            if let Some(normal) = normalize(&format!("{modules}/{spec}")) {
                let resolved = self.candidates(&normal, 0);
                if resolved.status == "resolved" {
                    return resolved;
                }
            }
            if dir == container || dir.is_empty() {
                break;
            }
            dir = dir
                .rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_owned());
            if !container.is_empty() && !dir.starts_with(container) {
                break;
            }
        }
        Resolution::status("external", "the package is not shipped in this container")
    }

    /// `#name`, through the `imports` of the package the file belongs to.
    fn resolve_package_import(&self, ask: Ask<'_>, from_dir: &str, spec: &str) -> Resolution {
        if spec == "#" || spec.starts_with("#/") {
            return Resolution::status("rejected", "`#` and `#/` are not package imports");
        }
        let Some((dir, scope)) = self.scope_of(ask.container, from_dir) else {
            return Resolution::status(
                "not-found",
                "a package import, but no package.json above the file",
            );
        };
        let Some(PackageTarget::Map(imports)) = &scope.imports else {
            return Resolution::status(
                "not-found",
                "a package import, but the file's package.json declares no imports",
            );
        };
        let mapped = package_map::lookup(spec, imports, true, ask.system);
        self.mapped(ask, dir, spec, mapped)
    }

    /// The package a file of `from_dir` belongs to: the nearest directory upward, within the
    /// container and below any `node_modules`, with a `package.json`.
    fn scope_of<'a>(
        &'a self,
        container: &str,
        from_dir: &str,
    ) -> Option<(&'a str, &'a PackageScope)> {
        let mut dir = from_dir;
        loop {
            if dir.rsplit('/').next() == Some("node_modules") {
                return None;
            }
            if let Some((key, scope)) = self.packages.get_key_value(dir) {
                return Some((key.as_str(), scope));
            }
            if dir == container || dir.is_empty() {
                return None;
            }
            dir = dir.rsplit_once('/').map_or("", |(d, _)| d);
        }
    }

    /// What an `exports` or `imports` lookup of `key` in the package at `package_dir` names,
    /// as a resolution.
    fn mapped(&self, ask: Ask<'_>, package_dir: &str, key: &str, mapped: Mapped) -> Resolution {
        match mapped {
            Mapped::Path(target) => {
                let joined = if package_dir.is_empty() {
                    target.clone()
                } else {
                    format!("{package_dir}/{target}")
                };
                match normalize(&joined) {
                    Some(path)
                        if package_dir.is_empty()
                            || path.starts_with(&format!("{package_dir}/")) =>
                    {
                        match self.available.get(&path) {
                            Some(available) => self.found(&path, *available),
                            None => Resolution::status(
                                "not-found",
                                &format!(
                                    "the package maps {key} to {target}, which is not in the artifact"
                                ),
                            ),
                        }
                    }
                    _ => Resolution::status(
                        "rejected",
                        &format!("the package maps {key} to {target}, outside the package"),
                    ),
                }
            }
            Mapped::Package(spec) if ask.depth < MAX_PACKAGE_DEPTH => {
                let ask = Ask {
                    depth: ask.depth + 1,
                    ..ask
                };
                self.resolve_package(ask, package_dir, &spec)
            }
            Mapped::Package(_) => Resolution::status(
                "unavailable",
                "package imports lead through more than 4 packages",
            ),
            Mapped::Unexported => Resolution::status(
                "not-found",
                &format!(
                    "the package does not export {key} to {} under Node.js's conditions",
                    ask.system.as_str()
                ),
            ),
            Mapped::Invalid(why) => Resolution::status(
                "rejected",
                &format!("the package's map is invalid for {key}: {why}"),
            ),
        }
    }

    fn candidates(&self, path: &str, depth: usize) -> Resolution {
        if let Some(available) = self.available.get(path) {
            return self.found(path, *available);
        }
        // One buffer for every candidate name: `path`, then each extension in turn.
        let mut with = String::with_capacity(path.len() + 12);
        with.push_str(path);
        for ext in EXTENSIONS {
            with.truncate(path.len());
            with.push_str(ext);
            if let Some(available) = self.available.get(&with) {
                return self.found(&with, *available);
            }
        }
        if self.dirs.contains(path) {
            if let Some(main) = self.packages.get(path).and_then(|p| p.main.as_ref()) {
                if depth >= MAX_PACKAGE_DEPTH {
                    return Resolution::status(
                        "unavailable",
                        "package main resolution is deeper than 4 levels",
                    );
                }
                if let Some(target) = normalize(&format!("{path}/{main}"))
                    && target != path
                {
                    let inner = self.candidates(&target, depth + 1);
                    if inner.status == "resolved" {
                        return inner;
                    }
                }
            }
            with.truncate(path.len());
            with.push_str("/index");
            let stem = with.len();
            for ext in EXTENSIONS {
                with.truncate(stem);
                with.push_str(ext);
                if let Some(available) = self.available.get(&with) {
                    return self.found(&with, *available);
                }
            }
        }
        Resolution::status("not-found", "no file of the artifact matches the path")
    }

    fn found(&self, path: &str, available: bool) -> Resolution {
        if available {
            Resolution {
                status: "resolved",
                path: Some(path.to_owned()),
                limitation: None,
            }
        } else {
            Resolution {
                status: "unavailable",
                path: Some(path.to_owned()),
                limitation: Some("the target's bytes are unavailable".to_owned()),
            }
        }
    }
}

/// A bare specifier's package name (`a`, `@scope/a`) and subpath (`.`, `./sub`); no name
/// when it is not a valid package name.
fn package_name(spec: &str) -> (Option<&str>, String) {
    let end = if spec.starts_with('@') {
        match spec.find('/') {
            Some(slash) => spec[slash + 1..]
                .find('/')
                .map_or(spec.len(), |s| slash + 1 + s),
            None => return (None, ".".to_owned()),
        }
    } else {
        spec.find('/').unwrap_or(spec.len())
    };
    let name = &spec[..end];
    if name.is_empty() || name.starts_with('.') || name.contains('%') || name.ends_with('/') {
        return (None, ".".to_owned());
    }
    (Some(name), format!(".{}", &spec[end..]))
}

/// `scheme:` with a scheme of two or more letters (so `C:` drive letters are not schemes).
fn has_scheme(spec: &str) -> bool {
    match spec.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() >= 2
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && scheme
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// `path` under a handler's directory `root`: beside its file (`./root/path`), or under the
/// application's root when `root` starts with `/`.
fn join_root(root: &str, path: &str) -> String {
    let root = root.trim_end_matches('/');
    if root.starts_with('/') {
        format!("{root}/{path}")
    } else if root.is_empty() {
        format!("./{path}")
    } else {
        format!("./{root}/{path}")
    }
}

/// Resolves `.` and `..` segments; `None` when `..` leaves the root.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Files {
        let mut map = BTreeMap::new();
        for p in [
            "main.js",
            "preload.js",
            "renderer/index.html",
            "renderer/renderer.js",
            "lib/index.js",
            "node_modules/dep/package.json",
            "node_modules/dep/dist/entry.js",
            "node_modules/ipaddr.js/lib/ipaddr.js",
            "app.asar/main.js",
            "native/addon.node",
        ] {
            map.insert(p.to_owned(), p != "native/addon.node");
        }
        let mut packages = BTreeMap::new();
        packages.insert(
            "node_modules/dep".to_owned(),
            PackageScope::with_main("./dist/entry.js"),
        );
        Files::new(map, vec!["app.asar".to_owned()], packages)
    }

    #[test]
    fn relative_extension_index_and_package_main() {
        use Context::{FilesystemExpression as Fs, HtmlReference as Html, ModuleSpecifier as Spec};
        let f = files();
        let cases: &[(&str, &str, Context, &str, Option<&str>)] = &[
            ("main.js", "./preload", Spec, "resolved", Some("preload.js")),
            ("main.js", "./lib", Spec, "resolved", Some("lib/index.js")),
            (
                "renderer/renderer.js",
                "dep",
                Spec,
                "resolved",
                Some("node_modules/dep/dist/entry.js"),
            ),
            ("main.js", "preload.js", Fs, "resolved", Some("preload.js")),
            (
                "renderer/index.html",
                "./renderer.js?v=1",
                Html,
                "resolved",
                Some("renderer/renderer.js"),
            ),
            ("main.js", "fs", Spec, "external", None),
            ("main.js", "https://x.test/a.js", Html, "external", None),
            ("main.js", "../../etc/passwd", Fs, "rejected", None),
            ("main.js", "./a%2e%2e/b", Spec, "rejected", None),
            (
                "main.js",
                "./native/addon.node",
                Spec,
                "unavailable",
                Some("native/addon.node"),
            ),
            ("main.js", "./missing", Spec, "not-found", None),
        ];
        for (from, spec, context, status, path) in cases {
            let r = f.resolve(from, spec, *context);
            assert_eq!(
                (r.status, r.path.as_deref()),
                (*status, *path),
                "{from} {spec}"
            );
        }
    }

    /// `process.resourcesPath` is the directory of the archive the file sits in; a path into
    /// the archive or its unpacked companion is taken inside it; with the archive as the input,
    /// everything else lies outside and says so.
    #[test]
    fn a_resources_path_resolves_beside_the_archive() {
        let mut map = BTreeMap::new();
        for path in [
            "resources/app.asar/main.js",
            "resources/app.asar/native/addon.node",
            "resources/helper/index.js",
            "main.js",
            "native/addon.node",
        ] {
            map.insert(path.to_owned(), true);
        }
        let f = Files::new(map, vec!["resources/app.asar".to_owned()], BTreeMap::new());
        let cases: &[(&str, &str, &str, Option<&str>)] = &[
            (
                "resources/app.asar/main.js",
                "helper/index.js",
                "resolved",
                Some("resources/helper/index.js"),
            ),
            (
                "resources/app.asar/main.js",
                "app.asar.unpacked/native/addon.node",
                "resolved",
                Some("resources/app.asar/native/addon.node"),
            ),
            (
                "resources/app.asar/main.js",
                "app.asar/main.js",
                "resolved",
                Some("resources/app.asar/main.js"),
            ),
            (
                "resources/app.asar/main.js",
                "helper/missing.js",
                "not-found",
                None,
            ),
            ("resources/app.asar/main.js", "../../../x", "rejected", None),
            // The input is the archive: its own files are at the root.
            (
                "main.js",
                "app.asar.unpacked/native/addon.node",
                "resolved",
                Some("native/addon.node"),
            ),
            ("main.js", "helper/index.js", "unavailable", None),
        ];
        for (from, spec, status, path) in cases {
            let r = f.resolve(from, spec, Context::ResourcesPath);
            assert_eq!(
                (r.status, r.path.as_deref()),
                (*status, *path),
                "{from} {spec}"
            );
        }
    }

    #[test]
    fn a_template_placeholder_in_a_pages_script_is_unresolved() {
        let mut map = BTreeMap::new();
        for path in ["index.html", "app.js", "%20app.js", "out/app.js"] {
            map.insert(path.to_owned(), true);
        }
        let f = Files::new(map, Vec::new(), BTreeMap::new());
        for spec in [
            "{{WORKBENCH_WEB_BASE_URL}}/app.js",
            "<%= BASE_URL %>app.js",
            "${base}/app.js",
            "%PUBLIC_URL%/app.js",
        ] {
            let r = f.resolve("index.html", spec, Context::HtmlReference);
            assert_eq!((r.status, r.path), ("unresolved", None), "{spec}");
            assert!(r.limitation.unwrap().contains("template placeholder"));
        }
        // A percent-encoded name and a path with no placeholder resolve as before.
        for (spec, path) in [("%20app.js", "%20app.js"), ("out/app.js", "out/app.js")] {
            let r = f.resolve("index.html", spec, Context::HtmlReference);
            assert_eq!(r.path.as_deref(), Some(path), "{spec}");
        }
    }

    #[test]
    fn a_pages_rooted_path_falls_back_to_the_pages_served_root() {
        let mut map = BTreeMap::new();
        for path in [
            "app.asar/out/index.html",
            "app.asar/out/about/index.html",
            "app.asar/out/_next/static/chunks/a.js",
            "app.asar/main.js",
        ] {
            map.insert(path.to_owned(), true);
        }
        let f = Files::new(map, vec!["app.asar".to_owned()], BTreeMap::new());
        for page in ["app.asar/out/index.html", "app.asar/out/about/index.html"] {
            let r = f.resolve(page, "/_next/static/chunks/a.js", Context::HtmlReference);
            assert_eq!(r.status, "resolved", "{page}");
            assert_eq!(
                r.path.as_deref(),
                Some("app.asar/out/_next/static/chunks/a.js")
            );
            assert!(r.limitation.unwrap().contains("app.asar/out"));
        }
        // The container's root is still tried first, and nothing past it.
        let r = f.resolve(
            "app.asar/out/index.html",
            "/main.js",
            Context::HtmlReference,
        );
        assert_eq!(r.path.as_deref(), Some("app.asar/main.js"));
        assert_eq!(r.limitation, None);
        let r = f.resolve(
            "app.asar/out/index.html",
            "/missing.js",
            Context::HtmlReference,
        );
        assert_eq!(r.status, "not-found");
        // Only pages read paths so: a script's rooted specifier is not searched for.
        let r = f.resolve(
            "app.asar/out/index.html",
            "/_next/static/chunks/a.js",
            Context::ModuleSpecifier,
        );
        assert_eq!(r.status, "not-found");
    }

    #[test]
    fn resolution_stays_in_the_container() {
        let f = files();
        assert_eq!(f.container_of("app.asar/main.js"), "app.asar");
        assert_eq!(
            f.resolve("app.asar/main.js", "/main.js", Context::HtmlReference)
                .path
                .as_deref(),
            Some("app.asar/main.js")
        );
        assert_eq!(
            f.resolve(
                "app.asar/main.js",
                "../preload.js",
                Context::ModuleSpecifier
            )
            .status,
            "rejected"
        );
    }

    #[test]
    fn electron_serve_urls_follow_the_packages_lookup() {
        let mut map = BTreeMap::new();
        for p in [
            "app.asar/main/index.js",
            "app.asar/app/index.html",
            "app.asar/app/about.html",
            "app.asar/app/home/index.html",
            "app.asar/app/empty/x.js",
            "app.asar/app/logo.png.txt",
            "app.asar/secret.html",
        ] {
            map.insert(p.to_owned(), true);
        }
        let f = Files::new(map, vec!["app.asar".to_owned()], BTreeMap::new());
        let from = "app.asar/main/index.js";
        let cases: &[(&str, &str, &str, Option<&str>)] = &[
            // The served directory's page.
            (
                "app",
                "app://-",
                "resolved",
                Some("app.asar/app/index.html"),
            ),
            (
                "app",
                "app://./",
                "resolved",
                Some("app.asar/app/index.html"),
            ),
            // A file at the URL's path, query and fragment aside; the host plays no part.
            (
                "app",
                "app://-/about.html?x=1#top",
                "resolved",
                Some("app.asar/app/about.html"),
            ),
            (
                "app",
                "app://anything/about.html",
                "resolved",
                Some("app.asar/app/about.html"),
            ),
            // A directory by its page.
            (
                "app",
                "app://./home",
                "resolved",
                Some("app.asar/app/home/index.html"),
            ),
            // A directory without one is not found: the lookup does not fall back there.
            ("app", "app://-/empty", "not-found", None),
            // A route that names nothing, without an extension: the directory's page.
            (
                "app",
                "app://-/settings/profile",
                "resolved",
                Some("app.asar/app/index.html"),
            ),
            // With another extension, nothing: no extensions are added either.
            ("app", "app://-/logo.png", "not-found", None),
            // A URL's path never climbs above its root.
            (
                "app",
                "app://-/../secret.html",
                "resolved",
                Some("app.asar/app/index.html"),
            ),
            (
                "app",
                "app://-/a/../../about.html",
                "resolved",
                Some("app.asar/app/about.html"),
            ),
            // The application's root, where the directory is `.`.
            (
                ".",
                "app://-/secret.html",
                "resolved",
                Some("app.asar/secret.html"),
            ),
            ("..", "app://-/x.html", "rejected", None),
        ];
        for (directory, url, status, path) in cases {
            let r = f.resolve_electron_serve(from, (directory, "index"), url);
            assert_eq!(
                (r.status, r.path.as_deref()),
                (*status, *path),
                "{directory} {url}"
            );
            if r.status == "resolved" {
                assert!(r.limitation.unwrap().contains("electron-serve"));
            }
        }
    }

    #[test]
    fn package_names_and_subpaths() {
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("a", Some("a"), "."),
            ("a/b/c.js", Some("a"), "./b/c.js"),
            ("@s/a", Some("@s/a"), "."),
            ("@s/a/b", Some("@s/a"), "./b"),
            ("@s", None, "."),
            (".a/b", None, "."),
        ];
        for (spec, name, subpath) in cases {
            assert_eq!(package_name(spec), (*name, (*subpath).to_owned()), "{spec}");
        }
    }

    #[test]
    fn a_package_with_exports_answers_from_its_map_alone() {
        let mut map = BTreeMap::new();
        for p in [
            "app/main.js",
            "app/lib/x.js",
            "node_modules/m/cjs.js",
            "node_modules/m/esm.mjs",
            "node_modules/m/hidden.js",
        ] {
            map.insert(p.to_owned(), true);
        }
        let exports = PackageTarget::Map(vec![(
            ".".to_owned(),
            PackageTarget::Map(vec![
                (
                    "import".to_owned(),
                    PackageTarget::Path("./esm.mjs".to_owned()),
                ),
                (
                    "require".to_owned(),
                    PackageTarget::Path("./cjs.js".to_owned()),
                ),
            ]),
        )]);
        let mut packages = BTreeMap::new();
        packages.insert(
            "node_modules/m".to_owned(),
            PackageScope {
                name: Some("m".to_owned()),
                exports: Some(exports),
                ..PackageScope::default()
            },
        );
        packages.insert(
            "app".to_owned(),
            PackageScope {
                name: Some("app".to_owned()),
                imports: Some(PackageTarget::Map(vec![(
                    "#x".to_owned(),
                    PackageTarget::Path("./lib/x.js".to_owned()),
                )])),
                exports: Some(PackageTarget::Path("./main.js".to_owned())),
                ..PackageScope::default()
            },
        );
        let f = Files::new(map, Vec::new(), packages);
        let spec = Context::ModuleSpecifier;
        let path = |r: Resolution| (r.status, r.path);
        let at = |p: &str| Some(p.to_owned());
        assert_eq!(
            path(f.resolve("app/main.js", "m", spec)),
            ("resolved", at("node_modules/m/cjs.js"))
        );
        assert_eq!(
            path(f.resolve_in("app/main.js", "m", spec, ModuleSystem::Import)),
            ("resolved", at("node_modules/m/esm.mjs"))
        );
        // There, but not exported.
        assert_eq!(
            path(f.resolve("app/main.js", "m/hidden.js", spec)),
            ("not-found", None)
        );
        // The file's own package: its `#imports`, and itself by name.
        assert_eq!(
            path(f.resolve("app/main.js", "#x", spec)),
            ("resolved", at("app/lib/x.js"))
        );
        assert_eq!(
            path(f.resolve("app/lib/x.js", "app", spec)),
            ("resolved", at("app/main.js"))
        );
        // A package's scope ends at `node_modules`: its files do not see the app's map.
        assert_eq!(
            f.resolve("node_modules/m/cjs.js", "#x", spec).status,
            "not-found"
        );
    }

    #[test]
    fn a_directory_named_like_a_script_is_not_a_file() {
        let f = files();
        assert_eq!(
            f.resolve("main.js", "ipaddr.js", Context::ModuleSpecifier)
                .status,
            "external"
        );
        assert!(!f.contains("node_modules/ipaddr.js"));
    }
}
