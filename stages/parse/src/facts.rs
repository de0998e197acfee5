//! The facts one file yields: plain data, no swc types, so later stages never see an AST.
//!
//! Positions are 1-based lines and 0-based columns counted in UTF-16 code units, the way
//! JavaScript tools and source maps count them.

/// What a selected file is, from its lower-cased path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    PackageJson,
    /// electron-updater's `app-update.yml` (and `dev-app-update.yml`), which electron-builder
    /// writes next to the application's archive: where the application looks for updates.
    UpdateConfig,
    Html,
    JavaScript,
    Json,
    SourceMap,
    /// V8 bytecode, as bytenode writes it (`.jsc`): listed, never read as text.
    Bytecode,
    NativeAddon,
}

impl FileKind {
    /// Classifies a logical path; `None` for files the analysis does not read.
    pub fn of(path: &str) -> Option<FileKind> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name == "package.json" {
            return Some(FileKind::PackageJson);
        }
        if name == "app-update.yml" || name == "dev-app-update.yml" {
            return Some(FileKind::UpdateConfig);
        }
        let lower = name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, ext)| ext)?;
        Some(match ext {
            "js" | "cjs" | "mjs" | "jsx" | "ts" | "tsx" | "cts" | "mts" => FileKind::JavaScript,
            "json" => FileKind::Json,
            "html" | "htm" => FileKind::Html,
            "map" => FileKind::SourceMap,
            "jsc" => FileKind::Bytecode,
            "node" => FileKind::NativeAddon,
            _ => return None,
        })
    }

    /// Selection priority: manifests first, native add-ons last.
    pub fn priority(self) -> u8 {
        self as u8
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::PackageJson => "package-json",
            FileKind::UpdateConfig => "update-config",
            FileKind::Html => "html",
            FileKind::JavaScript => "javascript",
            FileKind::Json => "json",
            FileKind::SourceMap => "source-map",
            FileKind::Bytecode => "javascript-bytecode",
            FileKind::NativeAddon => "native-addon",
        }
    }
}

/// Whether a file's text was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStatus {
    Included,
    NotApplicable,
    FileLimit,
    ByteLimit,
    InvalidUtf8,
    Unavailable,
}

impl TextStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TextStatus::Included => "included",
            TextStatus::NotApplicable => "not-applicable",
            TextStatus::FileLimit => "file-limit",
            TextStatus::ByteLimit => "byte-limit",
            TextStatus::InvalidUtf8 => "invalid-utf8",
            TextStatus::Unavailable => "unavailable",
        }
    }
}

/// How far parsing got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseStatus {
    /// Parsed with no recovered error and no dynamic finding.
    Complete,
    /// Parsed, but the parser recovered errors or some facts stayed dynamic.
    Partial,
    /// A bound was reached; some facts of the file are missing.
    Truncated,
    /// The parser gave up; the file is an unknown scope.
    Failed,
    /// Not parsed (not text, not selected, or not a parsed kind).
    NotParsed,
}

impl ParseStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ParseStatus::Complete => "complete",
            ParseStatus::Partial => "partial",
            ParseStatus::Truncated => "truncated",
            ParseStatus::Failed => "failed",
            ParseStatus::NotParsed => "not-parsed",
        }
    }
}

/// A position in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// A source range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Range {
    pub start: Pos,
    pub end: Pos,
}

/// A module factory key exactly as written: a number or a string.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModuleKey {
    Number(u64),
    String(String),
}

impl ModuleKey {
    /// The key as text (numbers in decimal).
    pub fn text(&self) -> String {
        match self {
            ModuleKey::Number(n) => n.to_string(),
            ModuleKey::String(s) => s.clone(),
        }
    }

    /// The key [`Self::text`] wrote: a number when the text is one written in decimal.
    pub fn from_text(text: &str) -> ModuleKey {
        match text.parse::<u64>() {
            Ok(n) if n.to_string() == text => ModuleKey::Number(n),
            _ => ModuleKey::String(text.to_owned()),
        }
    }
}

/// A module factory of this file: its bundle (an index into [`JsFacts::bundles`]) and key.
/// Keys are unique only within a bundle: a file can hold a bundle nested in a factory of
/// another (a prebuilt library bundled again), both tables named alike by the minifier.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleRef {
    pub bundle: u32,
    pub key: ModuleKey,
}

/// A value read without running code: a literal, or the source text of what it was.
#[derive(Debug, Clone, PartialEq)]
pub enum StaticValue {
    Literal(serde_json::Value),
    Dynamic(String),
}

/// A path expression resolved statically (`path.join(__dirname, "preload.js")`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticPath {
    pub path: String,
    /// `filesystem-expression` when anchored at `__dirname`, `__filename`, `import.meta.url`
    /// or an absolute string; otherwise `module-specifier`.
    pub context: &'static str,
}

/// A `package.json`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PackageFacts {
    pub valid: bool,
    pub name: Option<String>,
    pub version: Option<String>,
    pub main: Option<String>,
    /// Electron's `renderer` field, which some apps declare.
    pub renderer: Option<String>,
    pub browser: Option<String>,
    pub module: Option<String>,
    /// String targets of `exports`, with their condition paths (`.`, `./sub`, `import`...).
    pub exports: Vec<(String, String)>,
    /// `exports` as written, in the file's order (the order decides which condition wins).
    pub exports_map: Option<PackageTarget>,
    /// `imports` (the package's `#name` specifiers) as written, in the file's order.
    pub imports_map: Option<PackageTarget>,
}

/// A value of a `package.json` `exports` or `imports` map, in the order the file writes it:
/// Node.js takes the first condition it matches, so the order is part of the meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageTarget {
    /// A path (`./dist/index.js`) or, in `imports`, a package specifier.
    Path(String),
    /// Subpaths (`.`, `./sub`, `./features/*`) or conditions (`import`, `node`, `default`).
    Map(Vec<(String, PackageTarget)>),
    /// Fallbacks, tried in turn.
    Alternatives(Vec<PackageTarget>),
    /// `null`: nothing is exported there.
    Null,
    /// A number or a boolean, which Node.js rejects as a target.
    Invalid,
}

/// A script an HTML file names: a `<script src>` (a renderer script), the `preload` of a
/// `<webview>` tag (a preload of the guest page it hosts), or a document it imports with
/// `<link rel="import">` (an HTML import, whose scripts run in the page: Chromium's until 73,
/// Electron's until 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlScript {
    pub src: String,
    pub base_href: Option<String>,
    pub line: u32,
    /// Whether it is a `<webview preload>`.
    pub webview_preload: bool,
    /// Whether it is an HTML import.
    pub html_import: bool,
}

/// A `<webview>` tag: a guest page it hosts, with what its attributes grant the guest. A page
/// writes it in its markup; code writes it as markup in a string or template, or makes the
/// element (`createElement("webview", props)`, a JSX element, `document.createElement`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlWebview {
    pub line: u32,
    /// How it is written: `html` (a page's markup), `markup-in-code` (a string, template or
    /// concatenation of code holding the tag), `element` (an element the code makes).
    pub written: &'static str,
    /// Whether some of its attributes are computed at run time (a template's expression, a
    /// property's value, props spread in, attributes set later): its attributes are then those
    /// the code may write, each branch's.
    pub computed: bool,
    /// The `src` attribute, credentials, query values and fragment redacted.
    pub src: Option<String>,
    /// The attributes present that change what the guest may do, in [`WEBVIEW_ATTRIBUTES`]
    /// order: `nodeintegration`, `nodeintegrationinsubframes`, `disablewebsecurity`,
    /// `allowpopups`, `plugins`.
    pub attributes: Vec<&'static str>,
    /// The `webpreferences` attribute as written (`"webSecurity=no, contextIsolation=no"`).
    pub web_preferences: Option<String>,
    /// The file the `preload` attribute names (a relative `file:` URL's path), as written.
    pub preload: Option<String>,
}

/// The `<webview>` attributes that change what the guest page may do (present or not: Electron
/// reads them as booleans by their presence).
pub const WEBVIEW_ATTRIBUTES: [&str; 5] = [
    "nodeintegration",
    "nodeintegrationinsubframes",
    "disablewebsecurity",
    "allowpopups",
    "plugins",
];

impl HtmlWebview {
    /// Whether the guest gets Node.js: `nodeintegration`, or in its frames.
    pub fn node_integration(&self) -> bool {
        self.attributes
            .iter()
            .any(|a| a.starts_with("nodeintegration"))
    }

    /// Whether the guest runs without web security: `disablewebsecurity`, or `webSecurity`
    /// turned off in `webpreferences` (`false`, `no` or `0`, as Electron reads its features
    /// string).
    pub fn web_security_disabled(&self) -> bool {
        self.attributes.contains(&"disablewebsecurity")
            || self.web_preferences.as_deref().is_some_and(|features| {
                features.split(',').any(|feature| {
                    let (key, value) = feature.split_once('=').unwrap_or((feature, "yes"));
                    key.trim() == "webSecurity" && matches!(value.trim(), "false" | "no" | "0")
                })
            })
    }
}

/// A content security policy a page declares in `<meta http-equiv="Content-Security-Policy">`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagePolicy {
    /// The policy as written (attribute value decoded), cut to 4096 bytes.
    pub policy: String,
    pub line: u32,
}

/// The content security policies a page declares, and what they let scripts do, as CSP
/// Level 3 decides it (the `content-security-policy` crate, Servo's): every policy enforced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCsp {
    pub policies: Vec<PagePolicy>,
    /// Whether an inline script with no nonce and no matching hash would run: what an
    /// injected `<script>` could do.
    pub allows_inline_scripts: bool,
    /// Whether `eval` and `new Function` would run.
    pub allows_eval: bool,
}

/// A `Content-Security-Policy` response header the code writes: a property of that name
/// (in any case) whose value is a literal string or an array of them, as
/// `session.webRequest.onHeadersReceived` callbacks and custom protocols' responses set it.
/// Each value is judged alone (see [`PageCsp`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderPolicy {
    pub policy: String,
    pub range: Range,
    pub allows_inline_scripts: bool,
    pub allows_eval: bool,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// One original source named by a source map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSource {
    pub source: String,
    pub content_sha256: Option<String>,
}

/// A source map a directive carries as a `data:` URL.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InlineSourceMap {
    /// SHA-256 of the whole URL as written.
    pub url_sha256: String,
    /// SHA-256 of the decoded map; `None` when the URL did not decode.
    pub map_sha256: Option<String>,
    pub map: SourceMapFacts,
}

/// A source map file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMapFacts {
    /// `included`, `truncated`, `invalid` or `declarations-only`.
    pub status: &'static str,
    pub file: Option<String>,
    pub source_count: u64,
    /// Filled only when contents were asked for.
    pub sources: Vec<MapSource>,
}

/// A bundle registration: a webpack/rspack chunk push, a runtime module table, or an esbuild
/// wrapper table.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// `webpack`, `rspack` or `esbuild`.
    pub bundler: &'static str,
    /// The chunk-loading global, `__webpack_modules__`, or the esbuild wrapper kind.
    pub runtime: String,
    /// `jsonp-chunk`, `runtime-table` or `esbuild-wrapper`.
    pub shape: &'static str,
    pub chunk_keys: Vec<String>,
    pub unknown_chunk_keys: u64,
    pub entry_module_keys: Vec<ModuleKey>,
    pub range: Range,
    pub modules: Vec<Module>,
    pub unknown_modules: u64,
    /// Chunk ids the bundle's runtime loads on demand from its own code (`t.e(14)` in the
    /// entry module webpack inlines there), in the order written; a factory's own are on its
    /// [`Module`].
    pub async_chunks: Vec<String>,
    /// Keys of factories the runtime's own code requires (`t(157)` in the inlined entry
    /// module), in the order written.
    pub entry_requires: Vec<String>,
}

/// The two module wrappers of esbuild's runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrapper {
    /// `__commonJS`: a CommonJS module, run once on its first require.
    CommonJs,
    /// `__esm`: an ES module's lazy initializer, in output that also holds CommonJS.
    Esm,
}

impl Wrapper {
    pub fn name(self) -> &'static str {
        match self {
            Wrapper::CommonJs => "commonjs",
            Wrapper::Esm => "esm",
        }
    }

    /// The runtime a bundle of this wrapper names: `esbuild-commonjs`, `esbuild-esm`.
    pub fn runtime(self) -> String {
        format!("esbuild-{}", self.name())
    }

    /// The chunk key of the wrapper call that starts at byte `offset`: `commonjs@120`.
    pub fn chunk_key(self, offset: u32) -> String {
        format!("{}@{offset}", self.name())
    }
}

/// A module wrapped, in a minified esbuild chunk of a split build, by a helper the chunk
/// imports from another (`import {a as C} from "./chunk-X.js"; var P = C((e, t) => {…})`):
/// one file cannot tell that helper from any other function, so this is a module only once
/// the chunk it names is seen to export an esbuild wrapper helper under that name
/// ([`JsFacts::exported_helpers`]); the graph stage settles it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedWrapper {
    /// The specifier the helper is imported from.
    pub from: String,
    /// The name that module exports the helper under.
    pub helper: String,
    /// Where the wrapper call starts, as a byte offset (its chunk key, like a wrapper's own).
    pub offset: u32,
    /// The wrapper call.
    pub range: Range,
    /// The module, keyed by the name the call is bound to.
    pub module: Module,
}

/// One recovered module factory.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub key: ModuleKey,
    pub range: Range,
    /// SHA-256 of the factory's exact source text.
    pub source_sha256: String,
    /// `rea-swc-structure-v2` digest; `None` when the token bound was reached.
    pub fingerprint: Option<String>,
    pub require_name: Option<String>,
    /// Keys of other factories this one requires, sorted and unique.
    pub requires: Vec<ModuleKey>,
    /// Chunk ids this factory loads on demand.
    pub async_chunks: Vec<String>,
    /// Keys of other factories this one loads on demand (AMD's `require([ids], callback)`),
    /// sorted and unique.
    pub async_modules: Vec<ModuleKey>,
    /// CommonJS/harmony export names, sorted and unique, at most 256.
    pub exports: Vec<String>,
    pub exports_truncated: bool,
    /// The factory's exports with their shapes ([`ExportShape`]), in the order written.
    pub export_shapes: Vec<ExportShape>,
    /// Whether the factory wrote more exports than were read.
    pub export_shapes_truncated: bool,
}

/// A reference from code to another module or script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// `static-import`, `dynamic-import`, `require`, `import-meta-url`, `worker`,
    /// `shared-worker`, `service-worker` or `import-scripts`.
    pub kind: &'static str,
    pub specifier: Option<String>,
    pub expression: Option<String>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
    /// For a require computed at run time inside a static directory (`path.join(dir, file)`
    /// over a listing of `dir`): that directory, relative to the file's own (`./plugins`, `.`).
    pub directory: Option<String>,
}

/// A route, network endpoint or storage use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// `route`, `endpoint` or `storage`.
    pub family: &'static str,
    /// Storage kind, route mechanism, or network API.
    pub kind: String,
    /// The (redacted) value; storage names may be absent.
    pub value: Option<String>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// `new BrowserWindow(...)`, `new BrowserView(...)` or `new WebContentsView(...)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    pub constructor: String,
    pub options_status: &'static str,
    pub web_preferences_status: &'static str,
    /// Explicit preferences only, sorted by name, at most 64.
    pub web_preferences: Vec<(String, StaticValue)>,
    pub omitted_web_preferences: u64,
    /// Where the options were composed from besides their own literal: spreads,
    /// `Object.assign` arguments and function returns, in source order, at most 16.
    pub option_sources: Vec<OptionSource>,
    pub preload: Option<StaticPath>,
    /// More static paths the preload may take, after `preload`, from the branches of a
    /// condition (`app.isPackaged ? join(__dirname, "preload.js") : join(__dirname,
    /// "../dev/preload.js")`), in source order: the graph takes the first that resolves.
    pub preload_alternatives: Vec<StaticPath>,
    pub preload_expression: Option<String>,
    /// The name the window is held by, as written: `win` (`const win = new
    /// BrowserWindow(…)`), `this.mainWindow`. Its `loadFile`/`loadURL` calls through that
    /// name are its loads ([`RendererLoad::window`]).
    pub holder: Option<String>,
    /// The URLs of the web it loads (`win.loadURL("https://…")`), redacted, sorted, at most
    /// 16: remote content in this window's preferences.
    pub remote_urls: Vec<String>,
    /// The targets of its loads that are computed at run time, as written
    /// (`win.loadURL(args.targetUrl)`), sorted, at most 4.
    pub dynamic_loads: Vec<String>,
    /// Those of them a `loadURL` loads, which may be URLs of the web (a `loadFile` loads a
    /// file of the application), sorted, at most 4.
    pub dynamic_urls: Vec<String>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A source a window's options were composed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSource {
    /// The source expression as written.
    pub expression: String,
    /// `object-literal`, `binding`, `function-return` or `unresolved`.
    pub resolution: &'static str,
}

/// `contextBridge.exposeInMainWorld` / `exposeInIsolatedWorld`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bridge {
    pub world: &'static str,
    pub world_id: Option<StaticValue>,
    pub api_key: Option<String>,
    pub api_key_expression: Option<String>,
    pub api_status: &'static str,
    pub members: Vec<String>,
    pub unknown_members: u64,
    /// Members that hand one of their parameters to `ipcRenderer` as the channel:
    /// `send(channel, ...args) { ipcRenderer.send(channel, ...args) }`.
    pub forwarders: Vec<Forwarder>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
    /// What the API reads off another module's exports when it is not written here
    /// (`exposeInMainWorld("api", api_1.api)` after `require("./api")`): settled against
    /// that module's [`JsFacts::exported_apis`] once every file is read.
    pub api_import: Option<ChannelImport>,
    /// Where a settled imported API is written: the file, and the export path read there.
    pub api_source: Option<ApiSource>,
    /// What the literal spreads off other modules' exports (`{ ...electronAPI, x }`), each
    /// an unknown member until it settles like [`Self::api_import`].
    pub spread_imports: Vec<ChannelImport>,
    /// The byte spans of the API's object literals in this file (written in the call, bound
    /// to the name the call passes, or spread into it from a name bound in scope): IPC calls
    /// inside them are the API's.
    pub literal_spans: Vec<(u32, u32)>,
    /// The same literals as source ranges: what is written inside them is what the API's
    /// members do.
    pub literal_ranges: Vec<Range>,
}

/// The file (and module factory) and export an imported bridge API was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiSource {
    /// The file; `None` for the bridge's own file (a factory of its bundle).
    pub path: Option<String>,
    /// The key of the module factory that exports it, when a factory of the same file does.
    pub module_key: Option<String>,
    /// The dotted path read off the module's exports (`api`, `electronAPI.ipcRenderer`);
    /// empty for the module's whole exports.
    pub export: String,
}

impl Bridge {
    /// Merges the API object another module exports at the longest prefix of `path` into the
    /// literal that spreads it (`{ ...electronAPI, x }`): its members and forwarders below
    /// the rest of the path join the literal's, and the spread stops counting as an unknown
    /// member. False, and nothing changed, when the module exports no API there.
    pub fn merge_spread(&mut self, exported: &[ExportedApi], path: &[String]) -> bool {
        let Some((api, below)) = exported_at(exported, path) else {
            return false;
        };
        self.members
            .extend(api.members.iter().filter_map(|m| below_prefix(m, &below)));
        self.members.sort();
        self.members.dedup();
        self.forwarders
            .extend(api.forwarders.iter().filter_map(|f| {
                Some(Forwarder {
                    member: below_prefix(&f.member, &below)?,
                    ..f.clone()
                })
            }));
        self.unknown_members = self.unknown_members.saturating_sub(1)
            + if below.is_empty() {
                api.unknown_members
            } else {
                0
            };
        true
    }

    /// Settles an API read off another module's exports ([`Bridge::api_import`], whose
    /// member path is `path`) against the API objects that module exports: the object at the
    /// longest prefix of the path gives the members and forwarders below the rest of it
    /// (`api_1.api.ipc` reads `ipc.*` of export `api`), and the bridge says
    /// `object-literal`. A `default` export is also looked for as the module's whole
    /// exports, as interop helpers read a CommonJS module. False, and nothing changed, when
    /// the module exports no API at any prefix.
    pub fn settle(
        &mut self,
        exported: &[ExportedApi],
        path: &[String],
        file: Option<String>,
        module_key: Option<String>,
    ) -> bool {
        let Some((api, below)) = exported_at(exported, path) else {
            return false;
        };
        self.api_status = "object-literal";
        self.members = api
            .members
            .iter()
            .filter_map(|m| below_prefix(m, &below))
            .collect();
        self.unknown_members = if below.is_empty() {
            api.unknown_members
        } else {
            0
        };
        self.forwarders = api
            .forwarders
            .iter()
            .filter_map(|f| {
                Some(Forwarder {
                    member: below_prefix(&f.member, &below)?,
                    ..f.clone()
                })
            })
            .collect();
        self.api_source = Some(ApiSource {
            path: file,
            module_key,
            export: path.join("."),
        });
        self.api_import = None;
        true
    }
}

impl JsFacts {
    /// Settles the bridges whose API another module exports ([`Bridge::settle`]): `lookup`
    /// gives, for what a bridge reads from, the API objects that module exports, with the
    /// file and factory key that name it. A settled bridge stops counting as dynamic.
    pub fn settle_bridges<'a>(
        &mut self,
        mut lookup: impl FnMut(
            &ImportFrom,
        ) -> Option<(&'a [ExportedApi], Option<String>, Option<String>)>,
    ) {
        let mut settled = 0;
        for bridge in &mut self.bridges {
            // Spreads stay until they settle: a factory's now, another file's later.
            for spread in std::mem::take(&mut bridge.spread_imports) {
                let merged = lookup(&spread.from)
                    .is_some_and(|(exported, _, _)| bridge.merge_spread(exported, &spread.path));
                if !merged {
                    bridge.spread_imports.push(spread);
                }
            }
            let Some(ChannelImport { from, path }) = bridge.api_import.clone() else {
                continue;
            };
            if let Some((exported, file, module_key)) = lookup(&from) {
                settled += u64::from(bridge.settle(exported, &path, file, module_key));
            }
        }
        self.dynamic_findings = self.dynamic_findings.saturating_sub(settled);
    }
}

/// The API object exported at the longest prefix of `path`, and the rest of the path below
/// it. A `default` export is also looked for as the module's whole exports, as interop
/// helpers read a CommonJS module.
fn exported_at<'a>(
    exported: &'a [ExportedApi],
    path: &[String],
) -> Option<(&'a ExportedApi, String)> {
    (0..=path.len()).rev().find_map(|split| {
        let (head, rest) = path.split_at(split);
        let export = head.join(".");
        let api = exported.iter().find(|a| a.export == export).or_else(|| {
            (export == "default")
                .then(|| exported.iter().find(|a| a.export.is_empty()))
                .flatten()
        })?;
        Some((api, rest.join(".")))
    })
}

/// A dotted member path with `prefix` and its dot taken off; the path itself when the prefix
/// is empty, nothing when it is not below the prefix.
fn below_prefix(member: &str, prefix: &str) -> Option<String> {
    if prefix.is_empty() {
        return Some(member.to_owned());
    }
    member
        .strip_prefix(prefix)?
        .strip_prefix('.')
        .filter(|rest| !rest.is_empty())
        .map(str::to_owned)
}

/// An object literal a file exports that a bridge in another file may expose:
/// `export const api = {…}`, `exports.api = api`, `module.exports = {…}`. Kept only in files
/// that use Electron.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedApi {
    /// The export's dotted name (`api`, `default`); empty for `module.exports` itself.
    pub export: String,
    pub members: Vec<String>,
    pub unknown_members: u64,
    pub forwarders: Vec<Forwarder>,
}

/// A bridge member that forwards a channel: a renderer's `window.<key>.<member>("x", …)` is
/// the IPC operation `operation` on channel `"x"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forwarder {
    /// The member's dotted path in the API (`ipcRenderer.sendMessage`).
    pub member: String,
    /// Which parameter is the channel, from 0.
    pub param: u32,
    /// The `ipcRenderer` operation and mode it calls (`send`/`send`, `invoke`/`invoke`,
    /// `on`/`listen`, …).
    pub operation: &'static str,
    pub mode: &'static str,
}

/// A call through what a page's window holds, `window.<name>.<path>(…)` with a literal string
/// among its first arguments: a candidate call of a bridge member, matched against the
/// application's bridges once every file is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowCall {
    /// The callee without `window.`/`globalThis.`/`self.` (`electron.ipcRenderer.send`).
    pub name: String,
    /// The first arguments, each its string when it is a literal one or a name the file
    /// binds once to a string.
    pub args: Vec<Option<String>>,
    /// For each argument with no string, what it reads off another file's or factory's
    /// exports, if anything (`window.api.invoke(IPC.GET)` after `import { IPC } from
    /// "./channels"`), resolved once that module's exports are known.
    pub arg_imports: Vec<Option<ChannelImport>>,
    /// For each argument read through a name (a constant, or another module's export), its
    /// expression as written, kept beside the channel; empty when no argument is.
    pub arg_expressions: Vec<Option<String>>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A value a name is bound to once: a string, or an object of them (nested); or a function
/// that makes a channel of its parameters, which a module may export too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constant {
    Str(String),
    Object(Vec<(String, Constant)>),
    Maker(ChannelMaker),
}

/// One part of a channel's template ([`ChannelMaker`], and the template of a dynamic
/// channel): a string, a parameter of the function that makes it, or a run of values not
/// known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelPart {
    /// A string: a literal, or a name bound to one.
    Str(String),
    /// The parameter of that index, in a [`ChannelMaker`]'s template.
    Param(u32),
    /// A run of values not known.
    Hole,
}

/// A function that makes a channel of its parameters (`(name) => `app:${name}``): its body
/// is a concatenation or a template literal of strings and of at least one parameter. A call
/// of it with strings makes the channel ([`ChannelMaker::made`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelMaker(pub(crate) Vec<ChannelPart>);

impl Constant {
    /// The string at `path` (member names) inside this value.
    pub fn at<'c>(&'c self, path: &[impl AsRef<str>]) -> Option<&'c str> {
        match self.member(path)? {
            Constant::Str(s) => Some(s),
            Constant::Object(_) | Constant::Maker(_) => None,
        }
    }

    /// The value at `path` (member names) inside this value; a later member of a name
    /// replaces an earlier one, as at run time.
    pub fn member<'c>(&'c self, path: &[impl AsRef<str>]) -> Option<&'c Constant> {
        match (self, path) {
            (value, []) => Some(value),
            (Constant::Object(members), [first, rest @ ..]) => members
                .iter()
                .rev()
                .find(|(key, _)| key == first.as_ref())
                .and_then(|(_, value)| value.member(rest)),
            (Constant::Str(_) | Constant::Maker(_), _) => None,
        }
    }
}

/// The string at `path` in what a module exports by name (`["IPC", "GET"]`: member `GET` of
/// export `IPC`); a later export of a name replaces an earlier one, as at run time.
pub fn exported_string<'e>(exports: &'e [(String, Constant)], path: &[String]) -> Option<&'e str> {
    match exported_value(exports, path)? {
        Constant::Str(string) => Some(string),
        Constant::Object(_) | Constant::Maker(_) => None,
    }
}

/// The string at `rest` in what a module exports as `name`: [`exported_string`] of
/// `[name, rest…]`, for a name read under another (a re-export's).
pub fn exported_string_at<'e>(
    exports: &'e [(String, Constant)],
    name: &str,
    rest: &[String],
) -> Option<&'e str> {
    match exported_value_at(exports, name, rest)? {
        Constant::Str(string) => Some(string),
        Constant::Object(_) | Constant::Maker(_) => None,
    }
}

/// The value at `path` in what a module exports by name: a string, or an object of them
/// (what a re-export of it carries on).
pub fn exported_value<'e>(
    exports: &'e [(String, Constant)],
    path: &[String],
) -> Option<&'e Constant> {
    let [name, rest @ ..] = path else {
        return None;
    };
    exported_value_at(exports, name, rest)
}

/// [`exported_value`] of `[name, rest…]`, for a name read under another (a re-export's).
pub fn exported_value_at<'e>(
    exports: &'e [(String, Constant)],
    name: &str,
    rest: &[String],
) -> Option<&'e Constant> {
    exports
        .iter()
        .rev()
        .find(|(exported, _)| exported == name)
        .and_then(|(_, value)| value.member(rest))
}

/// A channel written as a member of what another module exports: `channels_1.IPC.GET` after
/// `const channels_1 = require("./channels")`, `IPC.GET` after `import { IPC } from
/// "./channels"`, or `o.GET` after `var o = n(227)` in a webpack factory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelImport {
    /// The module whose exports are read.
    pub from: ImportFrom,
    /// The members read off what it exports (`["IPC", "GET"]`).
    pub path: Vec<String>,
}

/// Where a [`ChannelImport`] reads from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportFrom {
    /// A specifier the file requires or imports (relative, or a package's), resolved once
    /// every file is read.
    Specifier(String),
    /// A factory of a bundle of the same file, by its key, resolved once the file is read;
    /// the import stays only when that factory exports no string at the path.
    Module(ModuleRef),
}

/// A function a file exports that hands one of its parameters to Electron: to an IPC
/// operation as the channel (`export function handle(channel, fn) { ipcMain.handle(channel,
/// fn) }`), or to a protocol method as the scheme it serves (`export default (scheme) => {
/// protocol.registerBufferProtocol(scheme, …) }`, as vue-cli-plugin-electron-builder's
/// `createProtocol` does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedIpcHelper {
    pub export: String,
    /// For a class the file exports: the method that forwards (`new Ipc().handle(…)`).
    pub method: Option<String>,
    pub forwards: Vec<IpcForward>,
    pub serves: Vec<SchemeForward>,
}

impl ExportedIpcHelper {
    /// Whether it is the export `export` (its `method`, for a class).
    pub fn is(&self, export: &str, method: &Option<String>) -> bool {
        self.export == export && self.method == *method
    }
}

/// A scheme a helper serves: the parameter its protocol method is given as the scheme, and
/// what it learns of the handler it passes ([`ServedScheme::roots`], read in the helper's
/// file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemeForward {
    /// Which parameter is the scheme, from 0.
    pub param: u32,
    /// The protocol method: `handle`, `registerBufferProtocol`, …
    pub api: &'static str,
    pub roots: Vec<StaticPath>,
}

/// One IPC operation an [`ExportedIpcHelper`] makes of its parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcForward {
    /// Which parameter is the channel, from 0.
    pub param: u32,
    /// The strings the helper writes before and after the parameter to make the channel
    /// (`` `api:${name}` `` is `("api:", "")`), when it does.
    pub around: Option<(String, String)>,
    pub side: &'static str,
    pub operation: &'static str,
    pub mode: &'static str,
    /// For a listener or handler: the parameter passed as the handler, if the helper passes
    /// one of its own.
    pub handler_param: Option<u32>,
    /// Otherwise the kind of what it passes.
    pub handler_kind: Option<&'static str>,
}

/// A call of a function another module exports (`(0, ipc_1.handle)("get-user", fn)`,
/// `handle("get-user", fn)` after `import { handle } from "./ipc"`), or of a method of an
/// instance of a class it exports, kept when a string is among its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedHelperCall {
    /// The module and the export called.
    pub import: ChannelImport,
    /// For a method of an instance of a class the module exports
    /// (`const ipc = new IpcListener(); ipc.handle(…)`): the method.
    pub method: Option<String>,
    /// The callee as written.
    pub callee: String,
    pub args: Vec<CallArg>,
    pub range: Range,
    pub span: (u32, u32),
    pub module: Option<ModuleRef>,
}

impl IpcForward {
    /// The channel the helper makes of `passed`, the string a call passes.
    pub fn channel(&self, passed: &str) -> String {
        match &self.around {
            Some((before, after)) => format!("{before}{passed}{after}"),
            None => passed.to_owned(),
        }
    }

    /// What a channel the helper makes of a value not known pairs by: the string before
    /// it, or else its template ([`ChannelKey`]).
    pub fn key(&self) -> Option<ChannelKey> {
        let (before, after) = self.around.as_ref()?;
        ChannelKey::around(before, after)
    }
}

impl ChannelKey {
    /// The key of a dynamic channel whose leading string is `prefix`, whose template is
    /// `template` and whose strings have `strings` bytes: the prefix, at least
    /// [`MIN_CHANNEL_PREFIX`] bytes, or else the template, when its strings have that many.
    pub fn of(
        prefix: &str,
        template: impl FnOnce() -> String,
        strings: usize,
    ) -> Option<ChannelKey> {
        if prefix.len() >= MIN_CHANNEL_PREFIX {
            Some(ChannelKey::Prefix(prefix.to_owned()))
        } else {
            (strings >= MIN_CHANNEL_PREFIX).then(|| ChannelKey::Template(template()))
        }
    }

    /// The key of a channel made of strings around a value not known.
    pub fn around(before: &str, after: &str) -> Option<ChannelKey> {
        ChannelKey::of(
            before,
            || format!("{before}{CHANNEL_HOLE}{after}"),
            before.len() + after.len(),
        )
    }

    /// How a pairing by this key is written: (its property, its value, the pairing's
    /// basis, the operation that made it).
    pub fn pairing(&self) -> (&'static str, &str, &'static str, &'static str) {
        match self {
            ChannelKey::Prefix(prefix) => (
                "channel_prefix",
                prefix,
                "unique-channel-prefix",
                "pair-ipc-channel-prefix",
            ),
            ChannelKey::Call(call) => (
                "channel_call",
                call,
                "unique-channel-call",
                "pair-ipc-channel-call",
            ),
            ChannelKey::Template(template) => (
                "channel_template",
                template,
                "unique-channel-template",
                "pair-ipc-channel-template",
            ),
        }
    }
}

impl ImportedHelperCall {
    /// The operations the call makes through `helper`, the function (or method) it calls:
    /// each of the helper's, on the channel the call passes, with `via` naming the callee as
    /// written.
    pub fn operations(&self, helper: &ExportedIpcHelper) -> Vec<IpcOp> {
        helper
            .forwards
            .iter()
            .map(|forward| {
                let arg = self.args.get(forward.param as usize);
                let handler_kind = match (forward.handler_param, forward.handler_kind) {
                    (Some(param), _) => Some(
                        self.args
                            .get(param as usize)
                            .map_or("missing", |a| a.handler_kind),
                    ),
                    (None, kind) => kind,
                };
                let channel = arg.and_then(|a| a.channel.as_deref());
                // A channel the helper makes around an export of another module is not
                // settled: it pairs by its key.
                let around = forward.around.is_some();
                IpcOp {
                    side: forward.side,
                    operation: forward.operation,
                    mode: forward.mode,
                    channel: channel.map(|c| forward.channel(c)),
                    channel_expression: arg.map_or_else(
                        || Some("[missing-expression]".to_owned()),
                        |a| a.expression.clone(),
                    ),
                    channel_key: channel.is_none().then(|| forward.key()).flatten(),
                    choice: false,
                    each: false,
                    handler_kind,
                    channel_import: arg.filter(|_| !around).and_then(|a| a.import.clone()),
                    channel_args: None,
                    via: Some(self.callee.clone()),
                    range: self.range,
                    span: self.span,
                    handler_range: None,
                    module: self.module.clone(),
                }
            })
            .collect()
    }

    /// The schemes the call serves through `helper` (a helper of the file `roots_from`,
    /// when another file's): each of the helper's, where the call passes a string that is a
    /// scheme an application may serve itself.
    pub fn served(
        &self,
        helper: &ExportedIpcHelper,
        roots_from: Option<&str>,
    ) -> Vec<ServedScheme> {
        helper
            .serves
            .iter()
            .filter_map(|serve| {
                let scheme = self.args.get(serve.param as usize)?.channel.as_deref()?;
                crate::extract::custom_scheme(scheme).then(|| ServedScheme {
                    scheme: scheme.to_ascii_lowercase(),
                    api: serve.api,
                    serve: None,
                    roots: serve.roots.clone(),
                    roots_from: roots_from.map(str::to_owned),
                    range: self.range,
                })
            })
            .collect()
    }

    /// Whether `helper` is what the call names: the export, and the method for an instance.
    /// A whole module's import names what it exports in place (`module.exports = Ipc`,
    /// export path ``).
    pub fn calls(&self, helper: &ExportedIpcHelper) -> bool {
        self.calls_as(self.import.path.first().map_or("", String::as_str), helper)
    }

    /// [`Self::calls`], where the export the call reads is `export` in the file that
    /// exports `helper` (a re-export may rename it). A member of an export called in place
    /// (`ipc.send(…)` after `import { ipc } from "./ipc"`, export path `ipc.send`) names
    /// that method of the class or instance exported under the name; a member of a whole
    /// module, that method of what the module exports in place.
    pub fn calls_as(&self, export: &str, helper: &ExportedIpcHelper) -> bool {
        match (&self.method, self.import.path.as_slice()) {
            (None, [_, member]) if helper.method.as_ref() == Some(member) => {
                helper.export == export
            }
            // `ipc.send(…)` after `const ipc = require("./ipc")`, of a module that exports
            // an instance (or a class) in place: `module.exports = new IpcManager()`.
            (None, [member])
                if helper.export.is_empty() && helper.method.as_ref() == Some(member) =>
            {
                true
            }
            _ => helper.is(export, &self.method),
        }
    }
}

/// An argument of an [`ImportedHelperCall`], read as a channel would be, and as a handler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallArg {
    /// A string literal, or the string a name bound once stands for.
    pub channel: Option<String>,
    /// The argument as written when it is not a string literal.
    pub expression: Option<String>,
    /// A member of what another module exports.
    pub import: Option<ChannelImport>,
    pub handler_kind: &'static str,
}

/// What a dynamic channel is made of that the other side may make the same way: the key
/// it pairs by, as a candidate.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChannelKey {
    /// The string it starts with, at least [`MIN_CHANNEL_PREFIX`] bytes, when its leading
    /// parts are strings (`"prompt-post-data:" + id`, `` `${PREFIX}:${id}` ``).
    Prefix(String),
    /// The call that makes it when its arguments are strings: the function's name and
    /// those strings, `createKey("scope")` of `ipcUtil.createKey("scope")`, as
    /// @sentry/electron names its channels from a namespace given at run time.
    Call(String),
    /// Its template when it starts with a value not known, each such value written `${…}`
    /// and at least [`MIN_CHANNEL_PREFIX`] bytes of strings around them:
    /// `` `${prefix}getUser` `` is `${…}getUser`, as better-auth's Electron plugin names its
    /// channels after a prefix given at run time.
    Template(String),
}

/// What stands in a channel's template for a run of values not known.
pub const CHANNEL_HOLE: &str = "${…}";

/// Fewest bytes of strings a dynamic channel's prefix or template has to pair by.
pub const MIN_CHANNEL_PREFIX: usize = 3;

/// One IPC operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcOp {
    /// `renderer` or `main`.
    pub side: &'static str,
    pub operation: &'static str,
    /// `send`, `invoke`, `listen`, `handle` or `remove`.
    pub mode: &'static str,
    /// The channel: a string literal, or the string a name the file binds once stands for
    /// (`const GET = "settings:get"`, an enum member, a member of a constant object).
    pub channel: Option<String>,
    /// The argument as written when it is not a string literal: with `channel`, the name
    /// the channel was read through; without, a dynamic channel.
    pub channel_expression: Option<String>,
    /// For a dynamic channel: what it pairs by, as a candidate, with a registration made the
    /// same way.
    pub channel_key: Option<ChannelKey>,
    /// The channel is one of the strings a choice stands for (`flag ? "a" : "b"`, a name the
    /// function gives only strings): the call uses one of them.
    pub choice: bool,
    /// The channel is each item of the list `channel_import` names, a loop's variable over
    /// it: the operation is made once an item ([`IpcOp::settle`]).
    pub each: bool,
    pub handler_kind: Option<&'static str>,
    /// For a channel that is not known in this file: the export of another file it reads;
    /// with [`Self::channel_args`], the exported function it calls.
    pub channel_import: Option<ChannelImport>,
    /// For a channel made by a call of a function another module exports
    /// (`channel("open")` after `import { channel } from "./ipc"`): each argument's string,
    /// if it is one. The channel is what the function makes of them, once that module is
    /// read and exports a [`ChannelMaker`].
    pub channel_args: Option<Vec<Option<String>>>,
    /// The bridge member a renderer called to reach `ipcRenderer`
    /// (`window.electron.ipcRenderer.send`), for operations read through a forwarder.
    pub via: Option<String>,
    pub range: Range,
    /// The byte span of the whole call, to attach sender checks to their handler.
    pub span: (u32, u32),
    /// For a handler passed by name: where the one function the file declares under that
    /// name is written (`ipcMain.handle("open", onOpen)` and `function onOpen() {…}`).
    pub handler_range: Option<Range>,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A name a page's global scope holds for Electron's `ipcRenderer`, bound by a script the
/// page runs: at a classic script's top level (`var ipc = require("electron").ipcRenderer`),
/// or as a property of the window (`window.ipc = ipcRenderer`, which a preload that does not
/// isolate its context also gives the pages its window loads). The page's other scripts call
/// `ipcRenderer` by that name ([`GlobalCall`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageGlobal {
    pub name: String,
    /// `top-level` or `window-property`.
    pub written: &'static str,
    pub range: Range,
}

/// A call of an `ipcRenderer` method with a string channel through a name the file never
/// binds (`ipc.on("file-open", fn)`), or through the window's property of that name
/// (`window.ipc.send("x")`): the IPC operation it names where a script of the same
/// page binds the name to `ipcRenderer` ([`PageGlobal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalCall {
    /// The name called through (`ipc`).
    pub name: String,
    /// Whether the call reads it as the window's property (`window.ipc.send`).
    pub through_window: bool,
    /// The callee as written (`ipc.on`).
    pub callee: String,
    pub side: &'static str,
    pub operation: &'static str,
    pub mode: &'static str,
    pub channel: String,
    /// The channel's expression when it was read through a name of the file.
    pub channel_expression: Option<String>,
    pub handler_kind: Option<&'static str>,
    pub range: Range,
    pub span: (u32, u32),
    pub module: Option<ModuleRef>,
}

impl IpcOp {
    /// The operations this one is once the value its `channel_import` reads is known: the
    /// operation on that string; for a call of an exported function
    /// ([`IpcOp::channel_args`]), on the channel that function makes of the strings passed;
    /// or, for a loop over a list ([`IpcOp::each`]), one operation for each string the list
    /// holds (an array is the object of its indexes), read through the expression as
    /// written, at most `room` of them (taken from it). `None` when the value settles
    /// nothing (no string there, not every part of the channel a string, or no room left).
    pub fn settle(&self, value: &Constant, room: &mut usize) -> Option<Vec<IpcOp>> {
        let settled = |channel: &str| IpcOp {
            channel: Some(channel.to_owned()),
            channel_import: None,
            channel_args: None,
            channel_key: None,
            each: false,
            ..self.clone()
        };
        // A call of an exported function: the channel it makes of the strings passed.
        if let Some(args) = &self.channel_args {
            return match value {
                Constant::Maker(maker) => Some(vec![settled(&maker.made(args)?)]),
                _ => None,
            };
        }
        match (value, self.each) {
            (Constant::Str(channel), false) => Some(vec![settled(channel)]),
            (Constant::Object(items), true) => {
                let taken: Vec<IpcOp> = items
                    .iter()
                    .filter_map(|(_, item)| match item {
                        Constant::Str(channel) => Some(settled(channel)),
                        Constant::Object(_) | Constant::Maker(_) => None,
                    })
                    .take(*room)
                    .collect();
                *room -= taken.len();
                (!taken.is_empty()).then_some(taken)
            }
            _ => None,
        }
    }
}

/// Most operations a file's loops over other modules' lists become, all lists together.
pub const MAX_ITEM_OPERATIONS: usize = 4096;

impl GlobalCall {
    /// The operation the call is once its name proves to be `ipcRenderer`, with `via` naming
    /// the callee as written.
    pub fn operation(&self) -> IpcOp {
        IpcOp {
            side: self.side,
            operation: self.operation,
            mode: self.mode,
            channel: Some(self.channel.clone()),
            channel_expression: self.channel_expression.clone(),
            channel_key: None,
            choice: false,
            each: false,
            handler_kind: self.handler_kind,
            channel_import: None,
            channel_args: None,
            via: Some(self.callee.clone()),
            range: self.range,
            span: self.span,
            handler_range: None,
            module: self.module.clone(),
        }
    }
}

/// A comparison or call that may validate an IPC sender.
#[derive(Debug, Clone, PartialEq)]
pub struct SenderCheck {
    pub subject: String,
    pub mechanism: String,
    pub expected: StaticValue,
    pub offset: u32,
    pub range: Range,
}

/// A process or shell boundary: `utilityProcess.fork`, `child_process.*`, `shell.openExternal`,
/// and code run in a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessUse {
    /// `utility-process`, `child-process`, `open-external`, `remote-module`
    /// (`@electron/remote`'s `initialize()` and `enable(webContents)`) or `execute-javascript`
    /// (`executeJavaScript(code)` and `executeJavaScriptInIsolatedWorld`, the code in
    /// `expression`).
    pub kind: &'static str,
    pub api: String,
    pub target: Option<StaticPath>,
    pub expression: Option<String>,
    /// Whether the target was static: a path, or a URL written as a literal (which
    /// `open-external` keeps, redacted, in `expression`).
    pub static_target: bool,
    pub service_name: Option<String>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A native add-on request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeRequest {
    /// `require`, `import`, `re-export`, `bindings` or `node-gyp-build`.
    pub mechanism: &'static str,
    /// The `.node` path, the `bindings` name, or the `node-gyp-build` directory.
    pub specifier: String,
    pub context: &'static str,
    pub members: Vec<String>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A call through a name the file binds to a native add-on request (`const addon =
/// require("./x.node"); … addon.open()`, or `open()` after `const { open } = require(…)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeUse {
    /// The request, as an index into [`JsFacts::native`].
    pub request: u32,
    /// The export called, where the call names one.
    pub member: Option<String>,
    pub range: Range,
}

/// In a file that uses Electron, a call of a function another module exports
/// (`projects.open(name)` after `const projects = require("./projects")`, `open()` after
/// `import { open } from "./projects"`, `(0, o.open)()` after `var o = n(12)` in a bundle
/// factory): where the code calls into that module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedUse {
    pub import: ChannelImport,
    pub range: Range,
}

/// In a file that uses Electron, a call of a function by its name where the file declares
/// exactly one function under that name (`() => openFile()` and `function openFile() {…}`):
/// the code of the function is what the call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalCall {
    pub range: Range,
    pub function: Range,
}

/// A file the main process hands to a renderer: `loadFile(...)` / `loadURL(...)` (a renderer
/// role), or a preload outside a window's options (`preload-property`, a session's
/// `setPreloads` or `registerPreloadScript`: a preload role).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RendererLoad {
    /// `loadFile`, `loadURL`, `preload-property`, `setPreloads`, `registerPreloadScript`, or
    /// `electron-launch` (a script Node.js code runs Electron with: a main process).
    pub api: &'static str,
    pub target: String,
    pub context: &'static str,
    /// The window of this file that loads it, by its index in [`JsFacts::windows`]: a
    /// `loadFile`/`loadURL` called on the name the window is held by, in a scope that sees
    /// that binding (`win.loadFile(…)`, `win.webContents.loadURL(…)`,
    /// `new BrowserWindow(…).loadURL(…)`).
    pub window: Option<u32>,
    pub range: Range,
    /// The module factory it sits in, if any.
    pub module: Option<ModuleRef>,
}

/// A URL scheme the application serves itself: `protocol.handle(scheme, …)` or
/// `protocol.register{File,Buffer,String,Stream}Protocol(scheme, …)` (and their
/// `intercept…` twins), on the default session's `protocol` or another's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedScheme {
    /// Lower case, as URLs compare schemes.
    pub scheme: String,
    /// The method: `handle`, `registerFileProtocol`, …, or `electron-serve`.
    pub api: &'static str,
    /// What `electron-serve` was told to serve; `None` for Electron's own methods, whose
    /// handler is code.
    pub serve: Option<ServeOptions>,
    /// For a handler written in the call, the directories it builds its paths on before the
    /// request's own part (`path.join(__dirname, "dist", pathname)` gives `dist`, beside this
    /// file; `/out` for one under `app.getAppPath()`): where it likely serves from, though it
    /// was not run.
    pub roots: Vec<StaticPath>,
    /// The file [`Self::roots`] are read from when it is not the one that holds this: the
    /// file of a helper another file exports, which the call of it serves through.
    pub roots_from: Option<String>,
    pub range: Range,
}

/// A call that registers a URL scheme with Electron, other than one that serves a scheme kept
/// as a [`ServedScheme`]: privileges granted (`protocol.registerSchemesAsPrivileged([{scheme,
/// privileges}])`, one for each scheme it lists, and Electron 4's `registerStandardSchemes`
/// and `registerServiceWorkerSchemes`), the application made the system's handler of a scheme
/// (`app.setAsDefaultProtocolClient(scheme)`, how deep links reach it), and a `protocol`
/// method given a scheme that is the web's or the file system's (`interceptFileProtocol("file",
/// …)`, `handle("https", …)`), not written as a string, or forwarded
/// (`registerHttpProtocol`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemeRegistration {
    /// The method called.
    pub api: &'static str,
    /// Lower case; `None` when it is not a string the call writes or names.
    pub scheme: Option<String>,
    /// The privileges granted, sorted: the members set to `true` of a listed scheme's
    /// `privileges`; `standard` and `allowServiceWorkers` for the older methods.
    pub privileges: Vec<String>,
    pub range: Range,
}

/// A `loadFile`/`loadURL` whose target is built on strings other files export:
/// `win.loadURL(`${Protocol.scheme}://rse/index.html`)` after
/// `const Protocol = require("./protocol")`. Settled once every file is read (the graph
/// stage's `settle_imports`, through [`ImportedLoad::settle`]); one whose parts do not all
/// resolve to strings is dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedLoad {
    /// The load, its `target` empty until settled.
    pub load: RendererLoad,
    /// The target's parts, in order; at least one is imported.
    pub parts: Vec<LoadPart>,
}

/// A part of an [`ImportedLoad`]'s target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadPart {
    Text(String),
    Import(ChannelImport),
}

/// What an [`ImportedLoad`] is once its parts are strings.
#[derive(Debug, Clone, PartialEq)]
pub enum SettledLoad {
    /// A page of the application, or of a scheme it may serve.
    Load(RendererLoad),
    /// A URL of the web: an endpoint, its value redacted.
    Endpoint(Observation),
}

impl ImportedLoad {
    /// The load once `string` gives each imported part its string; `None` if one has none.
    pub fn settle(&self, string: impl Fn(&ChannelImport) -> Option<String>) -> Option<SettledLoad> {
        let mut target = String::new();
        for part in &self.parts {
            match part {
                LoadPart::Text(text) => target.push_str(text),
                LoadPart::Import(import) => target.push_str(&string(import)?),
            }
        }
        if self.load.api == "loadURL" && crate::extract::web_url(&target) {
            return Some(SettledLoad::Endpoint(Observation {
                family: "endpoint",
                kind: "loadURL".to_owned(),
                value: Some(crate::redact::url(&target)),
                range: self.load.range,
                module: self.load.module.clone(),
            }));
        }
        Some(SettledLoad::Load(RendererLoad {
            target,
            ..self.load.clone()
        }))
    }
}

/// A scheme the application serves, named by a string another file exports:
/// `protocol.registerBufferProtocol(Protocol.scheme, …)`. Settled as an [`ImportedLoad`] is.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedScheme {
    /// The scheme served, its `scheme` empty until settled.
    pub served: ServedScheme,
    pub import: ChannelImport,
}

impl ImportedScheme {
    /// The served scheme once `string` gives the import its string, if that is a scheme an
    /// application may serve itself.
    pub fn settle(
        &self,
        string: impl Fn(&ChannelImport) -> Option<String>,
    ) -> Option<ServedScheme> {
        let scheme = string(&self.import)?;
        crate::extract::custom_scheme(&scheme).then(|| ServedScheme {
            scheme: scheme.to_ascii_lowercase(),
            ..self.served.clone()
        })
    }
}

/// The options of an `electron-serve` call, `serve({directory, file})`: it serves the files
/// under `directory` (resolved against the application's root), a directory by its
/// `<file>.html`, and `<file>.html` of the served directory for any other path without an
/// extension (or ending in `.html` or `.asar`) that names no file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ServeOptions {
    /// `None` when it is not a literal.
    pub directory: Option<String>,
    /// The file name without `.html`; `None` when it is not a literal.
    pub file: Option<String>,
}

/// A handler the main process installs on what renderers may do: the controls of Electron's
/// security checklist (limit navigation, limit new windows, handle permission requests,
/// check webviews before they attach), and what decides on certificates (a verification
/// procedure of its own, a listener for certificate errors, a certificate imported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityHandler {
    /// `setWindowOpenHandler`, `setPermissionRequestHandler`, `setPermissionCheckHandler`,
    /// `setDevicePermissionHandler`, `setDisplayMediaRequestHandler`,
    /// `setCertificateVerifyProc`, `importCertificate`, or the event a listener is added for:
    /// `will-navigate`, `will-frame-navigate`, `will-redirect`, `new-window` (removed in
    /// Electron 22), `will-attach-webview`, `web-contents-created`, `certificate-error`.
    pub api: &'static str,
    /// `function` (a function written there), `reference` (a name or member), `null` (the
    /// handler removed) or `other`.
    pub handler: &'static str,
    pub range: Range,
}

/// What electron-updater's configuration file (`app-update.yml`) says: its top-level keys
/// (`provider`, `url`, `owner`, `repo`, `channel`, `publisherName`, …) in file order, each
/// with a string or a list of strings (nested mappings are left out). A URL is redacted as
/// endpoints are; the value of a key that names a credential (`token`, `password`,
/// `secret`, …) is never kept, only the key.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UpdateConfig {
    pub fields: Vec<(String, UpdateValue)>,
    /// Keys whose values are credentials the file carries (`token` for a private GitHub
    /// repository), their values redacted.
    pub credential_keys: Vec<String>,
    /// Keys left out at the bounds, or because their values are mappings or aliases.
    pub omitted: u64,
}

/// A value of [`UpdateConfig`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateValue {
    Text(String),
    List(Vec<String>),
}

/// Where the operating system hands the running application outside input: a listener on
/// Electron's `app` for a deep link (`open-url` on macOS; `second-instance`, with the command
/// line of another launch, elsewhere), a file opened with the application (`open-file`), an
/// activity continued from another device (`continue-activity`), and the single-instance lock
/// that sends later launches to `second-instance`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchInput {
    /// `open-url`, `open-file`, `second-instance`, `continue-activity`,
    /// `requestSingleInstanceLock`, or `process.argv` (a read of the command line the process
    /// was launched with, which carries a deep link or a file to open on Windows and Linux).
    pub api: &'static str,
    /// For a listener, as [`SecurityHandler::handler`]; `None` for the lock and a read.
    pub handler: Option<&'static str>,
    pub range: Range,
}

/// A switch the main process adds to the command line Chromium and Node.js read:
/// `app.commandLine.appendSwitch(name, value?)`, `app.commandLine.appendArgument("--name=v")`,
/// and `app.enableSandbox()`, which Electron carries out as the `enable-sandbox` switch. Some
/// weaken the application's defences (`no-sandbox`, `ignore-certificate-errors`,
/// `remote-debugging-port`); which is decided where the summary is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLineSwitch {
    /// `appendSwitch`, `appendArgument` or `enableSandbox`.
    pub api: &'static str,
    /// The switch's name without its leading dashes (`no-sandbox`), when it is written as a
    /// string or a constant.
    pub switch: Option<String>,
    /// Its value: `appendSwitch`'s second argument, or what follows `=` in an argument.
    pub value: Option<String>,
    /// The source of an argument that is neither a string nor a constant (cut short).
    pub dynamic: Option<String>,
    pub range: Range,
}

/// One export a file declares at its top level (`rea-export-shape-v1`; see
/// `extract::shapes`).
#[derive(Debug, Clone, PartialEq)]
pub struct ExportShape {
    /// The exported name; `default` for a default export and for a whole CommonJS export.
    pub name: String,
    /// `esm` or `commonjs`.
    pub syntax: &'static str,
    /// `function`, `class`, `value` or `re-export`.
    pub kind: &'static str,
    pub is_async: bool,
    pub generator: bool,
    /// Parameters before the first default or rest parameter (a function's `length`).
    pub arity: Option<u32>,
    /// A function's return variants, or a value's one shape (JSON shapes).
    pub shapes: Vec<serde_json::Value>,
    /// Whether a bound was reached.
    pub partial: bool,
    /// Why the shapes may be incomplete, sorted and unique.
    pub limitations: Vec<&'static str>,
    /// A re-export's specifier and imported name (`None` for a namespace).
    pub from: Option<String>,
    pub imported: Option<String>,
    /// Where the export is written.
    pub range: Range,
    /// For a function: where the function itself is written (for an export by a name or a
    /// getter, `n.d(t, {x: () => x})`, the function that name is bound to), whose code is what
    /// a call of the export does.
    pub body: Option<Range>,
}

/// One node of a file's semantic relations (see `extract::semantics`): what it is, where it is
/// written, and the function it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticNode {
    /// One of the semantic node kinds (`module`, `function`, `binding`, `call-site`…).
    pub kind: &'static str,
    /// Byte offsets in the file; `None` for a node that stands for every use in the file (a
    /// literal, an event name, a property slot, a configuration source).
    pub offsets: Option<(u32, u32)>,
    pub range: Option<Range>,
    /// What the node is within its kind and place (`binding:path`, `call:fetch`…), at most
    /// 1024 bytes.
    pub role_key: String,
    /// The index of the function (or module) node it belongs to, if not itself the module.
    pub function: Option<u32>,
    pub label: String,
    /// Sorted by key.
    pub properties: Vec<(&'static str, serde_json::Value)>,
}

/// A relation between two of a file's semantic nodes, by their indices.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticRelation {
    pub source: u32,
    pub target: u32,
    pub relation: &'static str,
    /// Whether the target is the only one the syntax allows (`resolved`), or one of several
    /// (`candidate`).
    pub resolved: bool,
    /// Sorted by key.
    pub properties: Vec<(&'static str, serde_json::Value)>,
    pub range: Option<Range>,
}

/// Where a file's semantic relations stop being known: a dynamic call or property, generated
/// code, an ambiguous target, or a bound.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticUnknown {
    pub node: Option<u32>,
    pub family: &'static str,
    /// Sorted and unique.
    pub relation_kinds: Vec<&'static str>,
    pub reason: &'static str,
    pub detail: String,
    /// Node indices, sorted and unique.
    pub candidates: Vec<u32>,
    pub range: Option<Range>,
}

/// A module's import of a name another file exports, for links across files.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticImport {
    /// The binding it is imported into.
    pub binding: u32,
    pub specifier: String,
    /// The exported name, `default`, or `None` for the whole module (`require`, `* as`).
    pub name: Option<String>,
}

/// A call of a binding another module's export was imported into, for links across files.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticCall {
    pub site: u32,
    pub binding: u32,
    /// Each argument's value sources.
    pub arguments: Vec<Vec<u32>>,
}

/// A file's semantic relations (`rea-javascript-semantic-relations/v1`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SemanticFacts {
    /// Node 0 is the module.
    pub nodes: Vec<SemanticNode>,
    pub relations: Vec<SemanticRelation>,
    pub unknowns: Vec<SemanticUnknown>,
    pub imports: Vec<SemanticImport>,
    /// Calls of imported bindings.
    pub imported_calls: Vec<SemanticCall>,
    /// Names the module exports, with the node each stands for (a function for a binding
    /// that holds only one).
    pub exports: Vec<(String, u32)>,
    /// Items a per-file bound left out.
    pub omitted_nodes: u64,
    pub omitted_relations: u64,
    pub omitted_unknowns: u64,
    /// Whether the walk stopped early (a bound, or cancellation).
    pub truncated: bool,
}

/// Everything read from one JavaScript file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JsFacts {
    pub module_syntax: bool,
    pub bundles: Vec<Bundle>,
    /// The external modules this file's bundle tables define, by factory key, sorted
    /// (`("157", "electron")` for `157: e => { e.exports = require("electron") }`): what
    /// chunks in other files of the build require by key.
    pub externals: Vec<(String, &'static str)>,
    pub references: Vec<Reference>,
    pub observations: Vec<Observation>,
    pub vendor_markers: Vec<&'static str>,
    pub windows: Vec<Window>,
    pub bridges: Vec<Bridge>,
    pub ipc: Vec<IpcOp>,
    pub sender_checks: Vec<SenderCheck>,
    pub processes: Vec<ProcessUse>,
    pub native: Vec<NativeRequest>,
    /// Calls through names bound to those requests.
    pub native_uses: Vec<NativeUse>,
    /// Calls of functions other modules export, in a file that uses Electron.
    pub imported_uses: Vec<ImportedUse>,
    /// Calls of the file's own functions by name, in a file that uses Electron.
    pub local_calls: Vec<LocalCall>,
    pub renderer_loads: Vec<RendererLoad>,
    /// Names the file binds to `ipcRenderer` for the pages that run it ([`PageGlobal`]).
    pub page_globals: Vec<PageGlobal>,
    /// Calls of `ipcRenderer`'s methods through names the file never binds ([`GlobalCall`]),
    /// unsettled: IPC operations once a script of the same page proves to bind the name.
    pub global_calls: Vec<GlobalCall>,
    /// Calls through the window that may reach a bridge member (see [`WindowCall`]).
    pub window_calls: Vec<WindowCall>,
    /// Strings (and objects of them) the file exports under a name: `export const X = "x"`,
    /// `exports.X = "x"`, `module.exports = {…}`, an exported enum. In export order; a
    /// later export of a name replaces an earlier one.
    pub exported_constants: Vec<(String, Constant)>,
    /// esbuild wrapper helpers the file exports, by exported name (a split build's shared
    /// chunk: `export { f as a }`).
    pub exported_helpers: Vec<(String, Wrapper)>,
    /// API objects the file exports, for bridges in other files ([`ExportedApi`]).
    pub exported_apis: Vec<ExportedApi>,
    /// Modules wrapped by a helper imported from another file, unsettled
    /// ([`ImportedWrapper`]).
    pub imported_wrappers: Vec<ImportedWrapper>,
    /// Functions the file exports that forward a parameter as an IPC channel
    /// ([`ExportedIpcHelper`]), for calls in other files.
    pub exported_ipc_helpers: Vec<ExportedIpcHelper>,
    /// Calls of functions other files export, with a string among their arguments, unsettled
    /// ([`ImportedHelperCall`]): IPC operations once the function proves to forward one.
    pub imported_helper_calls: Vec<ImportedHelperCall>,
    /// Content-Security-Policy response headers the code writes.
    pub csp_headers: Vec<HeaderPolicy>,
    /// URL schemes the code serves through Electron's `protocol` module.
    pub served_schemes: Vec<ServedScheme>,
    /// The other calls that register a URL scheme with Electron ([`SchemeRegistration`]).
    pub scheme_registrations: Vec<SchemeRegistration>,
    /// Renderer loads whose target is built on strings other files export, unsettled
    /// ([`ImportedLoad`]).
    pub imported_loads: Vec<ImportedLoad>,
    /// Served schemes another file's export names, unsettled ([`ImportedScheme`]).
    pub imported_schemes: Vec<ImportedScheme>,
    /// Navigation, new-window, permission and webview handlers the code installs.
    pub security_handlers: Vec<SecurityHandler>,
    /// Listeners for deep links, opened files and later launches, and the single-instance
    /// lock ([`LaunchInput`]).
    pub launch_inputs: Vec<LaunchInput>,
    /// Switches the main process adds to its command line ([`CommandLineSwitch`]).
    pub command_line_switches: Vec<CommandLineSwitch>,
    /// `<webview>` tags the code writes ([`HtmlWebview`]), in text order, at most 64.
    pub webviews: Vec<HtmlWebview>,
    /// URLs the source-map directives name, except inline (`data:`) ones.
    pub source_map_urls: Vec<String>,
    /// Source maps the directives carry inline, as `data:` URLs.
    pub inline_source_maps: Vec<InlineSourceMap>,
    /// Top-level exports with their shapes, in the order written.
    pub export_shapes: Vec<ExportShape>,
    /// Whether the file wrote more exports than were read.
    pub export_shapes_truncated: bool,
    /// The specifiers of the modules it re-exports whole at its top level (`export * from
    /// "m"`, and as compilers write that in CommonJS), in the order written: what another
    /// file imports from it by a name it does not export itself may be theirs.
    pub star_exports: Vec<String>,
    /// Its semantic relations, when the file was among those read for them.
    pub semantics: Option<Box<SemanticFacts>>,
    /// Findings not kept because `max_findings` was reached.
    pub dropped_findings: u64,
    /// Module factories not kept because `max_modules` was reached.
    pub dropped_modules: u64,
    /// Dynamic facts (channels, specifiers, options) that stayed expressions.
    pub dynamic_findings: u64,
}

/// What one selected file yielded.
#[derive(Debug, Clone, PartialEq)]
pub struct FileFacts {
    pub path: String,
    pub sha256: Option<String>,
    pub bytes: u64,
    pub kind: FileKind,
    pub unpacked: bool,
    pub text: TextStatus,
    pub parse: ParseStatus,
    /// Parser and reader diagnostics, at most 8.
    pub diagnostics: Vec<String>,
    pub visited_nodes: u64,
    pub package: Option<PackageFacts>,
    /// Top-level keys of a JSON module (at most 64) and how many more there were.
    pub json_keys: Option<(Vec<String>, u64)>,
    /// What an update configuration says ([`FileKind::UpdateConfig`]).
    pub update_config: Option<UpdateConfig>,
    pub html: Vec<HtmlScript>,
    /// The content security policies an HTML page declares in meta tags, if any.
    pub csp: Option<PageCsp>,
    /// Inline scripts an HTML page holds, and how many of them were read as code (those that
    /// did not parse are not).
    pub inline_scripts: (u32, u32),
    /// The `<webview>` tags an HTML page holds, in text order.
    pub webviews: Vec<HtmlWebview>,
    pub source_map: Option<SourceMapFacts>,
    pub js: JsFacts,
    /// Whether its semantic relations are read (a JavaScript file within the semantic
    /// budget; see [`crate::SEMANTIC_SOURCE_BYTES`]).
    pub semantic: bool,
}

impl FileFacts {
    /// The `<webview>` tags of the file: a page's markup's, then those its code writes (a
    /// page's inline scripts', a script's).
    pub fn all_webviews(&self) -> impl Iterator<Item = &HtmlWebview> {
        self.webviews.iter().chain(&self.js.webviews)
    }

    /// A file with nothing read yet.
    pub fn new(path: String, sha256: Option<String>, bytes: u64, kind: FileKind) -> FileFacts {
        FileFacts {
            path,
            sha256,
            bytes,
            kind,
            unpacked: false,
            text: TextStatus::NotApplicable,
            parse: ParseStatus::NotParsed,
            diagnostics: Vec::new(),
            visited_nodes: 0,
            package: None,
            json_keys: None,
            update_config: None,
            html: Vec::new(),
            csp: None,
            inline_scripts: (0, 0),
            webviews: Vec::new(),
            source_map: None,
            js: JsFacts::default(),
            semantic: true,
        }
    }
}
