//! Static fact extraction: one pre-order walk over a parsed file. Nothing is evaluated.
//!
//! A pre-pass ([`prepass`]) collects what the walk needs to know ahead: scoped aliases of
//! `electron`, `child_process`, `bindings` and `node-gyp-build` exports, webpack runtime
//! module tables and esbuild wrappers.

mod amd;
mod bundle;
mod choices;
mod constants;
mod electron;
pub(crate) use electron::{custom_scheme, web_url};
pub(crate) mod evals;
mod globals;
mod globs;
mod loops;
pub(crate) mod names;
mod parcel;
mod prepass;
pub(crate) mod semantics;
pub(crate) mod shapes;
mod templates;
mod webviews;
mod window_loads;
mod windows;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use swc_common::Spanned;
use swc_ecma_ast::{
    AssignTarget, BinExpr, CallExpr, Callee, Expr, ImportSpecifier, ModuleDecl, ModuleExportName,
    NewExpr, ObjectLit, ObjectPatProp, Pat, Program, Prop, PropOrSpread, SimpleAssignTarget, Stmt,
    VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

pub use bundle::FINGERPRINT_ALGORITHM;
use bundle::{Body, Factory};
use names::{callee_name, dotted, named, static_path, string, unwrap};
use prepass::{
    Aliases, Scoped, Scopes, aliased_module, normalize, require_call_spec, require_spec,
};
pub use semantics::{
    ALGORITHM as SEMANTIC_ALGORITHM, MAX_FILE_NODES as MAX_FILE_SEMANTIC_NODES,
    MAX_FILE_RELATIONS as MAX_FILE_SEMANTIC_RELATIONS,
    MAX_FILE_UNKNOWNS as MAX_FILE_SEMANTIC_UNKNOWNS,
};
pub use shapes::{ALGORITHM as EXPORT_SHAPE_ALGORITHM, MAX_EXPORTS as MAX_FILE_EXPORTS};

use crate::facts::{
    Bundle, HeaderPolicy, InlineSourceMap, JsFacts, ModuleKey, ModuleRef, NativeRequest, NativeUse,
    Observation, Reference, RendererLoad, SourceMapFacts, StaticPath,
};
use crate::source::{Source, cut};

/// Longest content security policy kept.
const MAX_POLICY: usize = 4096;
/// Longest chain of re-exports followed from one factory to another (a barrel of barrels).
const MAX_REEXPORT_HOPS: usize = 8;
/// Most strings re-exports add to a file's factories: past it, the rest stay unread (a
/// channel read through them stays dynamic), so that many stars of a large module cannot
/// multiply it.
const MAX_REEXPORTED: usize = 65_536;

/// Per-file bounds.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub max_findings: u64,
    pub max_modules: u64,
    pub max_ast_nodes: u64,
}

/// How source maps are read: their sources and content digests too, or only their counts.
#[derive(Clone, Copy)]
pub struct MapOptions {
    pub contents: bool,
    pub max_sources: usize,
}

/// What the walk returns besides the facts.
pub(crate) struct Walk {
    pub facts: JsFacts,
    pub visited_nodes: u64,
    /// The AST-node bound stopped the walk.
    pub truncated: bool,
}

/// A bundle the walk gathers from registrations as it meets them, one per file and kind:
/// AMD's named defines, Parcel 2's `register` calls.
struct Gathered {
    /// Its index in [`JsFacts::bundles`].
    bundle: u32,
    /// Where the first registration starts and the last ends.
    lo: swc_common::BytePos,
    hi: swc_common::BytePos,
    /// The keys registered so far.
    keys: HashSet<String>,
}

impl Gathered {
    /// The gathered bundle in `slot`, made (bundler, runtime, shape) on the first registration,
    /// extended to `span`.
    fn at<'g>(
        slot: &'g mut Option<Gathered>,
        bundles: &mut Vec<Bundle>,
        source: &Source<'_>,
        kind: (&'static str, &str, &'static str),
        span: swc_common::Span,
    ) -> &'g mut Gathered {
        let gathered = slot.get_or_insert_with(|| {
            let (bundler, runtime, shape) = kind;
            bundles.push(Bundle {
                bundler,
                runtime: runtime.to_owned(),
                shape,
                chunk_keys: Vec::new(),
                unknown_chunk_keys: 0,
                entry_module_keys: Vec::new(),
                range: source.range(span),
                modules: Vec::new(),
                unknown_modules: 0,
                async_chunks: Vec::new(),
                entry_requires: Vec::new(),
            });
            Gathered {
                bundle: (bundles.len() - 1) as u32,
                lo: span.lo,
                hi: span.hi,
                keys: HashSet::default(),
            }
        });
        gathered.hi = gathered.hi.max(span.hi);
        gathered
    }

    /// Sets the bundle's range to span its registrations.
    fn close(&self, bundles: &mut [Bundle], source: &Source<'_>) {
        bundles[self.bundle as usize].range =
            source.range(swc_common::Span::new(self.lo, self.hi.max(self.lo)));
    }
}

/// The ids one AMD module names, normalized against its own.
struct Pending {
    /// Its index in the bundle.
    index: usize,
    /// The dependencies it declares, with where each is written.
    declared: Vec<(String, swc_common::Span)>,
    /// What its factory's `require("…")` calls name.
    required: Vec<String>,
    /// What its factory's `require([…], callback)` calls load.
    loaded: Vec<String>,
}

const VENDOR_MARKERS: &[(&str, &[&str])] = &[
    ("angular", &["ɵɵdefineComponent"]),
    ("bytenode", &["bytenode"]),
    ("esbuild", &["__commonJS", "__esm("]),
    ("nextjs", &["__NEXT_DATA__", "/_next/"]),
    ("parcel", &["parcelRequire"]),
    (
        "react",
        &[
            "React.createElement",
            "react/jsx-runtime",
            "__SECRET_INTERNALS_DO_NOT_USE",
        ],
    ),
    ("rollup", &["ROLLUP_FILE_URL", "import.meta.ROLLUP"]),
    ("rspack", &["__rspack_", "rspackChunk"]),
    ("svelte", &["svelte/internal"]),
    ("vite", &["__vite__", "import.meta.hot"]),
    ("vue", &["__VUE__", "createApp("]),
    (
        "webpack",
        &["__webpack_require__", "webpackChunk", "webpackJsonp"],
    ),
];

/// The relative specifier a static path anchored at the file's own directory stands for
/// (`path.join(__dirname, "lib/a.js")` is `./lib/a.js`); none for other anchors, absolute
/// paths and native add-ons (read as add-on requests).
fn relative_specifier(path: &StaticPath) -> Option<String> {
    if path.context != "filesystem-expression"
        || path.path.starts_with('/')
        || is_native_spec(&path.path)
    {
        return None;
    }
    Some(if path.path.starts_with("../") {
        path.path.clone()
    } else {
        format!("./{}", path.path)
    })
}

/// External modules of a bundle by factory key: `157 → "electron"` where the factory of key
/// 157 is `e.exports = require("electron")`, as webpack writes an external. A chunk's
/// factories require the externals its entry chunk (another file) defines; the parse stage
/// hands those to the chunk's second reading (see `stage::run`).
pub type Externals = HashMap<String, &'static str>;

/// Walks `program`; `cancelled` is polled every 4096 nodes. `foreign` names the externals
/// other files of the build define.
pub(crate) fn extract(
    source: &Source<'_>,
    program: &Program,
    budget: Budget,
    maps: MapOptions,
    semantic: bool,
    foreign: &Externals,
    cancelled: &dyn Fn() -> bool,
) -> Walk {
    let scan = scan_text(source.text);
    let looks = scan.looks;
    let mut pre = prepass::run(program, looks, foreign);
    let mut externals: Vec<(String, &'static str)> = pre
        .externals
        .iter()
        .filter(|(key, _)| !foreign.contains_key(*key))
        .map(|(key, &module)| (key.clone(), module))
        .collect();
    externals.sort_unstable();
    let mut facts = JsFacts {
        externals,
        module_syntax: matches!(program, Program::Module(m) if m.body.iter().any(|i| i.is_module_decl())),
        exported_constants: std::mem::take(&mut pre.exported),
        exported_helpers: std::mem::take(&mut pre.exported_helpers),
        ..JsFacts::default()
    };
    (
        facts.export_shapes,
        facts.export_shapes_truncated,
        facts.star_exports,
    ) = shapes::read(source, program);
    if semantic {
        facts.semantics = Some(Box::new(semantics::read(source, program, cancelled)));
    }
    facts.vendor_markers = scan.vendors;
    facts.source_map_urls = scan.urls;
    facts.inline_source_maps = inline_maps(&scan.inline, maps);
    facts.dropped_findings += scan.dropped;
    let mut walker = Extractor {
        source,
        budget,
        cancelled,
        facts,
        aliases: pre.aliases,
        anchors: pre.anchors,
        paths: pre.paths,
        constants: pre.constants,
        assignments: pre.assignments,
        choices: pre.choices.finish(),
        imports: pre.imports,
        runtime_requires: pre.runtime_requires,
        esbuild_bundles: HashMap::default(),
        factory_strings: HashMap::default(),
        factory_reexports: Vec::new(),
        factory_stars: Vec::new(),
        factory_helpers: HashMap::default(),
        factory_requires: Vec::new(),
        factory_exports: Vec::new(),
        factory_apis: HashMap::default(),
        pending_getters: Vec::new(),
        member_paths: pre.member_paths,
        scopes: Scopes::default(),
        tables: pre.tables,
        esbuild: pre.esbuild,
        wrapper_calls: pre.wrapper_calls,
        inline_wrappers: pre.inline_wrappers,
        pending_wrapper_imports: Vec::new(),
        wrapper_bundler: if pre.rolldown_helpers {
            "rolldown"
        } else {
            "esbuild"
        },
        imported_calls: pre.imported_calls,
        vite_deps: std::mem::take(&mut pre.vite_deps),
        esm_chunk_ids: pre.esm_chunk_ids.unwrap_or_default(),
        esm_tables: pre.esm_tables,
        object_names: pre.object_names,
        option_functions: pre.option_functions,
        option_scopes: HashMap::default(),
        option_returns: HashMap::default(),
        pending_windows: Vec::new(),
        window_holders: window_loads::Holders::default(),
        call_holders: Vec::new(),
        function_scopes: HashMap::default(),
        window_returns: Vec::new(),
        window_starts: HashMap::default(),
        pending_loads: Vec::new(),
        electron: pre.electron,
        webview_text: looks.webview,
        markup_span: None,
        searched_chain: None,
        dom_webview: None,
        markup_binding: None,
        markup_names: HashMap::default(),
        calls_traced: pre.electron || pre.child_process,
        ipc_main: looks.ipc_main,
        ipc_renderer: looks.ipc_renderer,
        renderer_events: Vec::new(),
        reads_ipc: pre.electron || looks.ipc_renderer || looks.ipc_main,
        tables_named: Scoped::default(),
        listed: Scoped::default(),
        loop_channels: Scoped::default(),
        table_apis: Scoped::default(),
        iterated_tables: pre.iterated_tables,
        loop_tables: Scoped::default(),
        helpers: pre.helpers,
        makers: pre.makers,
        member_makers: pre.member_makers,
        handler_roots: pre.handler_roots,
        class_helpers: pre.class_helpers,
        helper_exports: std::mem::take(&mut pre.helper_exports),
        instances: Scoped::default(),
        exposes: pre.exposes,
        api_exports: std::mem::take(&mut pre.api_exports),
        literal_apis: Vec::new(),
        strings: pre.strings,
        parcel_names: pre.parcel,
        amd: None,
        amd_pending: Vec::new(),
        parcel: None,
        named_objects: Scoped::default(),
        returned_objects: Scoped::default(),
        first_items: Scoped::default(),
        returned_by: Scoped::default(),
        pending_returns: Vec::new(),
        named_options: Scoped::default(),
        stack: Vec::new(),
        window_classes: Vec::new(),
        nodes: 0,
        stop: false,
        truncated: false,
        findings: 0,
        modules: 0,
        seen: HashSet::default(),
        native_members: HashMap::default(),
        native_locals: HashMap::default(),
        named_functions: HashMap::default(),
        named_handlers: Vec::new(),
        local_calls: Vec::new(),
        native_mechanism: HashMap::default(),
        serve_loaders: HashMap::default(),
        bridge_functions: Vec::new(),
        forwarding: Vec::new(),
        claimed_tables: HashSet::default(),
    };
    program.visit_with(&mut walker);
    walker.finish_amd();
    walker.finish_returned_bridges();
    walker.finish_forwarders();
    walker.finish_named_handlers();
    walker.finish_windows();
    walker.finish_window_loads();
    walker.finish_exported_apis();
    walker.finish_factory_helper_calls();
    walker.finish_factory_channels();
    walker.finish_global_calls(program);
    if let Some(parcel) = walker.parcel.take() {
        parcel.close(&mut walker.facts.bundles, source);
    }
    Walk {
        visited_nodes: walker.nodes,
        truncated: walker.truncated,
        facts: walker.facts,
    }
}

/// Directives that name a source map.
const SOURCE_MAP_DIRECTIVES: &[&str] = &["//# sourceMappingURL=", "//@ sourceMappingURL="];

/// Needles of the text scan that only say whether the text holds them ([`prepass::Looks`]).
/// `parcelRequire` is a vendor marker already, and `__vite__mapDeps` starts with one
/// (`__vite__`): both are read off those hits.
const LOOK_NEEDLES: &[&str] = &["define(", "ipcRenderer", "ipcMain", "webview"];

/// Whose a needle of the text scan is.
#[derive(Clone, Copy)]
enum Needle {
    Vendor(usize),
    Directive,
    /// An index into [`LOOK_NEEDLES`].
    Look(usize),
}

/// What the text scan finds.
struct Scan<'t> {
    /// What the text holds that calls for more of the pre-pass.
    looks: prepass::Looks,
    /// Vendors whose markers occur, in [`VENDOR_MARKERS`] order.
    vendors: Vec<&'static str>,
    /// Source-map URLs the directives name, sorted and unique, except `data:` ones.
    urls: Vec<String>,
    /// The `data:` URLs, whole, in text order.
    inline: Vec<&'t str>,
    /// `data:` URLs past [`MAX_INLINE_MAPS`].
    dropped: u64,
}

/// Most source-map URLs read from one file.
const MAX_MAP_URLS: usize = 16;
/// Most inline source maps read from one file: an `eval-source-map` build carries one per
/// module. The rest are counted as dropped findings, which makes the file truncated.
const MAX_INLINE_MAPS: usize = 10_000;

/// One pass over the raw text for every needle at once: vendor markers, source-map
/// directives, and what calls for more of the pre-pass ([`prepass::Looks`]). A directive's URL ends at whitespace,
/// or at a backslash or quote: a directive inside a string literal (an `eval` devtool's
/// module string) ends where the string's own escapes start.
fn scan_text(text: &str) -> Scan<'_> {
    static MATCHER: std::sync::LazyLock<(aho_corasick::AhoCorasick, Vec<Needle>)> =
        std::sync::LazyLock::new(|| {
            let (mut needles, mut owners) = (Vec::new(), Vec::new());
            for (i, (_, list)) in VENDOR_MARKERS.iter().enumerate() {
                needles.extend(list.iter().copied());
                owners.extend(std::iter::repeat_n(Needle::Vendor(i), list.len()));
            }
            needles.extend(SOURCE_MAP_DIRECTIVES.iter().copied());
            owners.extend(std::iter::repeat_n(
                Needle::Directive,
                SOURCE_MAP_DIRECTIVES.len(),
            ));
            needles.extend(LOOK_NEEDLES.iter().copied());
            owners.extend((0..LOOK_NEEDLES.len()).map(Needle::Look));
            // Leftmost-first lets the crate search with its SIMD prefilter (Teddy): ten times
            // the speed of the DFA on real code. No needle is a prefix of another, so every
            // occurrence is still found (`__vite__mapDeps` is read off `__vite__`'s hits, not
            // searched for itself).
            let matcher = aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(needles)
                .expect("the needles are fixed");
            (matcher, owners)
        });
    let (matcher, owners) = &*MATCHER;
    let mut found = [false; VENDOR_MARKERS.len()];
    let mut looks = prepass::Looks::default();
    let (mut urls, mut inline, mut dropped) = (Vec::new(), Vec::new(), 0);
    for hit in matcher.find_iter(text) {
        match owners[hit.pattern().as_usize()] {
            Needle::Vendor(vendor) => {
                found[vendor] = true;
                let needle = &text[hit.start()..hit.end()];
                looks.parcel |= needle == "parcelRequire";
                looks.vite |= needle == "__vite__" && text[hit.end()..].starts_with("mapDeps");
            }
            Needle::Look(0) => looks.amd = true,
            Needle::Look(1) => looks.ipc_renderer = true,
            Needle::Look(2) => looks.ipc_main = true,
            Needle::Look(_) => looks.webview = true,
            Needle::Directive => {
                let url: &str = text[hit.end()..]
                    .split(|c: char| c.is_whitespace() || matches!(c, '\\' | '"' | '\'' | '`'))
                    .next()
                    .unwrap_or("");
                if url.starts_with("data:") {
                    if inline.len() < MAX_INLINE_MAPS {
                        inline.push(url);
                    } else {
                        dropped += 1;
                    }
                } else if !url.is_empty() && urls.len() < MAX_MAP_URLS {
                    urls.push(crate::source::cut(url, 4096).to_owned());
                }
            }
        }
    }
    urls.sort();
    urls.dedup();
    let vendors = VENDOR_MARKERS
        .iter()
        .zip(found)
        .filter_map(|((name, _), hit)| hit.then_some(*name))
        .collect();
    Scan {
        looks,
        vendors,
        urls,
        inline,
        dropped,
    }
}

/// Reads the source maps `data:` URLs carry, once each, the way map files are read.
fn inline_maps(urls: &[&str], maps: MapOptions) -> Vec<InlineSourceMap> {
    let mut out: Vec<InlineSourceMap> = Vec::new();
    let mut seen = HashSet::default();
    for url in urls {
        let url_sha256 = rea_hash::sha256_hex(url.as_bytes());
        if !seen.insert(url_sha256.clone()) {
            continue;
        }
        let decoded = data_url::DataUrl::process(url)
            .ok()
            .and_then(|data| data.decode_to_vec().ok())
            .map(|(bytes, _)| bytes);
        let (map_sha256, map) = match decoded {
            Some(bytes) => (
                Some(rea_hash::sha256_hex(&bytes)),
                crate::text::source_map(
                    &String::from_utf8_lossy(&bytes),
                    maps.contents,
                    maps.max_sources,
                ),
            ),
            None => (
                None,
                SourceMapFacts {
                    status: "invalid",
                    ..SourceMapFacts::default()
                },
            ),
        };
        out.push(InlineSourceMap {
            url_sha256,
            map_sha256,
            map,
        });
    }
    out
}

struct Extractor<'s, 'c> {
    source: &'s Source<'s>,
    budget: Budget,
    cancelled: &'c dyn Fn() -> bool,
    facts: JsFacts,
    aliases: Aliases,
    /// Local names for the module's directory or file, bound by the pre-pass.
    anchors: Scoped<names::Anchor>,
    /// Static paths bound to names, from the pre-pass.
    paths: Scoped<prepass::PathBound>,
    /// Strings bound to names, and the names assigned again, from the pre-pass.
    constants: Scoped<constants::Bound>,
    assignments: HashMap<String, u32>,
    /// Names the file gives only strings, and those strings ([`choices`]).
    choices: Scoped<Vec<String>>,
    /// Names bound to what relative modules export, from the pre-pass, and to what bundle
    /// factories require (`var o = n(227)`), bound as the walk meets them.
    imports: Scoped<crate::facts::ChannelImport>,
    /// The strings each factory of the file's bundles exports by name, by bundle index and
    /// key.
    factory_strings: HashMap<(u32, ModuleKey), Vec<(String, constants::Constant)>>,
    /// What factories re-export from other factories of their bundle, by (bundle, key): read
    /// into [`Self::factory_strings`] once every factory was walked.
    factory_reexports: Vec<(u32, ModuleKey, bundle::Reexport)>,
    /// The factories each factory re-exports every name of, as (bundle, key, from).
    factory_stars: Vec<(u32, ModuleKey, ModuleKey)>,
    /// The IPC helpers each factory exports (functions, and classes' methods), by bundle and
    /// key.
    factory_helpers: HashMap<(u32, ModuleKey), electron::FactoryHelpers>,
    /// The require name of each factory being walked, innermost last: the function itself, or
    /// with `true` Turbopack's module context, whose `r(id)` and `i(id)` require.
    factory_requires: Vec<(Option<String>, bool)>,
    /// The exports and module parameter names of the module factories being walked,
    /// innermost last.
    factory_exports: Vec<(Option<String>, Option<String>)>,
    /// Object literals module factories export, read as APIs, by factory: (export path,
    /// what was read off the literal). Only in files that use Electron.
    factory_apis: HashMap<(u32, ModuleKey), Vec<(String, electron::NamedObject)>>,
    /// webpack's export getters of names a factory may bind to an API object, looked up once
    /// the file is read (the getters come first): (factory, export, local name, the scopes
    /// open at the getter).
    pending_getters: Vec<(ModuleRef, String, String, Vec<u32>)>,
    /// Webpack runtimes' require functions and their tables, from the pre-pass.
    runtime_requires: HashMap<String, String>,
    /// The bundle each esbuild wrapper's key is in (each `__commonJS` call is one).
    esbuild_bundles: HashMap<ModuleKey, u32>,
    /// Members the pre-pass saw assigned a static path.
    member_paths: HashMap<String, Option<StaticPath>>,
    /// Enclosing function scopes, as the pre-pass names them.
    scopes: Scopes,
    tables: prepass::Tables,
    esbuild: HashMap<String, ModuleKey>,
    /// The bundler that wrote the file's wrapper helpers: `rolldown` or `esbuild`
    /// (`prepass::PrePass::rolldown_helpers`).
    wrapper_bundler: &'static str,
    /// Calls of esbuild wrapper helpers known by their shape, from the pre-pass.
    wrapper_calls: HashMap<(u32, u32), (bundle::Wrapper, Option<String>)>,
    /// Those of them written in place, keyed by their offset
    /// (`prepass::PrePass::inline_wrappers`).
    inline_wrappers: HashSet<(u32, u32)>,
    /// Names bound to what a wrapper written in place returns (`d = c(o((e, t) => {…})())`),
    /// by the wrapper call's span, with the scope of each: bound once the walk reaches the
    /// wrapper and its module is made.
    pending_wrapper_imports: Vec<((u32, u32), String, u32)>,
    /// Vite's preload table (`__vite__mapDeps`), from the pre-pass.
    vite_deps: Vec<String>,
    /// Calls that wrap a module if the helper they import is esbuild's, from the pre-pass.
    imported_calls: HashMap<(u32, u32), (String, String, String)>,
    /// The chunk ids of an ES-module chunk, and where its exported module tables start.
    esm_chunk_ids: (Vec<String>, u64),
    esm_tables: HashSet<u32>,
    /// Names the pre-pass saw passed where an object literal is read (a bridge API, window
    /// options), and what the walk read off the literals declarations bind to them.
    object_names: HashSet<String>,
    named_objects: Scoped<electron::NamedObject>,
    /// Names a function binds to the first item of an array a name holds, in a file that
    /// exposes a bridge: `channel` of `const [channel, ...rest] = args` (the array's name).
    first_items: Scoped<String>,
    /// The object literal each function of a file that exposes a bridge returns, by the
    /// name a declaration binds the function to: `exposeInMainWorld("api", createApi())`.
    returned_objects: Scoped<electron::NamedObject>,
    /// Names bound to a call of a function not yet read, in a file that exposes a bridge:
    /// the function's name (`const api = createApi()` before `function createApi`).
    returned_by: Scoped<String>,
    /// Bridges whose API is a call of a function not yet read (declared further on):
    /// (bridge index, the function's name, the scopes open at the call).
    pending_returns: Vec<(usize, String, Vec<u32>)>,
    /// Names bound to window options composed other than as a literal
    /// (`const options = Object.assign({…}, extra)`).
    named_options: Scoped<windows::Source>,
    /// Whether the file binds a name to Electron: its exported objects are read as APIs.
    electron: bool,
    /// Whether the text names `webview`: the `<webview>` tags the code writes are read
    /// ([`webviews`]).
    webview_text: bool,
    /// The extent of the last expression read as markup (its parts are not read again).
    markup_span: Option<(u32, u32)>,
    /// The extent of the last concatenation searched for markup and found to hold none.
    searched_chain: Option<(u32, u32)>,
    /// The last `<webview>` the DOM made (`document.createElement("webview")`), by index
    /// into [`JsFacts::webviews`]: the attributes set next are its.
    dom_webview: Option<usize>,
    /// The declaration being read whose value may be a `<webview>` tag's markup: where its
    /// value starts, and the name it binds.
    markup_binding: Option<(u32, swc_atoms::Atom)>,
    /// Names bound to a `<webview>` tag's markup, and the tag (an index into
    /// [`JsFacts::webviews`]): markup appended to them adds to its attributes.
    markup_names: HashMap<String, usize>,
    /// Whether the file's calls of its own functions by name are kept ([`LocalCall`]), so that
    /// what a handler, a bridge or an exported function does includes what those do: in a
    /// file that uses Electron or `child_process` (where its process boundaries are).
    ///
    /// [`LocalCall`]: crate::facts::LocalCall
    calls_traced: bool,
    /// Whether the file's text names `ipcMain`.
    ipc_main: bool,
    /// Whether the file's text names `ipcRenderer`.
    ipc_renderer: bool,
    /// The listeners written in place for `ipcRenderer` events: where each function is, and
    /// the name of its event parameter, whose `sender` is the page's `ipcRenderer`
    /// ([`Extractor::renderer_event`]).
    renderer_events: Vec<(u32, u32, swc_atoms::Atom)>,
    /// Whether the file reads IPC (it binds Electron, or names `ipcRenderer`/`ipcMain`): its
    /// tables and loops over them are read ([`loops`]).
    reads_ipc: bool,
    /// Names bound to an object literal or an array of strings, in a file that reads IPC.
    tables_named: Scoped<loops::Table>,
    /// Names bound to a glob's listing, or to one file of it ([`globs::Listed`]).
    listed: Scoped<globs::Listed>,
    /// Loop variables that stand for each key of a table.
    loop_channels: Scoped<loops::LoopItems>,
    /// Names bound to an object literal whose keys the file iterates, in a file that exposes
    /// a bridge API: each key's value, for a loop that exposes one API per key
    /// ([`loops::TableValue`]).
    table_apis: Scoped<Vec<(String, loops::TableValue)>>,
    /// Names whose keys the file iterates ([`prepass::PrePass::iterated_tables`]).
    iterated_tables: HashSet<String>,
    /// Loop variables over such a table: the table's name, and whether the variable stands
    /// for each value (`api` of `[key, api]`) rather than each key.
    loop_tables: Scoped<(String, bool)>,
    /// The file's functions that forward a parameter as an IPC channel, by name.
    helpers: Scoped<prepass::Helper>,
    /// The file's functions that make a channel of their parameters, by name.
    makers: Scoped<templates::Maker>,
    /// The same, as members of an object literal, by the object's name.
    member_makers: Scoped<Vec<(String, templates::Maker)>>,
    /// The directories the file's named functions join a dynamic last part under
    /// ([`prepass::PrePass::handler_roots`]).
    handler_roots: Scoped<Vec<crate::facts::StaticPath>>,
    /// The file's classes whose methods forward a parameter as an IPC channel, by name.
    class_helpers: Scoped<prepass::Methods>,
    /// The file's exports, where it reads IPC helpers without using Electron.
    helper_exports: Vec<(String, String)>,
    /// Names bound to an instance of such a class, or of a class another module exports
    /// (`const ipc = new IpcListener()`).
    instances: Scoped<electron::Instance>,
    /// Whether it also exposes a bridge: its module factories' exported objects are read as
    /// APIs too, for the bridge to find.
    exposes: bool,
    /// Names the file exports that may hold a bridge API, as (export path, local name).
    api_exports: Vec<(String, String)>,
    /// Object literals the file exports in place (`exports.api = {…}`), read as APIs:
    /// (export path, what was read off the literal).
    literal_apis: Vec<(String, electron::NamedObject)>,
    /// Arrays of strings the pre-pass kept, for AMD ids read by index.
    strings: amd::AmdNames,
    /// Parcel 2's local require and register names the pre-pass found.
    parcel_names: parcel::ParcelNames,
    /// The file's named AMD defines, once one is seen, and what each names.
    amd: Option<Gathered>,
    amd_pending: Vec<Pending>,
    /// The file's Parcel 2 registrations, once one is seen.
    parcel: Option<Gathered>,
    /// Enclosing module factories.
    /// The module factories being walked, innermost last.
    stack: Vec<ModuleRef>,
    /// The classes being walked, innermost last: the window constructor each extends
    /// (`class MainWindow extends BrowserWindow`), whose `super(options)` makes a window.
    window_classes: Vec<Option<String>>,
    nodes: u64,
    stop: bool,
    truncated: bool,
    findings: u64,
    modules: u64,
    seen: HashSet<String>,
    /// Members requested of a native `require(...)`, keyed by the call's start.
    native_members: HashMap<u32, Vec<String>>,
    /// Names bound to a native add-on request: the request's index, and the export the name
    /// stands for (`None` for the whole module). By name within the file; shadowing is not
    /// followed.
    native_locals: HashMap<String, (u32, Option<String>)>,
    /// Names of functions called where window options are read, from the pre-pass.
    option_functions: HashSet<String>,
    /// The functions of those names the walk entered: their scope, and their name.
    option_scopes: HashMap<u32, String>,
    /// What those functions return, read as window options, by scope.
    option_returns: HashMap<u32, Vec<windows::Source>>,
    /// Windows whose options are read once the file is walked.
    pending_windows: Vec<windows::PendingWindow>,
    /// Windows held by names, where each window's construction starts (its index), and the
    /// loads called on names, matched once the file is walked ([`window_loads`]).
    window_holders: window_loads::Holders,
    /// Names given a call's value, the functions of the file by name (their scopes), and
    /// the windows each function scope returns (by construction start).
    call_holders: Vec<window_loads::CallHolder>,
    function_scopes: HashMap<String, Vec<u32>>,
    window_returns: Vec<(u32, u32)>,
    window_starts: HashMap<u32, usize>,
    pending_loads: Vec<window_loads::PendingLoad>,
    /// In a file that uses Electron: where each function declared by name is written
    /// (`function f() {…}`, `const f = () => {…}`), for handlers passed by name.
    named_functions: HashMap<String, Vec<crate::facts::Range>>,
    /// IPC handlers passed by name: the operation's index and the name.
    named_handlers: Vec<(usize, String)>,
    /// Calls of a plain name, in a file that uses Electron: the name and where the call is,
    /// kept as a [`crate::facts::LocalCall`] once the file is read if it names one function.
    local_calls: Vec<(String, crate::facts::Range)>,
    native_mechanism: HashMap<u32, &'static str>,
    claimed_tables: HashSet<u32>,
    /// Local names bound to the loader an `electron-serve` call returns, and the URL it loads.
    serve_loaders: HashMap<String, String>,
    /// Function members of the file's bridges: (bridge index, members).
    bridge_functions: Vec<(usize, Vec<electron::MemberFunction>)>,
    /// Renderer operations whose channel is a name: (operation index, scope, name).
    forwarding: Vec<(usize, u32, String)>,
}

impl Extractor<'_, '_> {
    /// The string a name (or a member path of one) the file binds once stands for.
    fn constant_string(&self, expr: &Expr) -> Option<String> {
        if self.constants.is_empty() {
            return None;
        }
        if constants::foldable(expr) {
            // `PREFIX + ":get"`, `` `${PREFIX}:get` ``.
            return constants::fold(expr, &mut |part| self.constant_string(part));
        }
        constants::string_of(
            expr,
            |root| self.constants.resolve(root, &self.scopes),
            |root| self.assignments.get(root).copied().unwrap_or(0),
        )
    }

    /// The export of another file a name or member path reads: `channels_1.IPC.GET` after
    /// `const channels_1 = require("./channels")`.
    fn channel_import(&self, expr: &Expr) -> Option<crate::facts::ChannelImport> {
        if let Some(import) = self.required_in_place(expr) {
            return Some(import);
        }
        if self.imports.is_empty() || !matches!(unwrap(expr), Expr::Ident(_) | Expr::Member(_)) {
            return None;
        }
        let name = names::dotted(expr);
        let mut parts = name.split('.');
        let root = parts.next().filter(|r| !r.is_empty())?;
        let import = self.imports.resolve(root, &self.scopes)?;
        let mut path = import.path.clone();
        for part in parts {
            if part.is_empty() {
                return None;
            }
            path.push(part.to_owned());
        }
        // `x.default` of a CommonJS module through an interop helper is the module.
        if import.path.is_empty() && path.first().is_some_and(|p| p == "default") && path.len() > 1
        {
            path.remove(0);
        }
        (!path.is_empty()).then(|| crate::facts::ChannelImport {
            from: import.from.clone(),
            path,
        })
    }

    /// What a callee (or a class `new` names) stands for among other modules' exports: a
    /// member of one, or a whole module (`const Ipc = require("./ipc"); new Ipc()`, when
    /// the module exports the class in place).
    fn callee_import(&self, expr: &Expr) -> Option<crate::facts::ChannelImport> {
        if let Some(import) = self.channel_import(expr) {
            return (import.path.len() == 1).then_some(import);
        }
        let Expr::Ident(ident) = unwrap(expr) else {
            return None;
        };
        let import = self.imports.resolve(&ident.sym, &self.scopes)?;
        import.path.is_empty().then(|| crate::facts::ChannelImport {
            from: import.from.clone(),
            path: Vec::new(),
        })
    }

    /// Keeps what an assignment of `value` to `target` exports as an API object: an object
    /// literal, or in a module factory a name bound to one (`t.api = o`). At the top level
    /// the export is `exports.X`/`module.exports`; in a factory, a member of its own exports
    /// or module parameter too.
    fn exported_object(&mut self, target: &swc_ecma_ast::MemberExpr, value: &Expr) {
        // Cheap looks first: most member assignments store something else.
        let value = unwrap(value);
        let in_factory = !self.stack.is_empty();
        match value {
            _ if in_factory && !self.exposes => return,
            Expr::Object(_) => {}
            Expr::Ident(ident) if in_factory && self.object_names.contains(&*ident.sym) => {}
            _ => return,
        }
        let Some(module) = self.stack.last().cloned() else {
            if let Expr::Object(obj) = value
                && let Some(export) = constants::commonjs_export_path(target, (None, None))
            {
                let object = self.read_named_object(obj);
                self.literal_apis.push((export, object));
            }
            return;
        };
        let names = self
            .factory_exports
            .last()
            .map_or((None, None), |(e, m)| (e.as_deref(), m.as_deref()));
        let Some(export) = constants::commonjs_export_path(target, names) else {
            return;
        };
        let object = match value {
            Expr::Object(obj) => self.read_named_object(obj),
            Expr::Ident(ident) => match self.named_objects.resolve(&ident.sym, &self.scopes) {
                Some(object) => object.clone(),
                None => return,
            },
            _ => return,
        };
        self.factory_apis
            .entry((module.bundle, module.key))
            .or_default()
            .push((export, object));
    }

    /// webpack's export getters in a module factory, `n.d(t, {api: () => o})` on the
    /// factory's exports, kept to be looked up once the file is read; an object exported in
    /// place (rspack 2's values, `n.d(t, {}, {api: {…}})`) is read at once.
    fn export_getters(&mut self, call: &CallExpr) {
        let (Some(module), Some((Some(exports), _))) =
            (self.stack.last(), self.factory_exports.last())
        else {
            return;
        };
        let on_exports = matches!(call.args.first().map(|a| unwrap(&a.expr)),
            Some(Expr::Ident(target)) if target.sym == **exports);
        if !on_exports {
            return;
        }
        let mut getters: Vec<(String, String)> = Vec::new();
        for (export, value) in bundle::webpack_exports(call) {
            match unwrap(value) {
                Expr::Ident(local) if self.object_names.contains(&*local.sym) => {
                    getters.push((export, local.sym.to_string()));
                }
                // rspack 2 writes an exported object in place, among its values.
                Expr::Object(object) => {
                    let object = self.read_named_object(object);
                    self.factory_apis
                        .entry((module.bundle, module.key.clone()))
                        .or_default()
                        .push((export, object));
                }
                _ => {}
            }
        }
        for (export, local) in getters {
            self.pending_getters.push((
                module.clone(),
                export,
                local,
                self.scopes.stack().to_vec(),
            ));
        }
    }

    /// What `expr` reads off another module's exports, its whole exports included: `api_1`
    /// after `const api_1 = require("./api")`, or `require("./api")` itself.
    fn module_import(&self, expr: &Expr) -> Option<crate::facts::ChannelImport> {
        if let Some(import) = self.channel_import(expr) {
            return Some(import);
        }
        match unwrap(expr) {
            Expr::Ident(ident) => self.imports.resolve(&ident.sym, &self.scopes).cloned(),
            call @ Expr::Call(_) => prepass::require_spec(call)
                .filter(|s| prepass::importable(s))
                .map(|specifier| crate::facts::ChannelImport {
                    from: crate::facts::ImportFrom::Specifier(specifier),
                    path: Vec::new(),
                }),
            _ => None,
        }
    }

    /// A member path read off a require called in place: `require("./channels").GET`, or
    /// `n(777).IPC.CLOSE` in a bundle factory.
    fn required_in_place(&self, expr: &Expr) -> Option<crate::facts::ChannelImport> {
        let mut path = Vec::new();
        let mut cur = unwrap(expr);
        while let Expr::Member(member) = cur {
            path.push(member.prop.as_ident()?.sym.to_string());
            cur = unwrap(&member.obj);
        }
        let Expr::Call(call) = cur else {
            return None;
        };
        if path.is_empty() {
            return None;
        }
        path.reverse();
        let from = match prepass::require_spec(cur).filter(|s| prepass::importable(s)) {
            Some(specifier) => crate::facts::ImportFrom::Specifier(specifier),
            None => crate::facts::ImportFrom::Module(self.required_module(call)?),
        };
        Some(crate::facts::ChannelImport { from, path })
    }

    /// Binds `name` to the factory a bundle factory requires:
    /// `var o = n(227)` (also through an interop helper, `__importStar(n(227))`), so that
    /// `o.GET` reads what factory 227 exports. Outside factories, a call of a webpack
    /// runtime's require (an entry module the runtime inlines) requires from its table.
    fn factory_import(&mut self, name: &swc_ecma_ast::BindingIdent, init: &Expr) {
        let Expr::Call(outer) = unwrap(init) else {
            return;
        };
        // The call itself, or the one an interop helper wraps (`__importStar(n(777))`,
        // esbuild's `__toESM(require_channels())`).
        let inner = match outer.args.as_slice() {
            [arg] => match unwrap(&arg.expr) {
                Expr::Call(inner) => Some(inner),
                _ => None,
            },
            _ => None,
        };
        let Some(module) = std::iter::once(outer)
            .chain(inner)
            .find_map(|call| self.required_module(call))
        else {
            // A wrapper written in place, called at once: its module is made when the walk
            // reaches it, just after this.
            if let Some(wrapper) = std::iter::once(outer)
                .chain(inner)
                .find_map(|call| self.inline_wrapper_called(call))
            {
                let scope = self.scopes.current();
                self.pending_wrapper_imports
                    .push((wrapper, name.id.sym.to_string(), scope));
            }
            return;
        };
        let import = crate::facts::ChannelImport {
            from: crate::facts::ImportFrom::Module(module),
            path: Vec::new(),
        };
        let scope = self.scopes.current();
        self.imports.bind(&name.id.sym, scope, Some(import));
    }

    /// The key of a wrapper call written in place ([`Self::inline_wrappers`]): its chunk
    /// key, which holds its offset (`commonjs@120`).
    fn inline_wrapper_key(&self, call: &CallExpr) -> Option<ModuleKey> {
        let span = (call.span.lo.0, call.span.hi.0);
        if !self.inline_wrappers.contains(&span) {
            return None;
        }
        let (kind, _) = self.wrapper_calls.get(&span)?;
        Some(ModuleKey::String(
            kind.chunk_key(self.source.offset(call.span.lo)),
        ))
    }

    /// The span of the wrapper written in place that `call` calls at once:
    /// `o((e, t) => {…})()`.
    fn inline_wrapper_called(&self, call: &CallExpr) -> Option<(u32, u32)> {
        if !call.args.is_empty() {
            return None;
        }
        let Expr::Call(wrapper) = unwrap(call.callee.as_expr()?) else {
            return None;
        };
        let span = (wrapper.span.lo.0, wrapper.span.hi.0);
        self.inline_wrappers.contains(&span).then_some(span)
    }

    /// Binds the names waiting for the wrapper `call` ([`Self::pending_wrapper_imports`]) to
    /// its module, made as bundle `bundle`.
    fn bind_pending_wrapper_imports(&mut self, call: &CallExpr, bundle: u32) {
        if self.pending_wrapper_imports.is_empty() {
            return;
        }
        let span = (call.span.lo.0, call.span.hi.0);
        let Some(key) = self.inline_wrapper_key(call) else {
            return;
        };
        let pending = std::mem::take(&mut self.pending_wrapper_imports);
        for (wrapper, name, scope) in pending {
            if wrapper != span {
                self.pending_wrapper_imports.push((wrapper, name, scope));
                continue;
            }
            let import = crate::facts::ChannelImport {
                from: crate::facts::ImportFrom::Module(ModuleRef {
                    bundle,
                    key: key.clone(),
                }),
                path: Vec::new(),
            };
            self.imports.bind(&name, scope, Some(import));
        }
    }

    /// Binds `name` to a member of another module's exports it is given: `l = s.SAVE` after
    /// `s = n(777)`, as terser writes the parameter of a function it inlined, or
    /// `const close = channels_1.IPC.window.CLOSE`.
    fn member_import(&mut self, name: &swc_ecma_ast::BindingIdent, init: &Expr) {
        if self.imports.is_empty() || !matches!(unwrap(init), Expr::Member(_)) {
            return;
        }
        // A cheap look first: the member chain starts from an imported name.
        if !prepass::root_name(init).is_some_and(|root| self.imports.binds(root)) {
            return;
        }
        if let Some(import) = self.channel_import(init) {
            let scope = self.scopes.current();
            self.imports.bind(&name.id.sym, scope, Some(import));
        }
    }

    /// The factory of the file `call` requires, if it is a require: of the factory's require
    /// name (or `__webpack_require__`) inside a factory, of a webpack runtime's require
    /// function outside, or an esbuild wrapper's name called with nothing.
    fn required_module(&self, call: &CallExpr) -> Option<ModuleRef> {
        // rspack's minifier inlines a runtime require used once where it is called:
        // `e = function e(t) {…}(777)`.
        let callee = match call.callee.as_expr().map(|c| unwrap(c)) {
            Some(Expr::Fn(_)) => names::called_function_name(call)
                .unwrap_or_default()
                .to_owned(),
            _ => callee_name(&call.callee),
        };
        match call.args.as_slice() {
            [] => {
                let key = self.esbuild.get(&*callee)?;
                let bundle = *self.esbuild_bundles.get(key)?;
                Some(ModuleRef {
                    bundle,
                    key: key.clone(),
                })
            }
            [arg] => {
                let bundle = match (self.factory_requires.last(), self.stack.last()) {
                    (Some((require, context)), Some(current)) => {
                        let required = match callee.rsplit_once('.') {
                            Some((object, "r" | "i")) if *context => {
                                require.as_deref() == Some(object)
                            }
                            _ if *context => false,
                            _ => {
                                require.as_deref() == Some(&*callee)
                                    || callee == "__webpack_require__"
                            }
                        };
                        required.then_some(current.bundle)?
                    }
                    _ => {
                        let table = self.runtime_requires.get(&*callee)?;
                        let bundles = &self.facts.bundles;
                        bundles.iter().rposition(|b| b.runtime == *table)? as u32
                    }
                };
                let key = bundle::module_key_of(&arg.expr)?;
                Some(ModuleRef { bundle, key })
            }
            _ => None,
        }
    }

    /// Fills the channels read off what another factory of the file exports, found once
    /// every factory was walked: the last export of the name, at the member path.
    fn finish_factory_channels(&mut self) {
        self.follow_factory_reexports();
        if self.factory_strings.is_empty() {
            return;
        }
        // Window calls' arguments read off a factory of the same bundle.
        for call in &mut self.facts.window_calls {
            for (arg, import) in call.args.iter_mut().zip(call.arg_imports.iter_mut()) {
                let Some(crate::facts::ChannelImport {
                    from: crate::facts::ImportFrom::Module(module),
                    path,
                }) = import
                else {
                    continue;
                };
                if let Some(value) = self
                    .factory_strings
                    .get(&(module.bundle, module.key.clone()))
                    .and_then(|exports| crate::facts::exported_string(exports, path))
                {
                    *arg = Some(value.to_owned());
                    *import = None;
                }
            }
        }
        // Nothing reads the operations by index past this point: a loop over a list another
        // factory exports becomes one operation an item.
        let ops = std::mem::take(&mut self.facts.ipc);
        let mut settled = Vec::with_capacity(ops.len());
        let mut room = crate::facts::MAX_ITEM_OPERATIONS;
        for op in ops {
            let Some(crate::facts::ChannelImport {
                from: crate::facts::ImportFrom::Module(module),
                path,
            }) = &op.channel_import
            else {
                settled.push(op);
                continue;
            };
            let ops = self
                .factory_strings
                .get(&(module.bundle, module.key.clone()))
                .and_then(|exports| crate::facts::exported_value(exports, path))
                .and_then(|value| op.settle(value, &mut room));
            match ops {
                Some(ops) => {
                    settled.extend(ops);
                    self.facts.dynamic_findings = self.facts.dynamic_findings.saturating_sub(1);
                }
                None => settled.push(op),
            }
        }
        self.facts.ipc = settled;
    }

    /// Adds to each factory's strings what it re-exports from another factory of its bundle
    /// (a barrel's `export { GET } from "./channels"`, or every name of it, `export *`),
    /// through chains of re-exports up to [`MAX_REEXPORT_HOPS`] long.
    fn follow_factory_reexports(&mut self) {
        // esbuild's wrappers are bundles of their own: a factory re-exported is found by its
        // key among them.
        let esbuild = &self.esbuild_bundles;
        let source = |bundle: u32, key: &ModuleKey, from: &ModuleKey| match (
            esbuild.get(key),
            esbuild.get(from),
        ) {
            (Some(&own), Some(&other)) if own == bundle => (other, from.clone()),
            _ => (bundle, from.clone()),
        };
        let mut pending: Vec<_> = std::mem::take(&mut self.factory_reexports)
            .into_iter()
            .map(|(bundle, key, reexport)| {
                let from = source(bundle, &key, &reexport.from);
                (bundle, key, from, reexport)
            })
            .collect();
        let stars: Vec<_> = std::mem::take(&mut self.factory_stars)
            .into_iter()
            .map(|(bundle, key, from)| {
                let from = source(bundle, &key, &from);
                (bundle, key, from)
            })
            .collect();
        let mut budget = MAX_REEXPORTED;
        for _ in 0..MAX_REEXPORT_HOPS {
            let mut found: Vec<((u32, ModuleKey), String, constants::Constant)> = Vec::new();
            pending.retain(|(bundle, key, from, reexport)| {
                let value = self
                    .factory_strings
                    .get(from)
                    .and_then(|exports| crate::facts::exported_value(exports, &reexport.path));
                match value {
                    Some(value) => {
                        found.push(((*bundle, key.clone()), reexport.name.clone(), value.clone()));
                        false
                    }
                    None => true,
                }
            });
            // `export *` re-exports the names the factory does not export itself, looked up in
            // sets, so that a star of a large module costs its size rather than its square.
            let mut added: HashMap<(u32, ModuleKey), HashSet<String>> = HashMap::default();
            for (factory, name, _) in &found {
                added
                    .entry(factory.clone())
                    .or_default()
                    .insert(name.clone());
            }
            for (bundle, key, from) in &stars {
                let Some(exports) = self.factory_strings.get(from) else {
                    continue;
                };
                let factory = (*bundle, key.clone());
                let own: HashSet<&str> = self
                    .factory_strings
                    .get(&factory)
                    .into_iter()
                    .flatten()
                    .map(|(name, _)| name.as_str())
                    .collect();
                let added = added.entry(factory.clone()).or_default();
                for (name, value) in exports {
                    if found.len() >= budget {
                        break;
                    }
                    if name != "default"
                        && !own.contains(name.as_str())
                        && added.insert(name.clone())
                    {
                        found.push((factory.clone(), name.clone(), value.clone()));
                    }
                }
            }
            found.truncate(budget);
            budget -= found.len();
            if found.is_empty() {
                break;
            }
            for (factory, name, value) in found {
                self.factory_strings
                    .entry(factory)
                    .or_default()
                    .push((name, value));
            }
        }
    }

    /// Keeps `name` as the loader an `electron-serve` call returns when `value` is one:
    /// `const loadURL = serve({directory: "renderer"})`.
    fn serve_loader(&mut self, name: &str, value: &Expr) {
        if let Expr::Call(call) = unwrap(value)
            && self.callee(&call.callee) == "electron-serve"
            && let Some(served) = electron::electron_serve(call)
        {
            self.serve_loaders.insert(name.to_owned(), served.url);
        }
    }

    /// A parameter named like a named object literal hides it in its function; so does one
    /// named like an instance of an IPC helper class.
    fn shadow_named_object(&mut self, pat: &Pat) {
        if self.object_names.is_empty()
            && self.instances.is_empty()
            && self.loop_channels.is_empty()
        {
            return;
        }
        let name = match pat {
            Pat::Ident(ident) => &ident.id.sym,
            Pat::Assign(assign) => match &*assign.left {
                Pat::Ident(ident) => &ident.id.sym,
                _ => return,
            },
            _ => return,
        };
        if self.object_names.contains(&**name) {
            self.named_objects.bind(name, self.scopes.current(), None);
            self.named_options.bind(name, self.scopes.current(), None);
        }
        self.instances.shadow(name, self.scopes.current());
        self.loop_channels.shadow(name, self.scopes.current());
        self.loop_tables.shadow(name, self.scopes.current());
    }

    fn module(&self) -> Option<ModuleRef> {
        self.stack.last().cloned()
    }

    /// The dotted name with its first segment replaced by what it aliases.
    fn name(&self, expr: &Expr) -> String {
        normalize(&self.aliases, &self.scopes, dotted(expr))
    }

    fn callee(&self, callee: &Callee) -> String {
        let name = callee_name(callee);
        // `require("child_process").exec(…)`: the call names no part before the member, which
        // is the module required there.
        if name.starts_with('.')
            && let Some(module) = callee.as_expr().and_then(|c| prepass::required_root(c))
        {
            return format!("{module}{name}");
        }
        normalize(&self.aliases, &self.scopes, name)
    }

    /// Admits one more finding under `max_findings`; `dedup` keys repeat findings.
    fn admit(&mut self, dedup: Option<String>) -> bool {
        if let Some(key) = dedup
            && !self.seen.insert(key)
        {
            return false;
        }
        if self.findings >= self.budget.max_findings {
            self.facts.dropped_findings += 1;
            return false;
        }
        self.findings += 1;
        true
    }

    fn reference(&mut self, kind: &'static str, expr: Option<&Expr>, span: swc_common::Span) {
        let (specifier, expression) = match expr.map(|e| (string(e), e)) {
            Some((Some(s), _)) => (Some(s), None),
            Some((None, e)) => (None, Some(self.source.expression(e.span()))),
            None => (None, Some("[missing-expression]".to_owned())),
        };
        self.reference_to(kind, specifier, expression, span);
    }

    /// A reference to a literal `specifier`, or to a dynamic `expression`.
    fn reference_to(
        &mut self,
        kind: &'static str,
        specifier: Option<String>,
        expression: Option<String>,
        span: swc_common::Span,
    ) {
        if specifier.is_none() {
            self.facts.dynamic_findings += 1;
        }
        let module = self.module();
        let dedup = format!(
            "ref\0{kind}\0{:?}\0{:?}\0{:?}",
            specifier, expression, module
        );
        if !self.admit(Some(dedup)) {
            return;
        }
        self.facts.references.push(Reference {
            kind,
            specifier,
            expression,
            range: self.source.range(span),
            module,
            directory: None,
        });
    }

    fn observation(
        &mut self,
        family: &'static str,
        kind: String,
        value: Option<String>,
        span: swc_common::Span,
    ) {
        let module = self.module();
        let dedup = format!("obs\0{family}\0{kind}\0{value:?}\0{module:?}");
        if !self.admit(Some(dedup)) {
            return;
        }
        self.facts.observations.push(Observation {
            family,
            kind,
            value,
            range: self.source.range(span),
            module,
        });
    }

    fn native(
        &mut self,
        mechanism: &'static str,
        specifier: String,
        context: &'static str,
        members: Vec<String>,
        span: swc_common::Span,
    ) {
        if !self.admit(None) {
            return;
        }
        let mut members = members;
        members.sort();
        members.dedup();
        members.truncate(64);
        if members.is_empty() {
            members.push("*".to_owned());
        }
        self.facts.native.push(NativeRequest {
            mechanism,
            specifier,
            context,
            members,
            range: self.source.range(span),
            module: self.module(),
        });
    }

    fn named_function(&mut self, name: &str, span: swc_common::Span) {
        let range = self.source.range(span);
        self.named_functions
            .entry(name.to_owned())
            .or_default()
            .push(range);
    }

    /// The functions of an object literal bound to `name`, as `name.<key>` (`const handlers
    /// = { open() {…}, save: async () => {…} }`): a handler passed as `handlers.open` is
    /// that function.
    fn object_functions(&mut self, name: &str, obj: &swc_ecma_ast::ObjectLit) {
        for prop in &obj.props {
            let swc_ecma_ast::PropOrSpread::Prop(prop) = prop else {
                continue;
            };
            let (key, span) = match &**prop {
                Prop::Method(m) => (names::prop_name(&m.key), m.function.span),
                Prop::KeyValue(kv) => match unwrap(&kv.value) {
                    Expr::Fn(f) => (names::prop_name(&kv.key), f.function.span),
                    Expr::Arrow(a) => (names::prop_name(&kv.key), a.span),
                    _ => continue,
                },
                _ => continue,
            };
            if let Some(key) = key {
                self.named_function(&format!("{name}.{key}"), span);
            }
        }
    }

    /// Each handler passed by name gets where its function is written, when the file
    /// declares exactly one function under that name.
    fn finish_named_handlers(&mut self) {
        for (op, name) in std::mem::take(&mut self.named_handlers) {
            if let Some([range]) = self.named_functions.get(&name).map(Vec::as_slice)
                && let Some(op) = self.facts.ipc.get_mut(op)
            {
                op.handler_range = Some(*range);
            }
        }
        // Only worth keeping where some code (a handler, a bridge, an exported function with
        // a process boundary) may hold the call.
        if self.facts.ipc.is_empty()
            && self.facts.bridges.is_empty()
            && self.facts.processes.is_empty()
        {
            return;
        }
        for (name, range) in std::mem::take(&mut self.local_calls) {
            if let Some([function]) = self.named_functions.get(&name).map(Vec::as_slice)
                && !(function.start <= range.start && range.end <= function.end)
            {
                self.facts.local_calls.push(crate::facts::LocalCall {
                    range,
                    function: *function,
                });
            }
        }
    }

    /// A call of what another module exports, kept (at most [`MAX_IMPORTED_USES`] a file) so
    /// that the code around it (an IPC handler, a bridge) leads to that module.
    fn imported_use(&mut self, callee: &Expr, span: swc_common::Span) {
        if self.facts.imported_uses.len() >= MAX_IMPORTED_USES
            || !matches!(unwrap(callee), Expr::Ident(_) | Expr::Member(_))
        {
            return;
        }
        let Some(import) = self.channel_import(callee) else {
            return;
        };
        self.facts.imported_uses.push(crate::facts::ImportedUse {
            import,
            range: self.source.range(span),
        });
    }

    /// A call through a name bound to a native request: recorded, and the export it names
    /// added to the request's members (it is requested, as a destructured one is).
    pub(super) fn native_use(&mut self, name: &str, span: swc_common::Span) {
        let mut parts = name.split('.');
        let Some((request, bound)) = parts.next().and_then(|root| self.native_locals.get(root))
        else {
            return;
        };
        let (request, bound) = (*request, bound.clone());
        let member = bound.or_else(|| parts.next().map(str::to_owned));
        if !self.admit(Some(format!(
            "native-use\0{request}\0{member:?}\0{}",
            span.lo.0
        ))) {
            return;
        }
        if let (Some(m), Some(req)) = (&member, self.facts.native.get_mut(request as usize))
            && req.members.len() < 64
            && let Err(at) = req.members.binary_search(m)
        {
            req.members.insert(at, m.clone());
        }
        self.facts.native_uses.push(NativeUse {
            request,
            member,
            range: self.source.range(span),
        });
    }

    /// Registers a table of factories and walks each factory with its key as context.
    fn bundle(
        &mut self,
        bundler: &'static str,
        runtime: String,
        shape: &'static str,
        chunk_keys: (Vec<String>, u64),
        factories: (Vec<Factory<'_>>, u64),
        entry_module_keys: Vec<ModuleKey>,
        span: swc_common::Span,
    ) {
        let mut modules = Vec::new();
        let mut unknown = factories.1;
        let bundle = self.facts.bundles.len() as u32;
        for factory in &factories.0 {
            if self.modules >= self.budget.max_modules {
                self.facts.dropped_modules += 1;
                continue;
            }
            self.modules += 1;
            if factory.key.is_none() {
                unknown += 1;
                continue;
            }
            let (module, exports) = bundle::walk_factory(self.source, factory, &self.esbuild, true);
            if shape == "esbuild-wrapper" {
                self.esbuild_bundles.insert(module.key.clone(), bundle);
            }
            if !exports.names.is_empty() {
                self.factory_helpers_of(
                    (bundle, &module.key),
                    bundle::body_scope(factory.body),
                    &exports.names,
                );
            }
            if !exports.strings.is_empty() {
                self.factory_strings
                    .insert((bundle, module.key.clone()), exports.strings);
            }
            self.factory_reexports.extend(
                exports
                    .reexports
                    .into_iter()
                    .map(|reexport| (bundle, module.key.clone(), reexport)),
            );
            self.factory_stars.extend(
                exports
                    .stars
                    .into_iter()
                    .map(|from| (bundle, module.key.clone(), from)),
            );
            // Keys that name the same factory are modules of their own, read once.
            let aliases: Vec<crate::facts::Module> = factory
                .aliases
                .iter()
                .map(|alias| crate::facts::Module {
                    key: alias.clone(),
                    ..module.clone()
                })
                .collect();
            modules.push(module);
            modules.extend(aliases);
        }
        self.facts.bundles.push(Bundle {
            bundler,
            runtime,
            shape,
            chunk_keys: chunk_keys.0,
            unknown_chunk_keys: chunk_keys.1,
            entry_module_keys,
            range: self.source.range(span),
            modules,
            unknown_modules: unknown,
            async_chunks: Vec::new(),
            entry_requires: Vec::new(),
        });
        // Walk each factory body with the module as context, for the facts inside it.
        for factory in factories.0 {
            let Some(key) = factory.key else { continue };
            self.stack.push(ModuleRef { bundle, key });
            self.factory_requires
                .push((factory.require_name, factory.context));
            self.factory_exports
                .push((factory.exports_name, factory.module_name));
            match factory.body {
                Body::Expr(expr) => expr.visit_with(self),
                Body::Method(function) => function.visit_with(self),
            }
            self.factory_exports.pop();
            self.factory_requires.pop();
            self.stack.pop();
        }
    }

    /// `__vite__mapDeps([0, 1])`: the files Vite preloads with a dynamic import, each a
    /// `dynamic-import` reference to its entry of the file's preload table (reference §3.5),
    /// when every index is a number. A build with a relative base (`./x.js`, as Electron
    /// renderers are built to load from `file://`) writes entries relative to the chunk; one
    /// with an absolute base writes them relative to the served root, which the runtime
    /// prefixes with the base (`/` by default), so those are read as rooted (`/assets/x.js`).
    fn vite_preloads(&mut self, call: &CallExpr) {
        let Some(Expr::Array(indexes)) = call.args.first().map(|a| unwrap(&a.expr)) else {
            return;
        };
        let mut deps = Vec::new();
        for elem in &indexes.elems {
            match elem.as_ref().map(|e| (e.spread.is_some(), unwrap(&e.expr))) {
                Some((false, Expr::Lit(swc_ecma_ast::Lit::Num(n))))
                    if n.value >= 0.0 && n.value.fract() == 0.0 =>
                {
                    deps.push(n.value as usize);
                }
                _ => return,
            }
        }
        for index in deps {
            if let Some(dep) = self.vite_deps.get(index) {
                let relative = dep.starts_with("./") || dep.starts_with("../");
                let specifier = if relative || dep.starts_with('/') || dep.contains("://") {
                    dep.clone()
                } else {
                    format!("/{dep}")
                };
                self.reference_to("dynamic-import", Some(specifier), None, call.span);
            }
        }
    }

    /// A call that wraps a module if the helper it imports is esbuild's
    /// ([`crate::facts::ImportedWrapper`]). Until that is settled, the code inside is read as
    /// the file's own.
    fn imported_wrapper(&mut self, call: &CallExpr, from: String, helper: String, key: String) {
        let Some(function) = call.args.first().map(|a| &*a.expr) else {
            return;
        };
        if self.modules >= self.budget.max_modules {
            self.facts.dropped_modules += 1;
            return;
        }
        self.modules += 1;
        let mut factory = bundle::factory(Some(ModuleKey::String(key)), function);
        // As esbuild calls a wrapper's function: `(exports, module)`.
        std::mem::swap(&mut factory.module_name, &mut factory.exports_name);
        factory.require_name = None;
        let (module, _) = bundle::walk_factory(self.source, &factory, &self.esbuild, false);
        self.facts
            .imported_wrappers
            .push(crate::facts::ImportedWrapper {
                from,
                helper,
                offset: self.source.offset(call.span.lo),
                range: self.source.range(call.span),
                module,
            });
    }

    fn try_chunk_push(&mut self, call: &CallExpr) -> bool {
        let Callee::Expr(callee) = &call.callee else {
            return false;
        };
        let Expr::Member(member) = unwrap(callee) else {
            return false;
        };
        if !member.prop.is_ident_with("push") {
            return false;
        }
        let Some(runtime) = bundle::chunk_receiver(&member.obj, 0) else {
            return false;
        };
        let arg = match call.args.first().map(|a| unwrap(&a.expr)) {
            Some(Expr::Array(arg)) => arg,
            Some(Expr::Object(registration)) if runtime == bundle::TURBOPACK => {
                return self.turbopack_registration(registration, call.span);
            }
            _ => return false,
        };
        if runtime == bundle::TURBOPACK {
            return self.turbopack_chunk(arg, true, call.span);
        }
        let elems: Vec<Option<&Expr>> = arg
            .elems
            .iter()
            .map(|e| e.as_ref().map(|e| &*e.expr))
            .collect();
        let chunk_keys = match elems.first().copied().flatten().map(unwrap) {
            Some(Expr::Array(ids)) => bundle::chunk_ids(ids),
            _ => return false,
        };
        let factories = match elems.get(1).copied().flatten().map(unwrap) {
            Some(Expr::Object(table)) => bundle::object_factories(table),
            Some(Expr::Array(table)) => bundle::array_factories(table),
            _ => return false,
        };
        let mut entries = Vec::new();
        if let Some(runtime_fn) = elems.get(2).copied().flatten() {
            entries = entry_calls(runtime_fn);
        }
        let lower = runtime.to_ascii_lowercase();
        let bundler = if lower.contains("rspack") {
            "rspack"
        } else {
            self.webpack_family()
        };
        self.bundle(
            bundler,
            runtime,
            "jsonp-chunk",
            chunk_keys,
            factories,
            entries,
            call.span,
        );
        member.obj.visit_with(self);
        for elem in elems.iter().skip(2).flatten() {
            elem.visit_with(self);
        }
        true
    }

    /// A Turbopack page's registration, which Next.js writes inline in each page:
    /// `(globalThis.TURBOPACK ||= []).push({otherChunks: [...], runtimeModuleIds: [...]})`.
    /// The runtime loads the chunks (each a path from the output root, or `{path, …}`) and
    /// then requires the modules; read as a bundle of shape `turbopack-registration` with no
    /// factories, whose `async_chunks` are those paths and whose `entry_requires` are the
    /// module ids. Whether the object was one.
    fn turbopack_registration(&mut self, object: &ObjectLit, span: swc_common::Span) -> bool {
        let (mut chunks, mut entries, mut named) = (Vec::new(), Vec::new(), false);
        for prop in &object.props {
            let PropOrSpread::Prop(prop) = prop else {
                return false;
            };
            let Prop::KeyValue(kv) = &**prop else {
                return false;
            };
            let list = match unwrap(&kv.value) {
                Expr::Array(list) => bundle::items(list),
                _ => continue,
            };
            match names::prop_name(&kv.key).as_deref() {
                Some("otherChunks") => {
                    named = true;
                    chunks.extend(list.into_iter().flatten().filter_map(|item| {
                        names::string(item)
                            .or_else(|| names::property_of(item, "path").and_then(names::string))
                    }));
                }
                Some("runtimeModuleIds") => {
                    named = true;
                    entries.extend(list.into_iter().flatten().filter_map(names::literal_key));
                }
                _ => {}
            }
        }
        if !named {
            return false;
        }
        chunks.truncate(bundle::MAX_CHUNK_KEYS);
        entries.truncate(bundle::MAX_CHUNK_KEYS);
        self.facts.bundles.push(Bundle {
            bundler: "turbopack",
            runtime: bundle::TURBOPACK.to_owned(),
            shape: "turbopack-registration",
            chunk_keys: Vec::new(),
            unknown_chunk_keys: 0,
            entry_module_keys: Vec::new(),
            range: self.source.range(span),
            modules: Vec::new(),
            unknown_modules: 0,
            async_chunks: chunks,
            entry_requires: entries,
        });
        true
    }

    /// A Turbopack chunk: the browser's `(globalThis.TURBOPACK ||= []).push([script, id,
    /// factory, …])`, whose script is the chunk's path in older builds (its key) and
    /// `document.currentScript` in newer ones, or, with `browser` false, a Node.js chunk's
    /// `module.exports = [id, factory, …]`. Whether the list was one.
    fn turbopack_chunk(
        &mut self,
        list: &swc_ecma_ast::ArrayLit,
        browser: bool,
        span: swc_common::Span,
    ) -> bool {
        let elems = bundle::items(list);
        let (script, modules) = match (browser, elems.split_first()) {
            (true, Some((script, modules))) => (*script, modules),
            (false, _) => (None, &elems[..]),
            (true, None) => return false,
        };
        let Some(factories) = bundle::turbopack_factories(modules) else {
            return false;
        };
        // Nothing but the shape tells a Node.js chunk from a module exporting a list, so each
        // factory must take Turbopack's context (`module.exports = [0, () => {}]` is a list).
        if !browser && factories.iter().any(|f| f.require_name.is_none()) {
            return false;
        }
        let chunk_keys: Vec<String> = script.and_then(names::string).into_iter().collect();
        let runtime = if browser {
            bundle::TURBOPACK
        } else {
            bundle::TURBOPACK_NODE
        };
        let shape = if browser {
            "turbopack-chunk"
        } else {
            "turbopack-commonjs-chunk"
        };
        self.bundle(
            "turbopack",
            runtime.to_owned(),
            shape,
            (chunk_keys, 0),
            (factories, 0),
            Vec::new(),
            span,
        );
        if let Some(script) = script {
            script.visit_with(self);
        }
        true
    }

    /// A call in a runtime's own code, where webpack inlines the entry module: `t(157)`
    /// requires a factory, `t.e(14)` loads a chunk on demand.
    fn runtime_call(&mut self, name: &str, call: &CallExpr) {
        let (require, method) = match name.rsplit_once('.') {
            Some((object, "e")) => (object, true),
            Some(_) => return,
            None => (name, false),
        };
        let Some(table) = self.runtime_requires.get(require) else {
            return;
        };
        let Some(key) = call.args.first().and_then(|a| names::literal_key(&a.expr)) else {
            return;
        };
        let Some(bundle) = self.facts.bundles.iter_mut().rfind(|b| b.runtime == *table) else {
            return;
        };
        let keys = if method {
            &mut bundle.async_chunks
        } else {
            &mut bundle.entry_requires
        };
        if keys.len() < bundle::MAX_CHUNK_KEYS && !keys.contains(&key) {
            keys.push(key);
        }
    }

    /// `rspack` when the text scan found rspack's runtime names in the file, else `webpack`.
    fn webpack_family(&self) -> &'static str {
        if self.facts.vendor_markers.contains(&"rspack") {
            "rspack"
        } else {
            "webpack"
        }
    }

    /// An ES-module chunk's exported module table (`shape` `esm-chunk`), or a CommonJS
    /// chunk's (`commonjs-chunk`), with the chunk ids it exports beside it.
    fn exported_chunk(
        &mut self,
        name: &str,
        shape: &'static str,
        table: &Expr,
        span: swc_common::Span,
    ) -> bool {
        let factories = match unwrap(table) {
            Expr::Object(obj) if self.claimed_tables.insert(table.span().lo.0) => {
                bundle::object_factories(obj)
            }
            _ => return false,
        };
        let bundler = self.webpack_family();
        let chunk_keys = self.esm_chunk_ids.clone();
        self.bundle(
            bundler,
            name.to_owned(),
            shape,
            chunk_keys,
            factories,
            Vec::new(),
            span,
        );
        true
    }

    /// A call to the global `define`: a named define is a module of the file's AMD bundle; an
    /// anonymous one declares the file's dependencies, recorded as references.
    fn try_define(&mut self, call: &CallExpr) -> bool {
        let Some(define) = amd::define_call(call, &self.strings) else {
            return false;
        };
        match define.id.clone() {
            Some(id) => self.amd_module(id, &define, call.span),
            None => {
                for (dep, span) in define.deps.iter().flatten().flatten() {
                    if !amd::is_special(dep) {
                        self.reference_to("require", Some(dep.clone()), None, *span);
                    }
                }
                call.visit_children_with(self);
            }
        }
        true
    }

    /// A named define: its factory is walked as a module, keyed by its id. Its dependencies
    /// are resolved once the whole file is read ([`Extractor::finish_amd`]).
    fn amd_module(&mut self, id: String, define: &amd::Define<'_>, span: swc_common::Span) {
        let amd = Gathered::at(
            &mut self.amd,
            &mut self.facts.bundles,
            self.source,
            ("amd", "define", "amd-define"),
            span,
        );
        let bundle = amd.bundle;
        // The loader keeps the first define of an id; a later one is walked as plain code.
        let first = amd.keys.insert(id.clone());
        if !self.admit_registration(first) {
            define.value.visit_with(self);
            return;
        }
        let key = ModuleKey::String(id.clone());
        let factory = Factory {
            key: Some(key.clone()),
            body: Body::Expr(define.value),
            require_name: define.param_for("require"),
            exports_name: define.param_for("exports"),
            module_name: define.param_for("module"),
            require_outside: false,
            context: false,
            aliases: Vec::new(),
        };
        let (mut module, _) = bundle::walk_factory(self.source, &factory, &self.esbuild, false);
        let ids = |keys: Vec<ModuleKey>| -> Vec<String> {
            keys.into_iter()
                .filter_map(|key| match key {
                    ModuleKey::String(spec) => Some(amd::normalize(&id, &spec)),
                    ModuleKey::Number(_) => None,
                })
                .collect()
        };
        let required = ids(std::mem::take(&mut module.requires));
        let loaded = ids(std::mem::take(&mut module.async_modules));
        let declared = define
            .deps
            .iter()
            .flatten()
            .flatten()
            .filter(|(dep, _)| !amd::is_special(dep))
            .map(|(dep, span)| (amd::normalize(&id, dep), *span))
            .collect();
        let modules = &mut self.facts.bundles[bundle as usize].modules;
        self.amd_pending.push(Pending {
            index: modules.len(),
            declared,
            required,
            loaded,
        });
        modules.push(module);
        self.stack.push(ModuleRef { bundle, key });
        define.value.visit_with(self);
        self.stack.pop();
    }

    /// Whether one more registered module is walked as a module: not when its key was
    /// registered before in the file (`first` false), nor past `max_modules` (counted).
    fn admit_registration(&mut self, first: bool) -> bool {
        if first && self.modules >= self.budget.max_modules {
            self.facts.dropped_modules += 1;
        }
        if !first || self.modules >= self.budget.max_modules {
            return false;
        }
        self.modules += 1;
        true
    }

    /// A Parcel 2 registration, `parcelRegister("key", function (module, exports) {…})`: a
    /// module of the file's bundle for that application's `parcelRequire<hash>`, its requires
    /// the calls of the local `parcelRequire` name inside it.
    fn try_parcel_register(&mut self, call: &CallExpr) -> bool {
        let Some(register) = parcel::register_call(call, &self.parcel_names) else {
            return false;
        };
        let parcel = Gathered::at(
            &mut self.parcel,
            &mut self.facts.bundles,
            self.source,
            ("parcel", &register.global, "parcel-register"),
            call.span,
        );
        let bundle = parcel.bundle;
        let first = parcel.keys.insert(register.key.clone());
        if !self.admit_registration(first) {
            register.factory.visit_with(self);
            return true;
        }
        let params = register.params();
        let (module_name, exports_name) = (
            names::param_name(params.first().copied()),
            names::param_name(params.get(1).copied()),
        );
        let key = ModuleKey::String(register.key);
        let factory = Factory {
            key: Some(key.clone()),
            body: Body::Expr(register.factory),
            module_name,
            exports_name,
            require_name: Some(register.require),
            require_outside: true,
            context: false,
            aliases: Vec::new(),
        };
        let (module, _) = bundle::walk_factory(self.source, &factory, &self.esbuild, false);
        self.facts.bundles[bundle as usize].modules.push(module);
        self.stack.push(ModuleRef { bundle, key });
        register.factory.visit_with(self);
        self.stack.pop();
        true
    }

    /// Resolves the AMD modules' dependencies within the file: a dependency on a module the
    /// file defines, or a plugin resource whose plugin it defines, is a require edge between
    /// factories; any other is a `require` reference
    /// of its module (a Node built-in, a package, or a module of another file). A
    /// `require("x")` inside a factory that names a module of the file is an edge only.
    fn finish_amd(&mut self) {
        let Some(amd) = self.amd.take() else { return };
        let bundle = amd.bundle as usize;
        amd.close(&mut self.facts.bundles, self.source);
        for Pending {
            index,
            declared,
            required,
            loaded,
        } in std::mem::take(&mut self.amd_pending)
        {
            let key = self.facts.bundles[bundle].modules[index].key.clone();
            let mut requires = Vec::new();
            for (dep, span) in declared {
                // A plugin resource (`vs/css!x`) not defined itself loads through its plugin.
                let plugin = dep.split_once('!').map(|(plugin, _)| plugin);
                if amd.keys.contains(&dep) {
                    requires.push(ModuleKey::String(dep));
                } else if let Some(plugin) = plugin.filter(|p| amd.keys.contains(*p)) {
                    requires.push(ModuleKey::String(plugin.to_owned()));
                } else {
                    self.stack.push(ModuleRef {
                        bundle: amd.bundle,
                        key: key.clone(),
                    });
                    self.reference_to("require", Some(dep), None, span);
                    self.stack.pop();
                }
            }
            requires.extend(
                required
                    .into_iter()
                    .filter(|dep| amd.keys.contains(dep))
                    .map(ModuleKey::String),
            );
            requires.sort();
            requires.dedup();
            let mut loads: Vec<ModuleKey> = loaded
                .into_iter()
                .filter(|dep| amd.keys.contains(dep))
                .map(ModuleKey::String)
                .collect();
            loads.sort();
            loads.dedup();
            let module = &mut self.facts.bundles[bundle].modules[index];
            module.requires = requires;
            module.async_modules = loads;
        }
        // References of the modules that name a module of the file: a `require("x")` is an
        // edge already; a `require(["x"], callback)` becomes a load on demand of that module.
        let mut lazy: HashMap<usize, Vec<ModuleKey>> = HashMap::default();
        let index_of: HashMap<&ModuleKey, usize> = self.facts.bundles[bundle]
            .modules
            .iter()
            .enumerate()
            .map(|(i, m)| (&m.key, i))
            .collect();
        self.facts.references.retain(|r| {
            let Some(m) = r.module.as_ref().filter(|m| m.bundle == amd.bundle) else {
                return true;
            };
            let (ModuleKey::String(id), Some(spec)) = (&m.key, &r.specifier) else {
                return true;
            };
            let target = amd::normalize(id, spec);
            if !amd.keys.contains(&target) {
                return true;
            }
            match r.kind {
                "require" => false,
                "dynamic-import" => {
                    if let Some(index) = index_of.get(&m.key) {
                        lazy.entry(*index)
                            .or_default()
                            .push(ModuleKey::String(target));
                    }
                    false
                }
                _ => true,
            }
        });
        for (index, keys) in lazy {
            let module = &mut self.facts.bundles[bundle].modules[index];
            module.async_modules.extend(keys);
            module.async_modules.sort();
            module.async_modules.dedup();
        }
    }

    /// A browserify or Parcel 1 table: the factories require by specifier, which each
    /// factory's deps map turns into the keys of the table.
    fn browserify(&mut self, table: bundle::BrowserifyTable<'_>, span: swc_common::Span) {
        let bundler =
            if table.parcel_global.is_some() || self.facts.vendor_markers.contains(&"parcel") {
                "parcel"
            } else {
                "browserify"
            };
        let runtime = table
            .parcel_global
            .clone()
            .unwrap_or_else(|| bundler.to_owned());
        let deps: HashMap<ModuleKey, HashMap<String, ModuleKey>> = table
            .factories
            .iter()
            .zip(table.deps)
            .filter_map(|(factory, deps)| Some((factory.key.clone()?, deps)))
            .collect();
        let at = self.facts.bundles.len();
        self.bundle(
            bundler,
            runtime,
            "browserify-table",
            (Vec::new(), 0),
            (table.factories, 0),
            table.entries,
            span,
        );
        for module in &mut self.facts.bundles[at].modules {
            let Some(deps) = deps.get(&module.key) else {
                continue;
            };
            let mut requires: Vec<ModuleKey> = module
                .requires
                .iter()
                .filter_map(|key| match key {
                    ModuleKey::String(spec) => deps.get(spec).cloned(),
                    ModuleKey::Number(_) => Some(key.clone()),
                })
                .collect();
            requires.sort();
            requires.dedup();
            module.requires = requires;
        }
        // A `require` the deps map resolves is a require edge between factories, not a
        // reference to resolve among the files.
        let bundle = at as u32;
        self.facts.references.retain(|r| {
            !(r.kind == "require"
                && r.module.as_ref().is_some_and(|module| {
                    module.bundle == bundle
                        && deps.get(&module.key).is_some_and(|deps| {
                            r.specifier
                                .as_ref()
                                .is_some_and(|spec| deps.contains_key(spec))
                        })
                }))
        });
    }

    fn runtime_table(&mut self, name: &str, table: &Expr, span: swc_common::Span) -> bool {
        let lo = table.span().lo.0;
        if !bundle::looks_like_table(table) || !self.claimed_tables.insert(lo) {
            return false;
        }
        let factories = match unwrap(table) {
            Expr::Object(obj) => bundle::object_factories(obj),
            Expr::Array(arr) => bundle::array_factories(arr),
            _ => return false,
        };
        let bundler = self.webpack_family();
        self.bundle(
            bundler,
            name.to_owned(),
            "runtime-table",
            (Vec::new(), 0),
            factories,
            Vec::new(),
            span,
        );
        true
    }
}

/// Literal first arguments of calls to a chunk runtime's first parameter.
fn entry_calls(runtime_fn: &Expr) -> Vec<ModuleKey> {
    struct Calls<'n> {
        name: &'n str,
        keys: Vec<ModuleKey>,
    }
    impl Visit for Calls<'_> {
        fn visit_call_expr(&mut self, call: &CallExpr) {
            let name = callee_name(&call.callee);
            if name == self.name
                && let Some(key) = call
                    .args
                    .first()
                    .and_then(|a| bundle::module_key_of(&a.expr))
            {
                self.keys.push(key);
            }
            call.visit_children_with(self);
        }
    }
    let params: Vec<&Pat> = match unwrap(runtime_fn) {
        Expr::Fn(f) => f.function.params.iter().map(|p| &p.pat).collect(),
        Expr::Arrow(a) => a.params.iter().collect(),
        _ => return Vec::new(),
    };
    let Some(name) = names::param_name(params.first().copied()) else {
        return Vec::new();
    };
    let mut calls = Calls {
        name: &name,
        keys: Vec::new(),
    };
    runtime_fn.visit_with(&mut calls);
    calls.keys.sort();
    calls.keys.dedup();
    calls.keys
}

fn is_native_spec(spec: &str) -> bool {
    let path = spec.split(['?', '#']).next().unwrap_or(spec);
    path.to_ascii_lowercase().ends_with(".node")
}

/// A URL-like string worth recording as a network endpoint.
fn url_like(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    ["http://", "https://", "ws://", "wss://", "//"]
        .iter()
        .any(|p| lower.starts_with(p))
        || (value.starts_with('/') && value.len() > 1 && !value.starts_with("//"))
}

impl names::PathScope for Extractor<'_, '_> {
    fn callee(&self, callee: &Callee) -> String {
        Extractor::callee(self, callee)
    }

    fn anchor(&self, name: &str) -> Option<names::Anchor> {
        self.anchors.resolve(name, &self.scopes).copied()
    }

    fn normalized(&self, name: String) -> String {
        prepass::normalize(&self.aliases, &self.scopes, name)
    }

    fn member_path(&self, dotted: &str) -> Option<&StaticPath> {
        self.member_paths.get(dotted)?.as_ref()
    }

    fn bound_paths(&self, name: &str) -> &[StaticPath] {
        self.paths.bound(name, &self.scopes, &self.assignments)
    }

    fn bound_path(&self, name: &str) -> Option<&StaticPath> {
        self.paths.single(name, &self.scopes, &self.assignments)
    }
}

/// The name a call or a handler names one of the file's functions by: `open`, or `this.open`
/// for a method of a class (also `this.open.bind(this)`).
pub(super) fn local_name(expr: &Expr) -> Option<String> {
    match unwrap(expr) {
        Expr::Ident(ident) => Some(ident.sym.to_string()),
        Expr::Member(member) => match unwrap(&member.obj) {
            Expr::This(_) => Some(format!("this.{}", member.prop.as_ident()?.sym)),
            // A function member of an object literal bound to a name (`handlers.open`).
            Expr::Ident(object) => Some(format!("{}.{}", object.sym, member.prop.as_ident()?.sym)),
            _ => None,
        },
        Expr::Call(call) => match &call.callee {
            Callee::Expr(callee) => match unwrap(callee) {
                Expr::Member(bind) if bind.prop.as_ident().is_some_and(|p| p.sym == *"bind") => {
                    local_name(&bind.obj).filter(|n| n.contains('.'))
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Calls of other modules' exports kept per file (see [`Extractor::imported_use`]).
const MAX_IMPORTED_USES: usize = 4_096;
/// Calls of a plain name read per file, for [`crate::facts::LocalCall`].
const MAX_LOCAL_CALLS: usize = 16_384;

impl Visit for Extractor<'_, '_> {
    // A class a file that exposes a bridge may expose an instance of, kept by its name.
    fn visit_class_decl(&mut self, decl: &swc_ecma_ast::ClassDecl) {
        if self.exposes {
            let object = self.read_class_object(&decl.class);
            let scope = self.scopes.current();
            self.named_objects
                .bind(&electron::class_key(&decl.ident.sym), scope, Some(object));
        }
        decl.visit_children_with(self);
    }

    fn visit_class(&mut self, class: &swc_ecma_ast::Class) {
        let base = class
            .super_class
            .as_deref()
            .map(|base| self.name(base))
            .filter(|base| windows::is_window_constructor(base));
        self.window_classes.push(base);
        self.scopes.enter(prepass::class_scope(class));
        class.visit_children_with(self);
        self.scopes.leave();
        self.window_classes.pop();
    }

    fn visit_constructor(&mut self, constructor: &swc_ecma_ast::Constructor) {
        self.scopes.enter(prepass::constructor_scope(constructor));
        for param in &constructor.params {
            if let swc_ecma_ast::ParamOrTsParamProp::Param(param) = param {
                self.shadow_named_object(&param.pat);
            }
        }
        constructor.visit_children_with(self);
        self.scopes.leave();
    }

    // A class's methods and arrow properties, as `this.<name>` (calls and handlers written
    // `this.open(…)`, `this.open`, `this.open.bind(this)` name them so).
    fn visit_class_method(&mut self, method: &swc_ecma_ast::ClassMethod) {
        if self.electron
            && let Some(name) = method.key.as_ident()
        {
            self.function_scope(|| format!("this.{}", name.sym), method.function.span.lo.0);
            self.named_function(&format!("this.{}", name.sym), method.function.span);
            self.option_function(&name.sym, method.function.span.lo.0);
        }
        method.visit_children_with(self);
    }

    fn visit_class_prop(&mut self, prop: &swc_ecma_ast::ClassProp) {
        if let (Some(name), Some(value)) = (prop.key.as_ident(), &prop.value) {
            let this = || format!("this.{}", name.sym);
            self.window_holder(this, value, false);
            match unwrap(value) {
                Expr::Arrow(a) => self.function_scope(this, a.span.lo.0),
                Expr::Fn(f) => self.function_scope(this, f.function.span.lo.0),
                _ => {}
            }
        }
        if self.electron
            && let (Some(name), Some(value)) = (prop.key.as_ident(), &prop.value)
        {
            match unwrap(value) {
                Expr::Arrow(a) => self.named_function(&format!("this.{}", name.sym), a.span),
                Expr::Fn(f) => self.named_function(&format!("this.{}", name.sym), f.function.span),
                _ => {}
            }
        }
        prop.visit_children_with(self);
    }

    fn visit_fn_decl(&mut self, decl: &swc_ecma_ast::FnDecl) {
        self.function_scope(|| decl.ident.sym.to_string(), decl.function.span.lo.0);
        if self.exposes {
            let returned = electron::function_returns(&decl.function);
            self.returns_object(&decl.ident.sym, returned);
        }
        if self.calls_traced {
            self.named_function(&decl.ident.sym, decl.function.span);
        }
        if self.electron {
            self.option_function(&decl.ident.sym, decl.function.span.lo.0);
        }
        decl.visit_children_with(self);
    }

    fn visit_function(&mut self, function: &swc_ecma_ast::Function) {
        self.scopes.enter(function.span.lo.0);
        for param in &function.params {
            self.shadow_named_object(&param.pat);
        }
        function.visit_children_with(self);
        self.scopes.leave();
    }

    fn visit_for_of_stmt(&mut self, stmt: &swc_ecma_ast::ForOfStmt) {
        self.for_of_loop(stmt);
        self.listing_loop(stmt);
        stmt.visit_children_with(self);
    }

    fn visit_for_in_stmt(&mut self, stmt: &swc_ecma_ast::ForInStmt) {
        self.for_in_loop(stmt);
        stmt.visit_children_with(self);
    }

    fn visit_arrow_expr(&mut self, arrow: &swc_ecma_ast::ArrowExpr) {
        self.scopes.enter(arrow.span.lo.0);
        for param in &arrow.params {
            self.shadow_named_object(param);
        }
        if let swc_ecma_ast::ArrowFunctionBody::Expr(body) = &*arrow.body
            && !self.option_scopes.is_empty()
        {
            self.option_return(body, arrow.span.lo.0);
        }
        arrow.visit_children_with(self);
        self.scopes.leave();
    }

    fn visit_expr(&mut self, expr: &Expr) {
        if self.stop {
            return;
        }
        self.nodes += 1;
        if self.nodes > self.budget.max_ast_nodes {
            self.stop = true;
            self.truncated = true;
            return;
        }
        if self.nodes.is_multiple_of(4096) && (self.cancelled)() {
            self.stop = true;
            return;
        }
        if self.webview_text {
            self.webview_markup(expr);
        }
        expr.visit_children_with(self);
    }

    fn visit_jsx_element(&mut self, element: &swc_ecma_ast::JSXElement) {
        if self.webview_text
            && let Some(tag) = webviews::jsx(element, self.source.range(element.span).start.line)
        {
            self.push_webview(tag);
        }
        element.visit_children_with(self);
    }

    fn visit_stmt(&mut self, stmt: &Stmt) {
        if self.stop {
            return;
        }
        self.nodes += 1;
        if let Stmt::Return(ret) = stmt
            && let Some(value) = &ret.arg
        {
            if !self.option_scopes.is_empty() {
                self.option_return(value, self.scopes.current());
            }
            if self.electron {
                self.window_return(value);
            }
        }
        stmt.visit_children_with(self);
    }

    fn visit_module_decl(&mut self, decl: &ModuleDecl) {
        let (src, span, reexport) = match decl {
            ModuleDecl::Import(i) if !i.type_only => (Some(&i.src), i.span, false),
            ModuleDecl::ExportNamed(e) if !e.type_only => (e.src.as_ref(), e.span, true),
            ModuleDecl::ExportAll(e) if !e.type_only => (Some(&e.src), e.span, true),
            _ => (None, decl.span(), false),
        };
        if let Some(src) = src {
            let spec = src.value.to_string_lossy().into_owned();
            if is_native_spec(&spec) {
                let members = match decl {
                    ModuleDecl::Import(i) => i
                        .specifiers
                        .iter()
                        .map(|s| match s {
                            ImportSpecifier::Named(n) => match &n.imported {
                                Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
                                Some(ModuleExportName::Str(s)) => {
                                    s.value.to_string_lossy().into_owned()
                                }
                                None => n.local.sym.to_string(),
                            },
                            ImportSpecifier::Default(_) => "default".to_owned(),
                            ImportSpecifier::Namespace(_) => "*".to_owned(),
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let mechanism = if reexport { "re-export" } else { "import" };
                let before = self.facts.native.len();
                self.native(mechanism, spec.clone(), "module-specifier", members, span);
                if let (ModuleDecl::Import(i), true) = (decl, self.facts.native.len() > before) {
                    for s in &i.specifiers {
                        let (local, member) = match s {
                            ImportSpecifier::Named(n) => (
                                &n.local.sym,
                                Some(match &n.imported {
                                    Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
                                    Some(ModuleExportName::Str(s)) => {
                                        s.value.to_string_lossy().into_owned()
                                    }
                                    None => n.local.sym.to_string(),
                                }),
                            ),
                            ImportSpecifier::Default(d) => {
                                (&d.local.sym, Some("default".to_owned()))
                            }
                            ImportSpecifier::Namespace(n) => (&n.local.sym, None),
                        };
                        self.native_locals
                            .insert(local.to_string(), (before as u32, member));
                    }
                }
            }
            self.reference_to("static-import", Some(spec), None, span);
        }
        decl.visit_children_with(self);
    }

    fn visit_var_declarator(&mut self, decl: &VarDeclarator) {
        if self.electron && decl.init.is_some() {
            self.page_globals_declared(&decl.name);
        }
        if self.webview_text
            && let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init)
        {
            self.markup_binding = Some((init.span().lo.0, ident.id.sym.clone()));
        }
        if self.calls_traced
            && let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init)
        {
            match unwrap(init) {
                Expr::Object(obj) if self.electron => self.object_functions(&ident.id.sym, obj),
                Expr::Fn(f) => {
                    self.named_function(&ident.id.sym, f.function.span);
                    if self.electron {
                        self.option_function(&ident.id.sym, f.function.span.lo.0);
                    }
                }
                Expr::Arrow(a) => {
                    self.named_function(&ident.id.sym, a.span);
                    if self.electron {
                        self.option_function(&ident.id.sym, a.span.lo.0);
                    }
                }
                _ => {}
            }
        }
        if self.exposes
            && let (Pat::Array(array), Some(init)) = (&decl.name, &decl.init)
            && let Expr::Ident(source) = unwrap(init)
            && let Some(Some(Pat::Ident(first))) = array.elems.first()
        {
            let scope = self.scopes.current();
            self.first_items
                .bind(&first.id.sym, scope, Some(source.sym.to_string()));
        }
        if self.exposes
            && let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init)
        {
            let returned = match unwrap(init) {
                Expr::Fn(f) => electron::function_returns(&f.function),
                Expr::Arrow(a) => electron::arrow_returns(a),
                _ => None,
            };
            self.returns_object(&ident.id.sym, returned);
        }
        if let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init) {
            let name = ident.id.sym.to_string();
            self.window_holder(|| name.clone(), init, true);
            match unwrap(init) {
                Expr::Fn(f) => self.function_scope(|| name.clone(), f.function.span.lo.0),
                Expr::Arrow(a) => self.function_scope(|| name.clone(), a.span.lo.0),
                _ => {}
            }
            if self.esm_tables.contains(&init.span().lo.0)
                && self.exported_chunk(&name, "esm-chunk", init, decl.span)
            {
                return;
            }
            let scope = self.scopes.current();
            if self.tables.holds(&name, scope) && self.runtime_table(&name, init, decl.span) {
                return;
            }
            self.serve_loader(&name, init);
            self.factory_import(ident, init);
            self.member_import(ident, init);
            self.instance_binding(&name, init);
            self.table_binding(&name, init);
            self.listing_binding(&name, init);
            if self.object_names.contains(&name) || self.in_option_function() {
                let object = match unwrap(init) {
                    Expr::Object(obj) => Some(self.read_named_object(obj)),
                    // `const api = new Api()`: the class's methods.
                    Expr::New(new) => self.instance_object(new).cloned(),
                    // `const api = createApi()`: what the function returns, once it is read
                    // if it is declared further on.
                    Expr::Call(call) if self.exposes && self.call_returns_object(call) => {
                        let object = self.returned_object(call);
                        if object.is_none()
                            && let Some(callee) = electron::local_callee(call)
                        {
                            self.returned_by.bind(&name, scope, Some(callee));
                        }
                        object
                    }
                    _ => None,
                };
                // Options composed some other way (`Object.assign({…}, extra)`, a helper's
                // return) are kept as such.
                let composed = object.is_none().then(|| self.option_source(init, 0));
                self.named_objects.bind(&name, scope, object);
                if let Some(source) = composed.filter(|s| !matches!(s, windows::Source::Unknown)) {
                    self.named_options.bind(&name, scope, Some(source));
                }
            }
        }
        let mut bound: Vec<(String, Option<String>)> = Vec::new();
        if let Some(init) = &decl.init
            && let Expr::Call(call) = unwrap(init)
            && require_spec(init).is_some_and(|s| is_native_spec(&s))
        {
            bound = match &decl.name {
                Pat::Ident(i) => vec![(i.id.sym.to_string(), None)],
                Pat::Object(obj) => obj
                    .props
                    .iter()
                    .filter_map(|p| match p {
                        ObjectPatProp::KeyValue(kv) => Some((
                            names::param_name(Some(&kv.value))?,
                            Some(names::prop_name(&kv.key)?),
                        )),
                        ObjectPatProp::Assign(a) => {
                            Some((a.key.id.sym.to_string(), Some(a.key.id.sym.to_string())))
                        }
                        ObjectPatProp::Rest(_) => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let members = match &decl.name {
                Pat::Object(obj) => obj
                    .props
                    .iter()
                    .filter_map(|p| match p {
                        ObjectPatProp::KeyValue(kv) => names::prop_name(&kv.key),
                        ObjectPatProp::Assign(a) => Some(a.key.id.sym.to_string()),
                        ObjectPatProp::Rest(_) => Some("*".to_owned()),
                    })
                    .collect(),
                _ => vec!["*".to_owned()],
            };
            self.native_members
                .entry(call.span.lo.0)
                .or_default()
                .extend(members);
        }
        let before = self.facts.native.len();
        decl.visit_children_with(self);
        if self.facts.native.len() > before {
            for (local, member) in bound {
                self.native_locals.insert(local, (before as u32, member));
            }
        }
    }

    fn visit_assign_expr(&mut self, assign: &swc_ecma_ast::AssignExpr) {
        if assign.op == swc_ecma_ast::AssignOp::Assign
            && match unwrap(&assign.right) {
                Expr::New(_) => true,
                Expr::Call(_) | Expr::Await(_) => self.electron,
                _ => false,
            }
        {
            let holder = || match &assign.left {
                AssignTarget::Simple(SimpleAssignTarget::Ident(name)) => name.id.sym.to_string(),
                AssignTarget::Simple(SimpleAssignTarget::Member(target)) => {
                    names::dotted_member(target)
                }
                _ => String::new(),
            };
            self.window_holder(holder, &assign.right, false);
        }
        if assign.op == swc_ecma_ast::AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
        {
            self.window_entry_assigned(target, &assign.right);
        }
        if self.reads_ipc
            && assign.op == swc_ecma_ast::AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
        {
            self.page_global_assigned(target, &assign.right);
        }
        if assign.op == swc_ecma_ast::AssignOp::Assign
            && !self.object_names.is_empty()
            && let AssignTarget::Simple(SimpleAssignTarget::Ident(target)) = &assign.left
            && self.object_names.contains(&*target.id.sym)
        {
            self.options_assigned(&target.id.sym, &assign.right);
        }
        if self.webview_text
            && assign.op == swc_ecma_ast::AssignOp::AddAssign
            && let AssignTarget::Simple(SimpleAssignTarget::Ident(name)) = &assign.left
        {
            self.webview_append(&name.id.sym, &assign.right);
        }
        // `exports.modules = {…}` beside `exports.ids = […]`: a chunk in webpack's CommonJS
        // chunk format, which the runtime `require`s and installs.
        if let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
            && self.esm_tables.contains(&assign.right.span().lo.0)
            && bundle::commonjs_chunk_part(target) == Some("modules")
            && !self.esm_chunk_ids.0.is_empty()
            && self.exported_chunk(
                "exports.modules",
                "commonjs-chunk",
                &assign.right,
                assign.span,
            )
        {
            return;
        }
        // `module.exports = [id, factory, …]`: a Turbopack chunk for Node.js.
        if let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
            && assign.op == swc_ecma_ast::AssignOp::Assign
            && let Expr::Array(list) = unwrap(&assign.right)
            && names::dotted_member(target) == "module.exports"
            && self.turbopack_chunk(list, false, assign.span)
        {
            return;
        }
        // A minified webpack 4 bootstrap whose IIFE was inlined assigns the table instead of
        // passing it: `return i=[function(e,t){…},…],c={},a.m=i,…;function a(e){… i[e].call(…)}`
        // (or `r.m=o=[…]`).
        if let AssignTarget::Simple(SimpleAssignTarget::Ident(ident)) = &assign.left
            && assign.op == swc_ecma_ast::AssignOp::Assign
        {
            if self.tables.holds(&ident.id.sym, self.scopes.current())
                && self.runtime_table(&ident.id.sym, &assign.right, assign.span)
            {
                return;
            }
            self.serve_loader(&ident.id.sym, &assign.right);
            // `let e, n; …, n = t(777)`, as minifiers write declarations.
            self.factory_import(ident, &assign.right);
            self.member_import(ident, &assign.right);
            self.instance_binding(&ident.id.sym, &assign.right);
        }
        // `details.responseHeaders["Content-Security-Policy"] = [policy]`.
        if let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
            && let swc_ecma_ast::MemberProp::Computed(key) = &target.prop
            && is_csp_key(&key.expr)
        {
            self.csp_header(&assign.right);
        }
        // `options.webPreferences = …` after `options` was bound to window options.
        if !self.object_names.is_empty()
            && assign.op == swc_ecma_ast::AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
        {
            self.amend_options(target, &assign.right);
        }
        // `exports.api = {…}` in a file that uses Electron: an API another file (or, in a
        // module factory, another factory) may expose.
        if self.electron
            && let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left
        {
            self.exported_object(target, &assign.right);
        }
        if let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left {
            let target_name = names::dotted_member(target);
            if target_name.starts_with("module.exports") || target_name.starts_with("exports.") {
                let (call, member) = match unwrap(&assign.right) {
                    Expr::Member(m) => {
                        (unwrap(&m.obj), m.prop.as_ident().map(|p| p.sym.to_string()))
                    }
                    other => (other, None),
                };
                if let Expr::Call(call) = call
                    && require_call_spec(call).is_some_and(|s| is_native_spec(&s))
                {
                    let exported = target_name
                        .rsplit('.')
                        .next()
                        .filter(|n| *n != "exports")
                        .map(str::to_owned);
                    let name = member.or(exported).unwrap_or_else(|| "*".to_owned());
                    self.native_members
                        .entry(call.span.lo.0)
                        .or_default()
                        .push(name);
                    self.native_mechanism.insert(call.span.lo.0, "re-export");
                }
            }
        }
        assign.visit_children_with(self);
    }

    fn visit_export_default_expr(&mut self, export: &swc_ecma_ast::ExportDefaultExpr) {
        // `export default {…}` in a file that uses Electron.
        if self.electron
            && let Expr::Object(obj) = unwrap(&export.expr)
        {
            let object = self.read_named_object(obj);
            self.literal_apis.push(("default".to_owned(), object));
        }
        export.visit_children_with(self);
    }

    fn visit_member_expr(&mut self, member: &swc_ecma_ast::MemberExpr) {
        if self.electron
            && let Expr::Ident(object) = unwrap(&member.obj)
            && &*object.sym == "process"
            && member.prop.as_ident().is_some_and(|p| &*p.sym == "argv")
        {
            self.argv_read(member.span);
        }
        if let Expr::Call(call) = unwrap(&member.obj)
            && let Some(prop) = member.prop.as_ident()
            && require_spec(&member.obj).is_some_and(|s| is_native_spec(&s))
        {
            self.native_members
                .entry(call.span.lo.0)
                .or_default()
                .push(prop.sym.to_string());
        }
        member.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, call: &CallExpr) {
        if self.stop {
            return;
        }
        self.for_each_loop(call);
        self.listing_callback(call);
        self.window_collecting_call(call);
        if let Callee::Import(_) = call.callee {
            self.reference(
                "dynamic-import",
                call.args.first().map(|a| &*a.expr),
                call.span,
            );
            call.visit_children_with(self);
            return;
        }
        if self.try_chunk_push(call) || self.try_define(call) || self.try_parcel_register(call) {
            return;
        }
        // `super(options)` in a class that extends a window constructor makes that window.
        if let Callee::Super(_) = call.callee
            && let Some(Some(base)) = self.window_classes.last()
        {
            let base = base.clone();
            self.window(&base, call.args.first().map(|a| &*a.expr), call.span);
            self.window_held_by_this(call.span.lo.0);
        }
        let name = self.callee(&call.callee);
        if self.stack.is_empty() && !self.runtime_requires.is_empty() {
            // The runtime's require may be inlined where the entry calls it once:
            // `function r(t) {…}(157)`.
            match call.callee.as_expr().map(|c| unwrap(c)) {
                Some(Expr::Fn(_)) => {
                    if let Some(inlined) = names::called_function_name(call) {
                        self.runtime_call(inlined, call);
                    }
                }
                _ => self.runtime_call(&name, call),
            }
        }
        if !self.vite_deps.is_empty() && name == "__vite__mapDeps" {
            self.vite_preloads(call);
        }
        if self.exposes && self.electron && !self.stack.is_empty() && name.ends_with(".d") {
            self.export_getters(call);
        }
        if !self.helpers.is_empty() || !self.instances.is_empty() || !self.class_helpers.is_empty()
        {
            self.helper_call(call);
        }
        if !self.imports.is_empty() {
            self.imported_helper_call(call);
        }
        let wrapper = if named(&name, "__commonJS") {
            Some((bundle::Wrapper::CommonJs, None))
        } else if named(&name, "__esm") {
            Some((bundle::Wrapper::Esm, None))
        } else {
            self.wrapper_calls
                .get(&(call.span.lo.0, call.span.hi.0))
                .map(|(kind, key)| (*kind, key.as_deref()))
        };
        if let Some((kind, key)) = wrapper
            && let Some(arg) = call.args.first().map(|a| unwrap(&a.expr))
        {
            let key = key
                .map(|k| ModuleKey::String(k.to_owned()))
                .or_else(|| self.inline_wrapper_key(call));
            let (mut factories, unknown) = match (arg, key) {
                (Expr::Object(table), _) => bundle::object_factories(table),
                // A minified build's wrapper of the function alone, keyed by its binding
                // (or, written in place, by its offset).
                (function, Some(key)) => (vec![bundle::factory(Some(key), function)], 0),
                _ => (Vec::new(), 0),
            };
            // esbuild calls a wrapper's function with `(exports, module)`, not webpack's
            // `(module, exports, require)`.
            for factory in &mut factories {
                std::mem::swap(&mut factory.module_name, &mut factory.exports_name);
                factory.require_name = None;
            }
            let factories = (factories, unknown);
            if !factories.0.is_empty() {
                let offset = self.source.offset(call.span.lo);
                let bundle = self.facts.bundles.len() as u32;
                self.bundle(
                    self.wrapper_bundler,
                    kind.runtime(),
                    "esbuild-wrapper",
                    (vec![kind.chunk_key(offset)], 0),
                    factories,
                    Vec::new(),
                    call.span,
                );
                self.bind_pending_wrapper_imports(call, bundle);
                return;
            }
        }
        if let Some((from, helper, key)) =
            self.imported_calls.get(&(call.span.lo.0, call.span.hi.0))
        {
            self.imported_wrapper(call, from.clone(), helper.clone(), key.clone());
            call.visit_children_with(self);
            return;
        }
        if let Some(table) = bundle::browserify_table(call)
            && self.claimed_tables.insert(call.args[0].expr.span().lo.0)
        {
            self.browserify(table, call.span);
            call.callee.visit_with(self);
            for arg in call.args.iter().skip(1) {
                arg.visit_with(self);
            }
            return;
        }
        // webpack 4 bootstrap: (function(modules){ … })({…} | […])
        if let Callee::Expr(callee) = &call.callee
            && let Some(table) = call.args.first()
        {
            let (params, scope): (Vec<&Pat>, u32) = match unwrap(callee) {
                Expr::Fn(f) => (
                    f.function.params.iter().map(|p| &p.pat).collect(),
                    f.function.span.lo.0,
                ),
                Expr::Arrow(a) => (a.params.iter().collect(), a.span.lo.0),
                _ => (Vec::new(), prepass::PROGRAM_SCOPE),
            };
            if let Some(param) = names::param_name(params.first().copied())
                && self.tables.holds(&param, scope)
                && self.runtime_table(&param, &table.expr, call.span)
            {
                callee.visit_with(self);
                for arg in call.args.iter().skip(1) {
                    arg.visit_with(self);
                }
                return;
            }
        }
        self.inspect_call(&name, call);
        call.visit_children_with(self);
    }

    fn visit_opt_call(&mut self, call: &swc_ecma_ast::OptCall) {
        match names::opt_call_as_call(call) {
            Some(call) => self.visit_call_expr(&call),
            None => call.visit_children_with(self),
        }
    }

    fn visit_new_expr(&mut self, new: &NewExpr) {
        if self.stop {
            return;
        }
        let name = self.name(&new.callee);
        let args: &[swc_ecma_ast::ExprOrSpread] = new.args.as_deref().unwrap_or(&[]);
        let first = args.first().map(|a| &*a.expr);
        if windows::is_window_constructor(&name) {
            self.window(&name, first, new.span);
        } else if named(&name, "Worker") {
            self.reference("worker", first, new.span);
        } else if named(&name, "SharedWorker") {
            self.reference("shared-worker", first, new.span);
        } else if named(&name, "WebSocket") || named(&name, "EventSource") {
            if let Some(url) = first.and_then(string) {
                self.observation(
                    "endpoint",
                    name.rsplit('.').next().unwrap_or("").to_owned(),
                    Some(crate::redact::url(&url)),
                    new.span,
                );
            }
        } else if name == "URL" && args.len() == 2 && self.name(&args[1].expr) == "import.meta.url"
        {
            self.reference("import-meta-url", first, new.span);
        }
        new.visit_children_with(self);
    }

    fn visit_bin_expr(&mut self, bin: &BinExpr) {
        self.sender_comparison(bin);
        bin.visit_children_with(self);
    }

    fn visit_prop(&mut self, prop: &Prop) {
        if let Prop::KeyValue(kv) = prop
            && let Some(key) = names::prop_name(&kv.key)
        {
            if (key == "path" || key == "route")
                && let Some(value) = string(&kv.value)
                && value.starts_with('/')
            {
                self.observation(
                    "route",
                    format!("property:{key}"),
                    Some(value),
                    kv.value.span(),
                );
            } else if key.eq_ignore_ascii_case("content-security-policy") {
                self.csp_header(&kv.value);
            } else if key == "preload" {
                // Each static branch of `isDev ? a : b`.
                for path in names::static_paths(&kv.value, self) {
                    self.preload_property(path, kv.value.span());
                }
            }
        }
        // `{ preload }` of a name bound to a path.
        if let Prop::Shorthand(ident) = prop
            && ident.sym == *"preload"
        {
            for path in names::PathScope::bound_paths(self, &ident.sym).to_vec() {
                self.preload_property(path, ident.span);
            }
        }
        prop.visit_children_with(self);
    }
}

impl Extractor<'_, '_> {
    /// A `preload` property of a static path, in any object: a renderer load of a preload.
    fn preload_property(&mut self, path: StaticPath, span: swc_common::Span) {
        // A bare word (`preload: "auto"`) is not a script path.
        let script = path.context == "filesystem-expression"
            || [".js", ".cjs", ".mjs"]
                .iter()
                .any(|e| path.path.to_ascii_lowercase().ends_with(e));
        if script && self.admit(Some(format!("preload\0{}\0{}", path.path, span.lo.0))) {
            self.facts.renderer_loads.push(RendererLoad {
                window: None,
                api: "preload-property",
                target: path.path,
                context: path.context,
                range: self.source.range(span),
                module: self.module(),
            });
        }
    }
}

/// Whether `expr` is the string `Content-Security-Policy`, in any case (header names are
/// not case-sensitive); checked without allocating.
fn is_csp_key(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Lit(swc_ecma_ast::Lit::Str(s)) => s
            .value
            .as_bytes()
            .eq_ignore_ascii_case(b"content-security-policy"),
        _ => false,
    }
}

impl Extractor<'_, '_> {
    /// The value of a `Content-Security-Policy` property: a literal string, or an array of
    /// them (each a header value).
    fn csp_header(&mut self, value: &Expr) {
        let values: Vec<(String, swc_common::Span)> = match unwrap(value) {
            Expr::Array(items) => items
                .elems
                .iter()
                .flatten()
                .filter_map(|item| Some((string(&item.expr)?, item.expr.span())))
                .collect(),
            other => string(other)
                .map(|policy| (policy, other.span()))
                .into_iter()
                .collect(),
        };
        for (policy, span) in values {
            if !self.admit(Some(format!("csp\0{}", span.lo.0))) {
                continue;
            }
            let (allows_inline_scripts, allows_eval) =
                crate::csp::judge([policy.as_str()], crate::csp::Delivery::Header);
            self.facts.csp_headers.push(HeaderPolicy {
                policy: cut(&policy, MAX_POLICY).to_owned(),
                range: self.source.range(span),
                allows_inline_scripts,
                allows_eval,
                module: self.module(),
            });
        }
    }

    fn inspect_call(&mut self, name: &str, call: &CallExpr) {
        let first = call.args.first().map(|a| &*a.expr);
        let span = call.span;
        if self.webview_text {
            self.webview_call(name, call);
        }
        self.global_call(name, call);
        if !self.native_locals.is_empty() {
            self.native_use(name, span);
        }
        // Not a call of a module read as an alias (Electron, `path`, `child_process`…), even
        // through a bundle factory that re-exports it.
        if self.calls_traced
            && prepass::module_of(name).is_none()
            && let Callee::Expr(callee) = &call.callee
        {
            if self.electron {
                self.imported_use(callee, span);
            }
            // A member of an object is kept only once the file has declared a function under
            // that name (most member calls are of other things).
            if let Some(name) = local_name(callee)
                && self.local_calls.len() < MAX_LOCAL_CALLS
                && (name.starts_with("this.")
                    || !name.contains('.')
                    || self.named_functions.contains_key(&name))
            {
                let range = self.source.range(span);
                self.local_calls.push((name, range));
            }
        }
        // A response header set by a call: `res.setHeader("Content-Security-Policy", v)`
        // (Node's `http`), `headers.set(…)`/`append(…)` (fetch's `Headers`), `res.header(…)`
        // and `res.set(…)` (Express, Fastify).
        if let [key, value, ..] = call.args.as_slice()
            && is_csp_key(&key.expr)
            && ["setHeader", "set", "append", "header"]
                .iter()
                .any(|method| names::object_of(name, method).is_some())
        {
            self.csp_header(&value.expr);
            return;
        }
        // require and its native-addon forms.
        if name == "require" || (named(name, "require") && !name.contains("__webpack_require__")) {
            // AMD's `require([ids], callback)` loads modules on demand.
            if let Some(Expr::Array(ids)) = first.map(unwrap) {
                for id in ids.elems.iter().flatten() {
                    match string(&id.expr) {
                        Some(spec) if amd::is_special(&spec) => {}
                        Some(spec) => {
                            self.reference_to("dynamic-import", Some(spec), None, id.expr.span())
                        }
                        None => self.reference("dynamic-import", Some(&id.expr), id.expr.span()),
                    }
                }
                return;
            }
            let spec = first.and_then(string);
            match spec {
                Some(spec) if is_native_spec(&spec) => {
                    let lo = call.span.lo.0;
                    let members = self.native_members.remove(&lo).unwrap_or_default();
                    let mechanism = self.native_mechanism.remove(&lo).unwrap_or("require");
                    self.native(mechanism, spec, "module-specifier", members, span);
                }
                // `require(__webpack_require__.ab + "build/Release/x.node")`: a path built
                // from the module's directory.
                None => {
                    if let Some(path) = first.and_then(|e| static_path(e, self))
                        && is_native_spec(&path.path)
                    {
                        let lo = call.span.lo.0;
                        let members = self.native_members.remove(&lo).unwrap_or_default();
                        self.native("require", path.path, path.context, members, span);
                    }
                }
                _ => {}
            }
            // `require(path.join(__dirname, "lib/a.js"))`: a path built from the file's own
            // directory names the module as a relative specifier would.
            match first
                .filter(|e| string(e).is_none())
                .and_then(|e| static_path(e, self))
                .and_then(|path| relative_specifier(&path))
            {
                Some(specifier) => {
                    let expression = first.map(|e| self.source.expression(e.span()));
                    self.reference_to("require", Some(specifier), expression, span);
                }
                None => {
                    let count = self.facts.references.len();
                    self.reference("require", first, span);
                    // `require(path.join(dir, file))`: a module of that directory, which one
                    // known only at run time.
                    // A file of a glob's listing (`files.forEach((f) => require(f))`) too.
                    let dir = first.and_then(|e| {
                        let dir = names::static_dir(e, self).map(|dir| match dir.path.as_str() {
                            "" => ".".to_owned(),
                            d if d.starts_with("../") => d.to_owned(),
                            d => format!("./{d}"),
                        });
                        dir.or_else(|| self.listed_item_dir(e))
                    });
                    if self.facts.references.len() > count
                        && let Some(dir) = dir
                        && let Some(reference) = self.facts.references.last_mut()
                        && reference.specifier.is_none()
                    {
                        reference.directory = Some(dir);
                    }
                }
            }
            return;
        }
        // `process.dlopen(module, path)`, as webpack's node-loader loads an add-on.
        if name == "process.dlopen"
            && let Some(path) = call.args.get(1).and_then(|a| static_path(&a.expr, self))
            && is_native_spec(&path.path)
        {
            self.native("dlopen", path.path, path.context, Vec::new(), span);
            return;
        }
        // `__webpack_require__.e(id)` loads a chunk; the factory walk records it as an async
        // chunk of its module, so it is not a reference here.
        if let Some(object) = name.strip_suffix(".e")
            && (object == "__webpack_require__" || object.ends_with(".__webpack_require__"))
        {
            return;
        }
        if name == "bindings" {
            let target = first.and_then(|e| {
                string(e).or_else(|| names::property_of(e, "bindings").and_then(string))
            });
            if let Some(target) = target {
                self.native("bindings", target, "bindings-name", Vec::new(), span);
            }
            return;
        }
        if let Callee::Expr(callee) = &call.callee
            && let Some(spec) = require_spec(callee)
        {
            match aliased_module(&spec) {
                Some("bindings") => {
                    if let Some(target) = first.and_then(string) {
                        self.native("bindings", target, "bindings-name", Vec::new(), span);
                    }
                    return;
                }
                Some("node-gyp-build") => {
                    self.node_gyp_build(first, span);
                    return;
                }
                _ => {}
            }
        }
        if name == "node-gyp-build" {
            self.node_gyp_build(first, span);
            return;
        }
        if name == "importScripts" {
            for arg in &call.args {
                self.reference("import-scripts", Some(&arg.expr), span);
            }
            return;
        }
        if named(name, "serviceWorker.register") {
            self.reference("service-worker", first, span);
            return;
        }
        // Network endpoints.
        if name == "fetch" || named(name, "fetch") {
            if let Some(url) = first.and_then(string) {
                self.observation(
                    "endpoint",
                    "fetch".to_owned(),
                    Some(crate::redact::url(&url)),
                    span,
                );
            }
            return;
        }
        if named(name, "open")
            && call.args.len() >= 2
            && first.and_then(string).is_some_and(|m| {
                ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
                    .contains(&m.to_ascii_uppercase().as_str())
            })
        {
            if let Some(url) = string(&call.args[1].expr) {
                self.observation(
                    "endpoint",
                    "xhr".to_owned(),
                    Some(crate::redact::url(&url)),
                    span,
                );
            }
            return;
        }
        // Where the application looks for updates: Electron's `autoUpdater.setFeedURL(url)` or
        // `({url})`, and electron-updater's `({provider, url})`.
        if named(name, "setFeedURL") {
            let url = first.and_then(|arg| {
                string(arg).or_else(|| names::property_of(arg, "url").and_then(string))
            });
            if let Some(url) = url {
                self.observation(
                    "endpoint",
                    "setFeedURL".to_owned(),
                    Some(crate::redact::url(&url)),
                    span,
                );
            }
            return;
        }
        for method in ["get", "post", "put", "patch", "delete", "request"] {
            if names::object_of(name, method).is_some()
                && let Some(url) = first.and_then(string)
                && url_like(&url)
            {
                self.observation(
                    "endpoint",
                    format!("http-client.{method}"),
                    Some(crate::redact::url(&url)),
                    span,
                );
                return;
            }
        }
        // Routes.
        for api in [
            "route",
            "addRoute",
            "useRoutes",
            "createBrowserRouter",
            "createHashRouter",
        ] {
            if named(name, api)
                && let Some(route) = first.and_then(string)
            {
                self.observation("route", format!("call:{api}"), Some(route), span);
                return;
            }
        }
        // Storage.
        let storage = if name.contains("localStorage.") {
            Some("local-storage")
        } else if name.contains("sessionStorage.") {
            Some("session-storage")
        } else if named(name, "indexedDB.open") {
            Some("indexed-db")
        } else if named(name, "caches.open") {
            Some("cache-storage")
        } else {
            None
        };
        if let Some(kind) = storage {
            let value = first.and_then(string);
            self.observation("storage", kind.to_owned(), value, span);
            return;
        }
        self.window_call(name, call);
        self.electron_call(name, call);
    }

    fn node_gyp_build(&mut self, first: Option<&Expr>, span: swc_common::Span) {
        let dir = match first.map(unwrap) {
            Some(Expr::Ident(i)) if i.sym == *"__dirname" => Some(".".to_owned()),
            Some(e) => static_path(e, self).map(|p| p.path),
            None => None,
        };
        if let Some(dir) = dir {
            self.native(
                "node-gyp-build",
                dir,
                "filesystem-expression",
                Vec::new(),
                span,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan reports non-overlapping occurrences: a needle inside another would go unseen.
    #[test]
    fn no_needle_hides_another() {
        let needles: Vec<&str> = VENDOR_MARKERS
            .iter()
            .flat_map(|(_, list)| list.iter().copied())
            .chain(SOURCE_MAP_DIRECTIVES.iter().copied())
            .collect();
        for a in &needles {
            for b in &needles {
                assert!(a == b || !a.contains(b), "{a} contains {b}");
            }
        }
    }

    #[test]
    fn every_marker_is_found_back_to_back() {
        let text: String = VENDOR_MARKERS
            .iter()
            .flat_map(|(_, list)| list.iter().copied())
            .collect::<Vec<_>>()
            .concat()
            + "\n//# sourceMappingURL=a.js.map\n//@ sourceMappingURL=b.js.map";
        let scan = scan_text(&text);
        let all: Vec<&str> = VENDOR_MARKERS.iter().map(|(name, _)| *name).collect();
        assert_eq!(scan.vendors, all);
        assert_eq!(scan.urls, ["a.js.map", "b.js.map"]);
    }
}
