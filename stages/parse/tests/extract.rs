//! The extractor on small sources shaped like what bundlers and Electron apps ship.

use rea_parse::{
    FileFacts, FileKind, ImportFrom, ModuleKey, Options, ParseStatus, StaticValue, TextLimits,
};

/// Each IPC operation's channel, in the order the file makes them.
fn op_channels(facts: &rea_parse::FileFacts) -> Vec<Option<&str>> {
    facts
        .js
        .ipc
        .iter()
        .map(|op| op.channel.as_deref())
        .collect()
}

/// Runs on a thread with the stack the engine's pool threads have.
fn facts(path: &str, text: &str) -> FileFacts {
    let (path, text) = (path.to_owned(), text.to_owned());
    std::thread::Builder::new()
        .stack_size(rea_parse::syntax::STACK_BYTES)
        .spawn(move || facts_here(&path, &text))
        .unwrap()
        .join()
        .unwrap()
}

fn facts_here(path: &str, text: &str) -> FileFacts {
    let mut facts = FileFacts::new(
        path.to_owned(),
        None,
        text.len() as u64,
        FileKind::of(path).unwrap(),
    );
    let options = Options {
        limits: TextLimits::default(),
        source_map_contents: true,
    };
    rea_parse::read_text(&mut facts, text, options, &|| false);
    facts
}

/// A file's IPC operations as (side, operation, channel).
fn ipc_ops(facts: &FileFacts) -> Vec<(&str, &str, Option<&str>)> {
    facts
        .js
        .ipc
        .iter()
        .map(|op| (op.side, op.operation, op.channel.as_deref()))
        .collect()
}

/// Each window's static preload, as (path, context).
fn preloads(facts: &FileFacts) -> Vec<Option<(&str, &'static str)>> {
    facts
        .js
        .windows
        .iter()
        .map(|w| w.preload.as_ref().map(|p| (p.path.as_str(), p.context)))
        .collect()
}

/// A file's renderer loads as (api, target).
fn renderer_loads(facts: &FileFacts) -> Vec<(&str, &str)> {
    facts
        .js
        .renderer_loads
        .iter()
        .map(|l| (l.api, l.target.as_str()))
        .collect()
}

fn keys(facts: &FileFacts) -> Vec<String> {
    let mut keys: Vec<String> = facts
        .js
        .bundles
        .iter()
        .flat_map(|b| b.modules.iter().map(|m| m.key.text()))
        .collect();
    keys.sort();
    keys
}

/// webpack's minifier inlines the runtime's require where the entry calls it once, as Electron
/// Forge's production builds ship a main process and a preload: the call of that function
/// expression requires the `electron` external's factory. A function called the same way that
/// does not read a module table with itself as the require binds nothing.
#[test]
fn a_runtime_require_inlined_where_the_entry_calls_it_reaches_the_external() {
    let f = facts(
        ".webpack/main/index.js",
        r#"(()=>{var e={157:e=>{"use strict";e.exports=require("electron")}},n={};const{app:r,ipcMain:o}=function r(t){var o=n[t];if(void 0!==o)return o.exports;var i=n[t]={exports:{}};return e[t](i,i.exports,r),i.exports}(157);o.handle("app:version",()=>r.getVersion()),o.on("settings:open",()=>{})})();"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(
        ipc_ops(&f),
        [
            ("main", "handle", Some("app:version")),
            ("main", "on", Some("settings:open"))
        ]
    );
    let f = facts(
        "main.js",
        r#"(()=>{var e={157:e=>{"use strict";e.exports=require("electron")}};const{ipcMain:o}=function r(t){return e[t]}(157);o.handle("app:version",()=>1)})();"#,
    );
    assert_eq!(ipc_ops(&f), []);
}

#[test]
fn webpack5_chunk_push_recovers_factories_and_requires() {
    let f = facts(
        "chunks/webpack.js",
        r#"globalThis.__rea_bundle_executed = true; throw new Error("executed");
(globalThis.webpackChunkfixture = globalThis.webpackChunkfixture || []).push([[101], {
  1: (module, exports, r) => { const dependency = r(2); exports.lookup = () => dependency; },
  2: (module) => { module.exports = { value: 42 }; }
}]);"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.runtime.as_str(), bundle.shape),
        ("webpack", "webpackChunkfixture", "jsonp-chunk")
    );
    assert_eq!(bundle.chunk_keys, ["101"]);
    assert_eq!(f.js.vendor_markers, ["webpack"]);
    assert_eq!(keys(&f), ["1", "2"]);
    let one = &bundle.modules[0];
    assert_eq!(one.key, ModuleKey::Number(1));
    assert_eq!(one.requires, [ModuleKey::Number(2)]);
    assert_eq!(one.exports, ["lookup"]);
    assert_eq!(one.require_name.as_deref(), Some("r"));
    assert!(one.fingerprint.is_some());
    assert_eq!(
        bundle.modules[1].exports,
        ["value"],
        "an object literal exports its keys"
    );
}

/// A Next.js page registers the chunks Turbopack loads and the modules it runs then, in an
/// inline script: a bundle with no factories, its chunks by path (a string, or `{path}`) and
/// its modules as the runtime's entry requires. An object pushed without those keys is not one.
#[test]
fn a_turbopack_page_registration_names_the_chunks_to_load_and_the_modules_to_run() {
    let f = facts(
        "out/index.js",
        r#"(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a.js",{"path":"static/chunks/b.js","included":[1]}],"runtimeModuleIds":[94553,"[project]/app/x.js"]});
(globalThis.TURBOPACK ||= []).push({"other":["static/chunks/c.js"]});"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(f.js.bundles.len(), 1);
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.runtime.as_str(), bundle.shape),
        ("turbopack", "TURBOPACK", "turbopack-registration")
    );
    assert!(bundle.modules.is_empty());
    assert_eq!(
        bundle.async_chunks,
        ["static/chunks/a.js", "static/chunks/b.js"]
    );
    assert_eq!(bundle.entry_requires, ["94553", "[project]/app/x.js"]);
}

#[test]
fn turbopack_chunks_list_ids_before_the_factory_they_share() {
    // A browser chunk as Next.js 16 writes it: a strict group first, then `id… factory`
    // groups; the context's methods require, load and export.
    let f = facts(
        "out/_next/static/chunks/a.js",
        r#"(globalThis.TURBOPACK||(globalThis.TURBOPACK=[])).push(["object"==typeof document?document.currentScript:void 0,
(()=>{"use strict";return[11,(a,b,c)=>{b.exports=a.r(12)},12,(a,b,c)=>{c.x=1}]})(),
20,21,a=>{"use strict";var b=a.i(30);a.s(["default",0,function(){return a.A(40).then(c=>window.bridge.send(b.f.GO))}])},
30,a=>{a.s(["f",0,{GO:"app:go"},"g",()=>h]);const h="app:g"},
40,a=>{a.v(b=>Promise.all(["static/chunks/b.js"].map(b=>a.l(b))).then(()=>b(50)))},
60,function(a){var b=function(a){return a.r(99)};return b}]);"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.runtime.as_str(), bundle.shape),
        ("turbopack", "TURBOPACK", "turbopack-chunk")
    );
    assert!(bundle.chunk_keys.is_empty(), "a script element is no key");
    assert_eq!(keys(&f), ["11", "12", "20", "21", "30", "40", "60"]);
    let module = |key: u64| {
        bundle
            .modules
            .iter()
            .find(|m| m.key == ModuleKey::Number(key))
            .unwrap()
    };
    assert_eq!(module(11).requires, [ModuleKey::Number(12)]);
    // 21 names the factory 20 names: one factory, read once.
    assert_eq!(module(21).source_sha256, module(20).source_sha256);
    assert_eq!(module(20).requires, [ModuleKey::Number(30)]);
    assert_eq!(module(20).async_modules, [ModuleKey::Number(40)]);
    assert_eq!(module(20).exports, ["default"]);
    assert_eq!(module(30).exports, ["f", "g"]);
    assert_eq!(module(40).async_chunks, ["static/chunks/b.js"]);
    assert_eq!(module(40).requires, [ModuleKey::Number(50)]);
    // A function that takes a parameter of the context's name hides it.
    assert!(module(60).requires.is_empty());
    // The page's channel is read off what factory 30 exports.
    let call = &f.js.window_calls[0];
    assert_eq!(call.name, "bridge.send");
    assert_eq!(call.args[0].as_deref(), Some("app:go"));

    // Older builds push the chunk's path and an object of factories; a Node.js chunk is
    // `module.exports = [id, factory, …]`, named ids start with `[`.
    let f = facts(
        "static/chunks/c.js",
        r#"(globalThis.TURBOPACK = globalThis.TURBOPACK || []).push(["static/chunks/c.js", {
"[project]/a.js [app-client] (ecmascript)": (__turbopack_context__) => { __turbopack_context__.r("[project]/b.js [app-client] (ecmascript)"); }
}]);"#,
    );
    let bundle = &f.js.bundles[0];
    assert_eq!(bundle.chunk_keys, ["static/chunks/c.js"]);
    assert_eq!(
        bundle.modules[0].requires,
        [ModuleKey::String(
            "[project]/b.js [app-client] (ecmascript)".to_owned()
        )]
    );
    let f = facts(
        "server/chunks/ssr/d.js",
        r#"module.exports=[1,(a,b,c)=>{b.exports=a.r(2)},"[project]/x.js [app-ssr] (ecmascript)",a=>{a.s(["x",0,1])}];"#,
    );
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.runtime.as_str(), bundle.shape),
        ("turbopack-node", "turbopack-commonjs-chunk")
    );
    assert_eq!(keys(&f), ["1", "[project]/x.js [app-ssr] (ecmascript)"]);
    // Arrays of functions that are not Turbopack's are left alone.
    for text in [
        r#"module.exports = ["auth", function (req, res) {}];"#,
        r#"module.exports = [1, 2, 3];"#,
        r#"module.exports = [0, () => {}, 1, function () { return 2; }];"#,
    ] {
        assert!(facts("x.js", text).js.bundles.is_empty(), "{text}");
    }
}

#[test]
fn minified_runtime_table_and_webpack4_bootstrap_are_recovered() {
    // webpack 5 production runtime: the table's name is mangled.
    let f = facts(
        "main.js",
        r#"(()=>{var e={12:(e,t,n)=>{n(34)},34:e=>{e.exports=1}},t={};function n(r){var o=t[r];if(void 0!==o)return o.exports;var i=t[r]={exports:{}};return e[r](i,i.exports,n),i.exports}n(12)})();"#,
    );
    assert_eq!(keys(&f), ["12", "34"]);
    assert_eq!(f.js.bundles[0].shape, "runtime-table");
    assert_eq!(f.js.bundles[0].modules[0].requires, [ModuleKey::Number(34)]);
    // webpack 4: an array table passed to the bootstrap, called through `.call`.
    let f = facts(
        "app.js",
        r#"!function(modules){function r(id){var m={exports:{}};return modules[id].call(m.exports,m,m.exports,r),m.exports}r(0)}([function(e,t,n){n(1)},function(e){e.exports=2}]);"#,
    );
    assert_eq!(keys(&f), ["0", "1"]);
    // webpack 4 JSONP
    let f = facts(
        "1.js",
        r#"(window.webpackJsonp=window.webpackJsonp||[]).push([[1],{"./src/a.js":function(e,t,n){n("./src/b.js")}}]);"#,
    );
    assert_eq!(keys(&f), ["./src/a.js"]);
    assert_eq!(
        f.js.bundles[0].modules[0].requires,
        [ModuleKey::String("./src/b.js".into())]
    );
}

#[test]
fn inlined_webpack4_bootstraps_assign_their_tables() {
    // terser inlines webpack 4's bootstrap IIFE into a UMD factory: the table is assigned to
    // a hoisted `var`, holes and all, and the runtime reads it from a function declared after.
    let f = facts(
        "antd.min.js",
        r#"!function(e,t){module.exports=t()}(this,function(){return i=[function(e,t){e.exports=1},,function(e,t,n){n(0)}],c={},a.m=i,a.c=c,a(a.s=2);function a(e){var t;return(c[e]||(t=c[e]={i:e,l:!1,exports:{}},i[e].call(t.exports,t,t.exports,a),t.l=!0,t)).exports}var i,c});"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(keys(&f), ["0", "2"], "the hole at index 1 is no module");
    assert_eq!(f.js.bundles[0].shape, "runtime-table");
    assert_eq!(f.js.bundles[0].modules[1].requires, [ModuleKey::Number(0)]);
    // The chained form: `r.m=o=[…]`.
    let f = facts(
        "Draft.min.js",
        r#"!function(e,t){module.exports=t()}(window,function(e){return i={},r.m=o=[function(t,n){t.exports=e},function(e,t,n){n(0)}],r.c=i,r(r.s=1);function r(e){if(i[e])return i[e].exports;var t=i[e]={i:e,l:!1,exports:{}};return o[e].call(t.exports,t,t.exports,r),t.l=!0,t.exports}var o,i});"#,
    );
    assert_eq!(keys(&f), ["0", "1"]);
    // A same-named array assigned where no runtime reads it is not a table.
    let f = facts(
        "plain.js",
        r#"function g(){return i=[function(e){return e},function(e){return e+1}],i.map(function(f){return f(1)});var i}"#,
    );
    assert!(f.js.bundles.is_empty());
}

#[test]
fn a_bundle_nested_in_a_factory_keeps_its_own_modules() {
    // A prebuilt webpack 4 library inside a module of a webpack 5 bundle; both tables are `e`
    // and both have a module 1.
    let f = facts(
        "web3.min.js",
        r#"(()=>{var e={1:(e,t,r)=>{e.exports=(function(e){function r(n){var i={exports:{}};return e[n].call(i.exports,i,i.exports,r),i.exports}return r(0)})([function(e,t,r){r(1)},function(e){fetch("https://inner.example/x")}])},7:(e,t,r)=>{r(1)}},t={};function r(n){var o=t[n];if(void 0!==o)return o.exports;var i=t[n]={exports:{}};return e[n](i,i.exports,r),i.exports}r(7)})();"#,
    );
    assert_eq!(f.js.bundles.len(), 2);
    assert_eq!(keys(&f), ["0", "1", "1", "7"]);
    let endpoint =
        f.js.observations
            .iter()
            .find(|o| o.family == "endpoint")
            .expect("the inner module's endpoint");
    let module = endpoint.module.as_ref().expect("it sits in a factory");
    assert_eq!(module.key, ModuleKey::Number(1));
    let inner = &f.js.bundles[module.bundle as usize];
    assert!(
        inner.modules.iter().any(|m| m.key == ModuleKey::Number(0)),
        "the endpoint is in the inner bundle's module 1, not the outer one"
    );
}

#[test]
fn declaration_files_parse_as_declarations() {
    // What packages ship beside their code (Font Awesome writes one per icon): a `const`
    // without an initializer or `declare` is valid only in a declaration file.
    let text = "import { IconDefinition } from './types';\nexport const definition: IconDefinition;\nexport const width: number;\n";
    for path in ["icons/Alarm.d.ts", "esm/Alarm.d.mts", "cjs/Alarm.d.cts"] {
        let f = facts(path, text);
        assert_eq!(
            f.parse,
            ParseStatus::Complete,
            "{path}: {:?}",
            f.diagnostics
        );
        assert!(f.diagnostics.is_empty(), "{path}: {:?}", f.diagnostics);
        assert_eq!(f.js.references.len(), 1, "{path}: the import");
    }
    // The same text as a plain TypeScript source is not valid.
    let f = facts("icons/Alarm.ts", text);
    assert_ne!(f.parse, ParseStatus::Complete);
}

#[test]
fn factories_shipped_as_eval_strings_are_read_statically() {
    // webpack's development default: each factory body is a string for `eval`, wrapped in a
    // block. Nothing is run: the file throws if it ever is.
    let text = r#"throw new Error("executed");
var __webpack_modules__ = ({
"./src/main.js": ((module, exports, __webpack_require__) => {
eval("{var electron = __webpack_require__(/*! electron */ \"electron\");\nelectron.ipcMain.handle(\"settings:get\", () => 1);\nexports.open = 1;\neval(\"__webpack_require__('./src/never.js')\");\n\n//# sourceURL=webpack://app/./src/main.js?}");
}),
"electron": ((module) => {
eval("module.exports = require(\"electron\");");
}),
"./src/other.js": ((module, exports, __webpack_require__) => {
eval(name);
eval("this is not javascript (");
})
});
var __webpack_module_cache__ = {};
function __webpack_require__(id) { var m = __webpack_module_cache__[id] = { exports: {} }; __webpack_modules__[id](m, m.exports, __webpack_require__); return m.exports; }
__webpack_require__("./src/main.js");"#;
    let f = facts("main.js", text);
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let bundle = &f.js.bundles[0];
    let main = bundle
        .modules
        .iter()
        .find(|m| m.key == ModuleKey::String("./src/main.js".into()))
        .unwrap();
    // The require inside the string is read; the `eval` inside it is not read again.
    assert_eq!(main.requires, [ModuleKey::String("electron".into())]);
    assert_eq!(main.exports, ["open"]);
    // `electron` is reached through the external factory, itself an `eval` string.
    let op =
        f.js.ipc
            .iter()
            .find(|op| op.side == "main")
            .expect("ipcMain.handle");
    assert_eq!(op.module.as_ref().unwrap().key, main.key);
    // A finding inside the string is located where the string writes it.
    let written = text
        .find(r#"electron.ipcMain.handle(\"settings:get\""#)
        .unwrap();
    let line = text[..written].matches('\n').count() as u32 + 1;
    assert_eq!(op.range.start.line, line);
    assert_eq!(
        op.range.start.column as usize,
        written - text[..written].rfind('\n').unwrap() - 1
    );
    // So is its end: the call's closing parenthesis, escapes counted as written.
    let end = written + r#"electron.ipcMain.handle(\"settings:get\", () => 1)"#.len();
    assert_eq!(
        op.range.end.column as usize,
        end - text[..end].rfind('\n').unwrap() - 1
    );
    // Neither a non-literal argument nor a string that does not parse is read.
    let other = bundle
        .modules
        .iter()
        .find(|m| m.key == ModuleKey::String("./src/other.js".into()))
        .unwrap();
    assert!(other.requires.is_empty());
}

#[test]
fn an_eval_string_too_deep_to_walk_beside_its_file_is_not_read() {
    // Each side alone is within the parser's bound; together they are not.
    let deep = |n: usize| {
        format!(
            "{}__webpack_require__(\\\"./x.js\\\"){}",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    let file = |inner: usize| {
        format!(
            r#"var __webpack_modules__ = ({{"./a.js": ((module, exports, __webpack_require__) => {{ eval("{}"); }})}});
function __webpack_require__(id) {{ var m = {{ exports: {{}} }}; __webpack_modules__[id](m, m.exports, __webpack_require__); return m.exports; }}"#,
            deep(inner)
        )
    };
    let requires = |text: &str| {
        let f = facts("main.js", text);
        assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
        f.js.bundles[0].modules[0].requires.clone()
    };
    assert_eq!(requires(&file(1_900)), [ModuleKey::String("./x.js".into())]);
    assert!(requires(&file(1_999)).is_empty());
}

#[test]
fn inline_source_maps_are_read_like_map_files() {
    use base64::Engine as _;
    let map = r#"{"version":3,"file":"app.js","sources":["webpack://app/./src/a.js","b.ts"],"sourcesContent":["export const a = 1;\n",null],"mappings":""}"#;
    let b64 = base64::engine::general_purpose::STANDARD.encode(map);
    let text = format!(
        "var a = 1;\n\
         eval(\"var b = 2;\\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,{b64}\\n//# sourceURL=webpack://app/b.js\");\n\
         //# sourceMappingURL=data:application/json,%7B%22version%22%3A3%2C%22sources%22%3A%5B%22c.js%22%5D%7D\n\
         //# sourceMappingURL=data:application/json;base64,@@@\n\
         //# sourceMappingURL=app.js.map\n"
    );
    let f = facts("app.js", &text);
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(
        f.js.source_map_urls,
        ["app.js.map"],
        "data: URLs are read, not listed"
    );
    let maps = &f.js.inline_source_maps;
    assert_eq!(maps.len(), 3);
    // The one inside the eval string ends where the string's escapes start.
    let first = &maps[0];
    assert_eq!(first.map.status, "included");
    assert_eq!(first.map.file.as_deref(), Some("app.js"));
    assert_eq!(first.map.source_count, 2);
    let sources: Vec<(&str, Option<&str>)> = first
        .map
        .sources
        .iter()
        .map(|s| (s.source.as_str(), s.content_sha256.as_deref()))
        .collect();
    let digest = rea_hash::sha256_hex(b"export const a = 1;\n");
    assert_eq!(
        sources,
        [
            ("webpack://app/./src/a.js", Some(digest.as_str())),
            ("b.ts", None)
        ]
    );
    assert_eq!(
        first.map_sha256.as_deref(),
        Some(rea_hash::sha256_hex(map.as_bytes()).as_str())
    );
    // Percent-encoded, then a URL that does not decode.
    assert_eq!(maps[1].map.source_count, 1);
    assert_eq!(maps[1].map.sources[0].source, "c.js");
    assert_eq!(
        (maps[2].map.status, maps[2].map_sha256.as_ref()),
        ("invalid", None)
    );
}

#[test]
fn browserify_tables_resolve_requires_through_their_deps_maps() {
    let f = facts(
        "bundle.js",
        r#"(function(){function r(e,n,t){function o(i,f){var p=n[i]={exports:{}};e[i][0].call(p.exports,function(r){var n=e[i][1][r];return o(n||r)},p,p.exports,r,e,n,t);return n[i].exports}for(var i=0;i<t.length;i++)o(t[i]);return o}return r})()({1:[function(require,module,exports){
var greet = require("./greet"); var fs = require("fs"); module.exports = greet;
},{"./greet":2,"fs":false}],2:[function(require,module,exports){
exports.greet = function (n) { return "hi " + n; };
},{}]},{},[1]);"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.shape),
        ("browserify", "browserify-table")
    );
    assert_eq!(bundle.entry_module_keys, [ModuleKey::Number(1)]);
    assert_eq!(keys(&f), ["1", "2"]);
    assert_eq!(bundle.modules[0].requires, [ModuleKey::Number(2)]);
    assert_eq!(bundle.modules[1].exports, ["greet"]);
    // The resolved require is an edge; the one the map leaves out stays a reference.
    let specs: Vec<_> =
        f.js.references
            .iter()
            .map(|r| r.specifier.as_deref())
            .collect();
    assert_eq!(specs, [Some("fs")]);
    // The same call with a table that is not all [factory, deps] pairs is no bundle.
    let f = facts(
        "other.js",
        r#"run({1:[function(a,b,c){}, {}], 2:[42]}, {}, [1]);"#,
    );
    assert!(f.js.bundles.is_empty());
}

#[test]
fn addon_paths_built_from_assigned_members_and_path_sep_are_native_requests() {
    let f = facts(
        "main/index.js",
        r#"var r = {}; r.ab = __dirname + "/native_modules/"; r.p = "";
module.exports = require(r.ab + "build/Release/a.node");
process.dlopen(module, __dirname + require("path").sep + r.p + "b.node");
var q = {}; q.dir = __dirname + "/one/"; q.dir = __dirname + "/two/";
require(q.dir + "c.node");"#,
    );
    let native: Vec<(&str, &str, &str)> =
        f.js.native
            .iter()
            .map(|n| (n.mechanism, n.specifier.as_str(), n.context))
            .collect();
    assert_eq!(
        native,
        [
            (
                "require",
                "native_modules/build/Release/a.node",
                "filesystem-expression"
            ),
            ("dlopen", "b.node", "filesystem-expression"),
        ],
        "a member assigned two different paths names neither"
    );
}

#[test]
fn esbuild_wrappers_are_factories_with_their_paths() {
    let f = facts(
        "out.js",
        r#"var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[Object.keys(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };
var require_b = __commonJS({ "src/b.js"(exports, module) { module.exports = 2; } });
var require_a = __commonJS({ "src/a.js"(exports) { var b = require_b(); exports.a = b; } });
require_a();"#,
    );
    assert_eq!(keys(&f), ["src/a.js", "src/b.js"]);
    let a =
        f.js.bundles
            .iter()
            .flat_map(|b| &b.modules)
            .find(|m| m.key.text() == "src/a.js")
            .unwrap();
    assert_eq!(a.requires, [ModuleKey::String("src/b.js".into())]);
    assert!(f.js.bundles.iter().all(|b| b.bundler == "esbuild"));
}

#[test]
fn minified_esbuild_wrappers_are_known_by_their_helpers_shape() {
    // esbuild 0.28 with `--minify`: the helpers are renamed, take a third parameter and a
    // `try`; each module is the function alone, known by the name its wrapper is bound to.
    let f = facts(
        "out.js",
        r#"var g=(t,e,r)=>()=>{if(r)throw r[0];try{return t&&(e=t(t=0)),e}catch(a){throw r=[a],a}};var Q=(t,e)=>()=>{try{return e||t((e={exports:{}}).exports,e),e.exports}catch(r){throw e=0,r}};
var U=Q((e,t)=>{t.exports={double(n){return n*2}}});
var i=g(()=>{});
var $=g(()=>{i()});
var V=Q((e,t)=>{var n=U();function k(i){return i()}t.exports=n});
function other(Q){var z=Q(function(){});return z}
module.exports=V();"#,
    );
    assert_eq!(keys(&f), ["$", "U", "V", "i"]);
    let module = |key: &str| {
        f.js.bundles
            .iter()
            .flat_map(|b| &b.modules)
            .find(|m| m.key.text() == key)
            .unwrap()
    };
    // `i()` inside `k`, whose parameter is named `i`, is not a require of module `i`; nor is
    // `Q(function(){})` in `other`, whose parameter is named `Q`, a wrapper.
    assert_eq!(module("V").requires, [ModuleKey::String("U".into())]);
    assert_eq!(module("$").requires, [ModuleKey::String("i".into())]);
    assert!(module("U").requires.is_empty());
    let runtimes: Vec<&str> = f.js.bundles.iter().map(|b| b.runtime.as_str()).collect();
    assert_eq!(
        runtimes,
        [
            "esbuild-commonjs",
            "esbuild-esm",
            "esbuild-esm",
            "esbuild-commonjs"
        ]
    );
    // The older helpers, without `try` (esbuild 0.14–0.19, minified).
    let old = facts(
        "old.js",
        r#"var n=(e,t)=>()=>(e&&(t=e(e=0)),t);var c=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);
var a=c((e,t)=>{t.exports=1});var b=n(()=>{});"#,
    );
    assert_eq!(keys(&old), ["a", "b"]);
    // A function of the same arity that is no wrapper helper wraps nothing.
    let none = facts(
        "none.js",
        r#"var c=(e,t)=>()=>e(t);var a=c((x,y)=>{y.exports=1});"#,
    );
    assert!(keys(&none).is_empty());
}

#[test]
fn calls_of_an_imported_helper_wait_for_the_graph_unless_a_parameter_hides_it() {
    let f = facts(
        "index.js",
        r#"import{a as C}from"./chunk-A.js";
var P=C((e,t)=>{t.exports=1});
function local(C){var Q=C((e,t)=>{t.exports=2});return Q}
var R=C(1);"#,
    );
    // Only `P`: `Q` calls a parameter, `R` passes no function. Neither is a bundle yet.
    let pending: Vec<(&str, &str, String)> =
        f.js.imported_wrappers
            .iter()
            .map(|w| (w.from.as_str(), w.helper.as_str(), w.module.key.text()))
            .collect();
    assert_eq!(pending, [("./chunk-A.js", "a", "P".to_owned())]);
    assert!(f.js.bundles.is_empty());
}

#[test]
fn vite_preload_tables_read_only_through_numeric_indexes() {
    let f = facts(
        "assets/index.js",
        r#"const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["./a.js","./a.css","assets/b.js"])))=>i.map(i=>d[i]);
const E=(f,d)=>f();
E(()=>import("./a.js"),__vite__mapDeps([0,1]));
E(()=>import("./b.js"),__vite__mapDeps([2]));
E(()=>import("./c.js"),__vite__mapDeps([0,n]));"#,
    );
    let dynamic: Vec<&str> =
        f.js.references
            .iter()
            .filter(|r| r.kind == "dynamic-import")
            .filter_map(|r| r.specifier.as_deref())
            .collect();
    // The two literal imports, the table's entries for the numeric calls (an absolute base's
    // entry rooted), nothing for the call with a name among its indexes.
    assert_eq!(
        dynamic,
        ["./a.js", "./a.css", "./b.js", "/assets/b.js", "./c.js"]
    );
}

#[test]
fn fingerprints_ignore_local_names_but_not_structure() {
    let a = facts(
        "a.js",
        r#"self.webpackChunkx.push([[1],{1:(m,e,r)=>{const descriptiveValue=r(2);e.x=descriptiveValue+1}}])"#,
    );
    let b = facts(
        "b.js",
        r#"self.webpackChunkx.push([[9],{7:(m,e,r)=>{const b=r(2);e.x=b+1}}])"#,
    );
    let c = facts(
        "c.js",
        r#"self.webpackChunkx.push([[9],{7:(m,e,r)=>{const b=r(2);e.x=b-1}}])"#,
    );
    let fp = |f: &FileFacts| f.js.bundles[0].modules[0].fingerprint.clone().unwrap();
    let src = |f: &FileFacts| f.js.bundles[0].modules[0].source_sha256.clone();
    assert_eq!(fp(&a), fp(&b));
    assert_ne!(src(&a), src(&b));
    assert_ne!(fp(&b), fp(&c));
}

#[test]
fn references_endpoints_storage_and_workers() {
    let f = facts(
        "renderer/renderer.js",
        r#"import "./chunks/webpack.js";
const routes = [{ path: "/items/:id" }];
fetch("https://api.example.test/items?token=fixture-secret");
localStorage.setItem("theme", "dark");
indexedDB.open("fixture-db");
new Worker("./worker.js");
navigator.serviceWorker.register("./sw.js");
import(someName);
const u = new URL("./asset.png", import.meta.url);
//# sourceMappingURL=renderer.js.map
"#,
    );
    let refs: Vec<(&str, Option<&str>)> =
        f.js.references
            .iter()
            .map(|r| (r.kind, r.specifier.as_deref()))
            .collect();
    assert!(refs.contains(&("static-import", Some("./chunks/webpack.js"))));
    assert!(refs.contains(&("worker", Some("./worker.js"))));
    assert!(refs.contains(&("service-worker", Some("./sw.js"))));
    assert!(refs.contains(&("import-meta-url", Some("./asset.png"))));
    let dynamic =
        f.js.references
            .iter()
            .find(|r| r.kind == "dynamic-import")
            .unwrap();
    assert_eq!(
        (dynamic.specifier.as_deref(), dynamic.expression.as_deref()),
        (None, Some("someName"))
    );
    let endpoint =
        f.js.observations
            .iter()
            .find(|o| o.family == "endpoint")
            .unwrap();
    assert_eq!(
        endpoint.value.as_deref(),
        Some("https://api.example.test/items?token=%5BREDACTED%5D")
    );
    let storage: Vec<&str> =
        f.js.observations
            .iter()
            .filter(|o| o.family == "storage")
            .map(|o| o.kind.as_str())
            .collect();
    assert_eq!(storage, ["local-storage", "indexed-db"]);
    assert!(
        f.js.observations
            .iter()
            .any(|o| o.family == "route" && o.value.as_deref() == Some("/items/:id"))
    );
    assert_eq!(f.js.source_map_urls, ["renderer.js.map"]);
    assert_eq!(
        f.parse,
        ParseStatus::Partial,
        "a dynamic import keeps the file partial"
    );
}

#[test]
fn electron_main_windows_ipc_and_native_bindings() {
    let f = facts(
        "main.js",
        r#"const path = require("node:path");
const { BrowserWindow, ipcMain, utilityProcess } = require("electron");
const { read, write: nativeWrite } = require("./native/addon.node");
const one = new BrowserWindow({ width: 900, webPreferences: { preload: path.join(__dirname, "preload.js"), nodeIntegration: true, contextIsolation: false, sandbox: false, webSecurity: false } });
const two = new BrowserWindow({ webPreferences: { nodeIntegration: !1, contextIsolation: !0, sandbox: true } });
const three = new BrowserWindow(windowOptions);
ipcMain.handle("rea:read", (event, key) => { if (!event.senderFrame.url.startsWith("file://")) throw 1; return read(key); });
ipcMain.on("rea:write", (event, v) => { if (event.sender.getURL() !== "file://fixture/index.html") return; });
ipcMain.handle(dynamicChannel, dynamicHandler);
utilityProcess.fork("./utility/worker.js", [], { serviceName: "fixture-db" });
module.exports.nativeRead = require("./native/addon.node").read;
"#,
    );
    assert_eq!(f.js.windows.len(), 3);
    let first = &f.js.windows[0];
    assert_eq!(
        first.preload.as_ref().map(|p| (p.path.as_str(), p.context)),
        Some(("preload.js", "filesystem-expression"))
    );
    assert_eq!(first.web_preferences.len(), 5);
    assert!(
        first
            .web_preferences
            .contains(&("nodeIntegration".into(), StaticValue::Literal(true.into())))
    );
    let second = &f.js.windows[1];
    assert!(
        second
            .web_preferences
            .contains(&("nodeIntegration".into(), StaticValue::Literal(false.into())))
    );
    assert!(
        second
            .web_preferences
            .contains(&("contextIsolation".into(), StaticValue::Literal(true.into())))
    );
    assert_eq!(f.js.windows[2].options_status, "dynamic");
    let ops: Vec<(&str, Option<&str>)> =
        f.js.ipc
            .iter()
            .map(|o| (o.operation, o.channel.as_deref()))
            .collect();
    assert_eq!(
        ops,
        [
            ("handle", Some("rea:read")),
            ("on", Some("rea:write")),
            ("handle", None)
        ]
    );
    assert_eq!(
        f.js.ipc[2].channel_expression.as_deref(),
        Some("dynamicChannel")
    );
    assert_eq!(f.js.sender_checks.len(), 2);
    let subjects: Vec<&str> =
        f.js.sender_checks
            .iter()
            .map(|s| s.subject.as_str())
            .collect();
    assert_eq!(subjects, ["sender-url", "sender-url"]);
    assert_eq!(f.js.processes[0].kind, "utility-process");
    assert_eq!(
        f.js.processes[0].target.as_ref().unwrap().path,
        "./utility/worker.js"
    );
    assert_eq!(
        f.js.processes[0].service_name.as_deref(),
        Some("fixture-db")
    );
    let native: Vec<(&str, Vec<&str>)> =
        f.js.native
            .iter()
            .map(|n| (n.mechanism, n.members.iter().map(String::as_str).collect()))
            .collect();
    assert_eq!(
        native,
        [
            ("require", vec!["read", "write"]),
            ("re-export", vec!["read"])
        ]
    );
}

#[test]
fn preload_bridge_and_renderer_ipc() {
    let f = facts(
        "preload.js",
        r#"const { contextBridge, ipcRenderer: ipc } = require("electron");
contextBridge.exposeInMainWorld("reaApi", { read: (k) => ipc.invoke("rea:read", k), nested: { write: (v) => ipc.send("rea:write", v) }, nativeRead: read, nativeWrite: write });
contextBridge.exposeInMainWorld(dynamicApiKey, dynamicApi);
ipc.on("rea:event", () => {});
require("electron").ipcRenderer.invoke("rea:missing");
"#,
    );
    assert_eq!(f.js.bridges.len(), 2);
    assert_eq!(f.js.bridges[0].api_key.as_deref(), Some("reaApi"));
    assert_eq!(
        f.js.bridges[0].members,
        [
            "nativeRead",
            "nativeWrite",
            "nested",
            "nested.write",
            "read"
        ]
    );
    assert_eq!(
        f.js.bridges[1].api_key_expression.as_deref(),
        Some("dynamicApiKey")
    );
    assert_eq!(f.js.bridges[1].api_status, "dynamic");
    let ops = ipc_ops(&f);
    assert_eq!(
        ops,
        [
            ("renderer", "invoke", Some("rea:read")),
            ("renderer", "send", Some("rea:write")),
            ("renderer", "on", Some("rea:event")),
            ("renderer", "invoke", Some("rea:missing"))
        ]
    );
}

#[test]
fn bad_text_is_a_status_not_a_panic() {
    let f = facts("broken.js", "function ( {");
    assert_eq!(f.parse, ParseStatus::Failed);
    assert!(!f.diagnostics.is_empty());
    let deep = format!("x = {}0{};", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(facts("deep.js", &deep).parse, ParseStatus::Failed);
    let huge = format!("var s = \"{}\";", "a".repeat(20 << 20));
    assert_eq!(facts("huge.js", &huge).parse, ParseStatus::Complete);
    // The longest chain the bound admits parses, walks and drops without overflowing.
    let chain = format!("var s = {}1;", "1+".repeat(240_000));
    assert_eq!(facts("chain.js", &chain).parse, ParseStatus::Complete);
    let chain = format!("var s = {}1;", "1+".repeat(600_000));
    assert_eq!(facts("chain.js", &chain).parse, ParseStatus::Failed);
    // Pages: a script left open at the end, a tag cut short, a nesting bomb inside a script,
    // and a policy that is no policy.
    let open = facts("open.html", "<p><script>ipcRenderer.send('x')");
    assert_eq!(open.parse, ParseStatus::Complete);
    assert_eq!(open.inline_scripts, (1, 1));
    assert_eq!(facts("cut.html", "<script src=\"a.js").html.len(), 0);
    let bomb = format!(
        "<script>x = {}0{};</script>",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let bomb = facts("bomb.html", &bomb);
    assert_eq!(
        (bomb.parse, bomb.inline_scripts),
        (ParseStatus::Partial, (1, 0))
    );
    let odd = facts(
        "odd.html",
        "<meta http-equiv=content-security-policy content=\"\u{0}; ;;script-src \u{1F600}\">",
    );
    assert_eq!(odd.csp.unwrap().policies.len(), 1);
}

#[test]
fn webpack_method_factories_in_runtime_tables_and_chunks() {
    // webpack 5.100+ output: factories are object methods, keys numbers or paths.
    let f = facts(
        "main.js",
        r#"(()=>{var t={529(t,e,n){n.d(e,{K:()=>r});function r(){}},416(t){t.exports={}}};const e={};function n(r){const o=e[r];if(void 0!==o)return o.exports;const c=e[r]={exports:{}};return t[r](c,c.exports,n),c.exports}})();"#,
    );
    assert_eq!(keys(&f), ["416", "529"]);
    assert_eq!(
        f.js.bundles[0]
            .modules
            .iter()
            .find(|m| m.key == ModuleKey::Number(529))
            .unwrap()
            .exports,
        ["K"]
    );
    let f = facts(
        "dev.js",
        r#"(() => { var __webpack_modules__ = ({ "./a.js"(m, e, r) { r("./b.js") }, "./b.js"(m) { m.exports = 1 } }); })();"#,
    );
    assert_eq!(keys(&f), ["./a.js", "./b.js"]);
    let f = facts(
        "480.js",
        r#""use strict";(self.webpackChunk=self.webpackChunk||[]).push([[480],{480(e,t,n){n.d(t,{later:()=>r});var a=n(529);function r(e){return (0,a.K)(e)}}}]);"#,
    );
    assert_eq!(keys(&f), ["480"]);
    assert_eq!(
        f.js.bundles[0].modules[0].requires,
        [ModuleKey::Number(529)]
    );
}

/// A webpack 5 production main bundle, shaped as webpack writes `electron` as an external:
/// the factory re-exports `require("electron")`, and code reaches it through the bundle's
/// require (`o(12)`, or a factory's own `n(12)`), destructurings of that, and indirect calls
/// `(0, x.y)(…)` as TypeScript, Babel and webpack write them.
#[test]
fn bundled_main_process_reaches_electron_through_externals_and_indirect_calls() {
    let f = facts(
        "dist/main.js",
        r#"(()=>{var e={
  5:(e,t,n)=>{"use strict";const r=n(12);r.ipcMain.handle("from:factory",()=>1);function s(n){n.on("not:ipc",()=>{})}s(process.stdin)},
  12:e=>{"use strict";e.exports=require("electron")},
  34:e=>{"use strict";e.exports=require("path")},
  40:function(e,t,n){var s={on(){}};s.on("not:ipc:either",()=>{})}
},t={};function o(n){var r=t[n];if(void 0!==r)return r.exports;var i=t[n]={exports:{}};return e[n](i,i.exports,o),i.exports}
var n=o(12),r=o(34);const{ipcMain:s,BrowserWindow:a}=n;
function c(){new a({webPreferences:{preload:(0,r.join)(__dirname,"preload.js"),sandbox:!1}});new n.BrowserWindow({webPreferences:{contextIsolation:!0}})}
(0,n.ipcMain).handle("app:version",()=>n.app.getVersion());s.on("win:close",e=>{});
function d(s){s.on("stream:data",()=>{})}
n.app.whenReady().then(c)})();"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let mut ops: Vec<(&str, &str, &str)> =
        f.js.ipc
            .iter()
            .map(|o| (o.side, o.operation, o.channel.as_deref().unwrap_or("")))
            .collect();
    ops.sort();
    // `n` in factory 5's inner function `s(n)` and `s` in factory 40 and in `d(s)` are other
    // bindings of reused minified names: not IPC.
    assert_eq!(
        ops,
        [
            ("main", "handle", "app:version"),
            ("main", "handle", "from:factory"),
            ("main", "on", "win:close"),
        ]
    );
    assert_eq!(f.js.windows.len(), 2, "{:?}", f.js.windows);
    let preload = f.js.windows[0].preload.as_ref().expect("a static preload");
    assert_eq!(
        (preload.path.as_str(), preload.context),
        ("preload.js", "filesystem-expression")
    );
    assert!(
        f.js.windows[0]
            .web_preferences
            .contains(&("sandbox".into(), StaticValue::Literal(false.into())))
    );
    assert!(
        f.js.windows[1]
            .web_preferences
            .contains(&("contextIsolation".into(), StaticValue::Literal(true.into())))
    );
}

/// A name bound to `electron` in one function means nothing in a sibling function that
/// binds the same name to something else, and a compiled `(0, path_1.join)` still resolves.
#[test]
fn aliases_are_scoped_to_the_function_that_binds_them() {
    let f = facts(
        "main.js",
        r#"function main() { const { ipcMain: m, BrowserWindow: W } = require("electron");
  m.handle("scoped:yes", () => 1);
  new W({ webPreferences: { preload: (0, path_1.join)(__dirname, "p.js") } });
}
function other(m, W) { m.handle("scoped:no", () => 1); new W({}); }
function third() { const m = makeEmitter(); m.on("scoped:no:either", () => {}); }"#,
    );
    let ops: Vec<&str> =
        f.js.ipc
            .iter()
            .filter_map(|o| o.channel.as_deref())
            .collect();
    assert_eq!(ops, ["scoped:yes"]);
    assert_eq!(f.js.windows.len(), 1);
    assert_eq!(f.js.windows[0].preload.as_ref().unwrap().path, "p.js");
}

/// `const api = {…}; contextBridge.exposeInMainWorld("api", api)`, as the electron-vite
/// template writes a preload: the members come from the literal bound in scope, and a
/// parameter of the same name elsewhere stays dynamic.
#[test]
fn a_bridge_api_bound_to_a_name_has_the_literal_members() {
    let f = facts(
        "preload.js",
        r#"import { contextBridge, ipcRenderer } from "electron";
const api = { read: (k) => ipcRenderer.invoke("api:read", k), nested: { write() {} } };
if (process.contextIsolated) { contextBridge.exposeInMainWorld("api", api); }
function later(api) { contextBridge.exposeInMainWorld("other", api); }"#,
    );
    let bridges: Vec<(Option<&str>, &str, Vec<&str>)> =
        f.js.bridges
            .iter()
            .map(|b| {
                (
                    b.api_key.as_deref(),
                    b.api_status,
                    b.members.iter().map(String::as_str).collect(),
                )
            })
            .collect();
    assert_eq!(
        bridges,
        [
            (
                Some("api"),
                "object-literal",
                vec!["nested", "nested.write", "read"]
            ),
            (Some("other"), "dynamic", vec![]),
        ]
    );
}

/// How real main processes name their files: `file://` URLs built from `__dirname` (a
/// template or `+`), `app.getAppPath()` as the application's root (a leading `/`, the artifact
/// root), and window options bound to a name before `new BrowserWindow(options)`.
#[test]
fn file_urls_the_app_path_and_named_window_options_resolve() {
    let f = facts(
        "src/main.js",
        r#"const { app, BrowserWindow } = require("electron");
const path = require("path");
const a = new BrowserWindow({ webPreferences: { preload: path.join(app.getAppPath(), "src", "p1.js") } });
a.loadURL(`file://${__dirname}/index.html`);
const b = new BrowserWindow({ webPreferences: { preload: app.getAppPath() + "/p2.js" } });
b.loadURL("file://" + __dirname + "/page2.html");
a.loadURL(`file://${__dirname}/tracker.html?identity=${a.id}&x=${b.id}`);
b.loadURL(`file://${__dirname}/routed.html#/${route}`);
b.loadURL(`https://example.com/?id=${a.id}`);
function third() {
  const options = { webPreferences: { preload: path.resolve(__dirname, "p3.js"), nodeIntegration: true } };
  new BrowserWindow(options);
}
function fourth(options) { new BrowserWindow(options); }
new BrowserWindow({ webPreferences: { preload: __dirname } });"#,
    );
    let preloads = preloads(&f);
    assert_eq!(
        preloads,
        [
            Some(("/src/p1.js", "filesystem-expression")),
            Some(("/p2.js", "filesystem-expression")),
            Some(("p3.js", "filesystem-expression")),
            None,
            // A bare directory anchor names no file.
            None,
        ]
    );
    assert_eq!(f.js.windows[2].options_status, "object-literal");
    assert!(
        f.js.windows[2]
            .web_preferences
            .contains(&("nodeIntegration".into(), StaticValue::Literal(true.into())))
    );
    // `options` in `fourth` is a parameter, not the literal bound in `third`.
    assert_eq!(f.js.windows[3].options_status, "dynamic");
    let loads: Vec<(&str, &str, &str)> =
        f.js.renderer_loads
            .iter()
            .filter(|l| l.api == "loadURL")
            .map(|l| (l.api, l.target.as_str(), l.context))
            .collect();
    assert_eq!(
        loads,
        [
            ("loadURL", "index.html", "filesystem-expression"),
            ("loadURL", "page2.html", "filesystem-expression"),
            // The query and the fragment of a file URL name no other file; the graph leaves
            // them out when it resolves the page.
            ("loadURL", "tracker.html?identity=", "filesystem-expression"),
            ("loadURL", "routed.html#/", "filesystem-expression"),
        ]
    );
    // A web address with a value not known in its query stays computed; the file URLs do not.
    assert_eq!(f.js.windows[0].dynamic_loads, Vec::<String>::new());
    assert_eq!(
        f.js.windows[1].dynamic_loads,
        ["`https://example.com/?id=${a.id}`"]
    );
}

/// Paths bound to names before a window, a load or a process uses them
/// (`const preload = path.join(__dirname, "preload.js")`, and the `{ preload }` shorthand),
/// the file URLs of Electron's early templates (`url.format({ pathname, protocol: "file:" })`,
/// `pathToFileURL(p).href`), and `path.join`, which unlike `path.resolve` does not start again
/// at a part written with a leading `/`. A name the file assigns again, or bound in another
/// function, is not read.
#[test]
fn paths_bound_to_names_and_file_urls_resolve() {
    let f = facts(
        "src/main.js",
        r#"const { app, BrowserWindow, utilityProcess } = require("electron");
const path = require("path");
const url = require("url");
const { pathToFileURL } = require("url");
const preload = path.join(__dirname, "preload.js");
const pages = path.join(__dirname, "..", "pages");
const indexHtml = path.join(pages, "index.html");
let moved = path.join(__dirname, "moved.js");
moved = somewhereElse();
function windows() {
  const other = path.resolve(__dirname, "other-preload.js");
  const a = new BrowserWindow({ webPreferences: { preload } });
  a.loadFile(indexHtml);
  const b = new BrowserWindow({ webPreferences: { preload: other } });
  b.loadURL(url.format({ pathname: path.join(__dirname, "b.html"), protocol: "file:", slashes: true }));
  const c = new BrowserWindow({ webPreferences: { preload: moved } });
  c.loadURL(pathToFileURL(path.join(__dirname, "/c.html")).href);
  c.loadURL(url.format({ pathname: "/api", protocol: "https:", host: "example.com" }));
  utilityProcess.fork(path.join(__dirname, "/worker.js"));
}
function inner() { const hidden = path.join(__dirname, "hidden.js"); }
new BrowserWindow({ webPreferences: { preload: hidden } });
new BrowserWindow({ webPreferences: { preload: path.join("file://", __dirname, "/d.js") } });
const either = app.isPackaged ? path.join(__dirname, "e1.js") : path.join(__dirname, "e2.js");
const partly = app.isPackaged ? devServer() : path.join(__dirname, "pages");
new BrowserWindow({ webPreferences: { preload: either } });
new BrowserWindow({ webPreferences: { preload: path.join(partly, "p.js") } });
new BrowserWindow({}).loadFile(partly);"#,
    );
    let preloads = preloads(&f);
    assert_eq!(
        preloads,
        [
            Some(("preload.js", "filesystem-expression")),
            Some(("other-preload.js", "filesystem-expression")),
            // Assigned again after its declaration.
            None,
            // Bound in another function's scope.
            None,
            Some(("d.js", "filesystem-expression")),
            Some(("e1.js", "filesystem-expression")),
            // A path built on a name that may hold something else.
            None,
            // No preferences.
            None,
        ]
    );
    let alternatives: Vec<&str> = f.js.windows[5]
        .preload_alternatives
        .iter()
        .map(|p| p.path.as_str())
        .collect();
    assert_eq!(alternatives, ["e2.js"]);
    assert_eq!(f.js.windows[0].preload_expression, None);
    assert_eq!(f.js.windows[2].preload_expression.as_deref(), Some("moved"));
    let loads: Vec<(&str, &str, &str)> =
        f.js.renderer_loads
            .iter()
            .map(|l| (l.api, l.target.as_str(), l.context))
            .collect();
    assert_eq!(
        loads,
        [
            ("preload-property", "preload.js", "filesystem-expression"),
            ("loadFile", "../pages/index.html", "filesystem-expression"),
            (
                "preload-property",
                "other-preload.js",
                "filesystem-expression"
            ),
            ("loadURL", "b.html", "filesystem-expression"),
            ("loadURL", "c.html", "filesystem-expression"),
            ("preload-property", "d.js", "filesystem-expression"),
            ("preload-property", "e1.js", "filesystem-expression"),
            ("preload-property", "e2.js", "filesystem-expression"),
            // Each branch that is a path.
            ("loadFile", "pages", "filesystem-expression"),
        ]
    );
    let forks: Vec<Option<&str>> =
        f.js.processes
            .iter()
            .map(|p| p.target.as_ref().map(|t| t.path.as_str()))
            .collect();
    assert_eq!(forks, [Some("worker.js")]);
}

/// rollup (under electron-vite) keeps a named import of `join` under a short name: the call
/// `r(__dirname, "preload.js")` is `path.join` through the import, from an ES module or a
/// destructured `require`, and a parameter reusing the name in an inner function is not.
#[test]
fn renamed_path_helpers_resolve_through_their_imports() {
    let esm = facts(
        "out/main.js",
        r#"import{BrowserWindow as o,app as t}from"electron";import{join as r}from"node:path";import{fileURLToPath as u}from"node:url";t.whenReady().then(function(){new o({webPreferences:{preload:r(__dirname,"preload.js")}}).loadFile("index.html")});function s(r){new o({webPreferences:{preload:r(__dirname,"other.js")}})}new o({webPreferences:{preload:r(u(new URL(".",import.meta.url)),"p2.mjs")}});"#,
    );
    let preloads: Vec<Option<&str>> = esm
        .js
        .windows
        .iter()
        .map(|w| w.preload.as_ref().map(|p| p.path.as_str()))
        .collect();
    // The third names its directory as ES modules do, `fileURLToPath(new URL(".", import.meta.url))`,
    // through a renamed `fileURLToPath`: the file beside the module.
    assert_eq!(preloads, [Some("preload.js"), None, Some("p2.mjs")]);
    assert!(esm.js.windows[1].preload_expression.is_some());

    // ES modules have no `__dirname`: they name the directory through `import.meta.url`, in a
    // constant that minifiers rename (here as electron-vite's shim writes it, then mangled).
    let shim = facts(
        "out/main/index.mjs",
        r#"import{BrowserWindow as o}from"electron";import i from"node:path";import{fileURLToPath as u}from"node:url";const t=u(import.meta.url),a=i.dirname(t);new o({webPreferences:{preload:i.join(a,"../preload/index.mjs")}});function f(a){new o({webPreferences:{preload:i.join(a,"x.mjs")}})}const c=a;new o({webPreferences:{preload:i.join(c,"y.mjs")}});"#,
    );
    let preloads: Vec<Option<&str>> = shim
        .js
        .windows
        .iter()
        .map(|w| w.preload.as_ref().map(|p| p.path.as_str()))
        .collect();
    // A parameter reusing the name is not the directory; a copy of the constant is.
    assert_eq!(
        preloads,
        [Some("../preload/index.mjs"), None, Some("y.mjs")]
    );

    let cjs = facts(
        "out/main.js",
        r#""use strict";const{BrowserWindow:o}=require("electron"),{resolve:p}=require("path");new o({webPreferences:{preload:p(__dirname,"../preload/index.js")}});"#,
    );
    assert_eq!(
        cjs.js.windows[0].preload.as_ref().map(|p| p.path.as_str()),
        Some("../preload/index.js")
    );
}

#[test]
fn named_amd_defines_are_modules_whose_dependencies_resolve_in_the_file() {
    let f = facts(
        "out/app.js",
        r#"var __m = ["exports", "require", "app/util", "vs/css", "vs/css!app/style"];
var __M = function (deps) { return deps.map(function (i) { return __m[i]; }); };
define(__m[2], __M([1, 0]), function (require, exports) { exports.twice = function (x) { return 2 * x; }; });
define(__m[3], __M([0]), function (exports) { exports.load = function () {}; });
define("app/main", ["require", "exports", "./util", "vs/css!./style", "fs"], function (r, e, util, css, fs) {
  var helper = r("./util");
  r(["./later"], function (later) {});
  e.run = function () { return util.twice(1); };
});
define("app/later", { ready: true });
define("app/main", [], function () { return 1; });"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(f.js.bundles.len(), 1);
    let bundle = &f.js.bundles[0];
    assert_eq!((bundle.bundler, bundle.shape), ("amd", "amd-define"));
    // Ids read through the table; the repeated id keeps its first define.
    assert_eq!(keys(&f), ["app/later", "app/main", "app/util", "vs/css"]);
    let main = bundle
        .modules
        .iter()
        .find(|m| m.key.text() == "app/main")
        .unwrap();
    // `./util` relative to `app/main`; the CSS resource loads through its plugin module.
    assert_eq!(
        main.requires,
        [
            ModuleKey::String("app/util".into()),
            ModuleKey::String("vs/css".into())
        ]
    );
    assert_eq!(main.async_modules, [ModuleKey::String("app/later".into())]);
    assert_eq!(main.exports, ["run"]);
    assert_eq!(main.require_name.as_deref(), Some("r"));
    // Only what the file does not define stays a reference: the Node built-in.
    let refs: Vec<(&str, Option<&str>)> =
        f.js.references
            .iter()
            .map(|r| (r.kind, r.specifier.as_deref()))
            .collect();
    assert_eq!(refs, [("require", Some("fs"))]);
}

#[test]
fn anonymous_and_umd_defines_declare_references_only() {
    let f = facts(
        "lib/widget.js",
        r#"(function (root, factory) {
  if (typeof define === "function" && define.amd) { define(["exports", "jquery", "./theme"], factory); }
  else { factory(root.widget = {}, root.jQuery); }
})(this, function (exports, $) { exports.widget = 1; });
const globalDefine = globalThis.define;
globalDefine(["./late"], function (late) { require(["./lazy", "module"], function () {}); });"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert!(f.js.bundles.is_empty());
    let refs: Vec<(&str, Option<&str>)> =
        f.js.references
            .iter()
            .map(|r| (r.kind, r.specifier.as_deref()))
            .collect();
    assert_eq!(
        refs,
        [
            ("require", Some("jquery")),
            ("require", Some("./theme")),
            ("require", Some("./late")),
            ("dynamic-import", Some("./lazy")),
        ]
    );
    // regenerator-runtime's own `define(obj, key, value)` is not AMD, and an id that is no
    // string or table index makes no module.
    let f = facts(
        "runtime.js",
        r#"function define(obj, key, value) { obj[key] = value; return obj[key]; }
define(Gp, toStringTagSymbol, "Generator");
define(names[i], ["a"], function () {});"#,
    );
    assert!(f.js.bundles.is_empty());
    assert!(f.js.references.is_empty(), "{:?}", f.js.references);
    // core-js's polyfill tables (babel-plugin-polyfill-corejs3) call a `define` helper of
    // their own with an id and an array of strings: no AMD module, no reference.
    let f = facts(
        "esm/index.mjs",
        r#"const define = (pure, global, name = global[0], exclude) => ({ name, pure, global, exclude });
export const BuiltIns = {
  AsyncDisposableStack: define("async-disposable-stack/index", ["esnext.async-disposable-stack.constructor", "es.object.to-string"]),
  Map: define("map/index", ["es.map", "./helper"])
};"#,
    );
    assert!(f.js.bundles.is_empty(), "{:?}", keys(&f));
    assert!(f.js.references.is_empty(), "{:?}", f.js.references);
    // A loader bundled with its modules (almond, RequireJS) assigns the global `define`
    // and calls it: those stay AMD modules.
    let f = facts(
        "built.js",
        r#"var requirejs, require, define;
(function () { define = function (name, deps, callback) {}; }());
define("app/util", [], function () { return {}; });
define("app/main", ["app/util"], function (util) { return util; });"#,
    );
    assert_eq!(keys(&f), ["app/main", "app/util"]);
}

#[test]
fn parcel_registrations_are_modules_of_the_applications_runtime() {
    // Scope-hoisted, as `parcel build` writes it unminified and minified, and a bundle loaded
    // later that registers through the global.
    let f = facts(
        "app.js",
        r#"var $parcel$global = globalThis;
var parcelRequire = $parcel$global["parcelRequire5b12"];
var parcelRegister = parcelRequire.register;
parcelRegister("aaaaa", function(module, exports) {
  module.exports = parcelRequire("bbbbb").x;
});
parcelRegister("bbbbb", function(module, exports) { exports.x = 1; });
parcelRequire("aaaaa");"#,
    );
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.runtime.as_str(), bundle.shape),
        ("parcel", "parcelRequire5b12", "parcel-register")
    );
    assert_eq!(keys(&f), ["aaaaa", "bbbbb"]);
    assert_eq!(
        bundle.modules[0].requires,
        [ModuleKey::String("bbbbb".into())]
    );
    assert_eq!(bundle.modules[1].exports, ["x"]);
    let f = facts(
        "min.js",
        r#"var t=globalThis,a=t.parcelRequire5b12;var l=a.register;l("ccccc",function(n,e){var a=function(r){return r};n.exports=a("ddddd")});l("ddddd",function(n,e){n.exports=a("ccccc")});"#,
    );
    assert_eq!(keys(&f), ["ccccc", "ddddd"]);
    let modules = &f.js.bundles[0].modules;
    // The first factory binds its own `a`: its call is no require.
    assert!(modules[0].requires.is_empty(), "{:?}", modules[0].requires);
    assert_eq!(modules[1].requires, [ModuleKey::String("ccccc".into())]);
    let f = facts(
        "lazy.js",
        r#"(0,globalThis.parcelRequire5b12.register)("eeeee",function(e,i){e.exports=1});"#,
    );
    assert_eq!(keys(&f), ["eeeee"]);
    assert_eq!(f.js.bundles[0].runtime, "parcelRequire5b12");
    // A `register` of something else is no registration.
    let f = facts(
        "other.js",
        r#"var r = registry.register; r("x", function(){});"#,
    );
    assert!(f.js.bundles.is_empty());
}

#[test]
fn parcel_development_preludes_are_tables_with_deps_maps() {
    let f = facts(
        "dev.js",
        r#"(function (modules, entry, mainEntry, parcelRequireName, externals) { /* runtime */ })({"k1":[function(require,module,exports,__globalThis) {
var dep = require("1a2b3c");
},{"1a2b3c":"k2"}],"k2":[function(require,module,exports,__globalThis) {
exports.v = 1;
},{}]},["k1"], "k1", "parcelRequire5b12", {})"#,
    );
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.runtime.as_str(), bundle.shape),
        ("parcel", "parcelRequire5b12", "browserify-table")
    );
    assert_eq!(bundle.entry_module_keys, [ModuleKey::String("k1".into())]);
    assert_eq!(bundle.modules[0].requires, [ModuleKey::String("k2".into())]);
    assert!(f.js.references.is_empty(), "{:?}", f.js.references);
}

#[test]
fn every_value_a_load_may_take_is_read() {
    // A development server or the packaged page, chosen at run time.
    let f = facts(
        "public/electron.js",
        r#"const path = require("path");
win.loadURL(isDev ? "http://localhost:3000" : `file://${path.join(__dirname, "../build/index.html")}`);
win.loadURL(process.env.ELECTRON_RENDERER_URL || `file://${__dirname}/../build/index.html`);
win.loadFile(app.isPackaged ? "dist/index.html" : (alt ?? "dev/index.html"));
win.loadURL(a ? "app://-/" : "app://-/");
"#,
    );
    let loads: Vec<(&str, &str, u32)> =
        f.js.renderer_loads
            .iter()
            .map(|l| (l.api, l.target.as_str(), l.range.start.line))
            .collect();
    assert_eq!(
        loads,
        [
            ("loadURL", "../build/index.html", 2),
            ("loadURL", "../build/index.html", 3),
            ("loadFile", "dist/index.html", 4),
            ("loadFile", "dev/index.html", 4),
            // One finding per target of a call.
            ("loadURL", "app://-/", 5),
        ]
    );
    let endpoints: Vec<&str> =
        f.js.observations
            .iter()
            .filter(|o| o.family == "endpoint")
            .filter_map(|o| o.value.as_deref())
            .collect();
    assert_eq!(endpoints, ["http://localhost:3000/"]);
}

/// Paths below Electron's resources directory, which holds the application's archive and a
/// build's extra resources: `process.resourcesPath` joined, concatenated or in a template is a
/// path of context `resources-path`; the directory alone names no file. A template opening
/// with the application's root (`${app.getAppPath()}/x`) stays rooted.
#[test]
fn paths_below_the_resources_directory_keep_their_context() {
    let f = facts(
        "main.js",
        r#"const { app, utilityProcess } = require("electron");
const path = require("path");
utilityProcess.fork(path.join(process.resourcesPath, "helper", "index.js"));
utilityProcess.fork(`${process.resourcesPath}/worker.js`);
utilityProcess.fork(process.resourcesPath + "/app.asar.unpacked/w.js");
utilityProcess.fork(path.join(__dirname, process.resourcesPath, "x.js"));
utilityProcess.fork(process.resourcesPath);
const bin = path.join(process.resourcesPath, "bin");
utilityProcess.fork(path.join(bin, "tool.js"));
utilityProcess.fork(`${app.getAppPath()}/dist/w.js`);
utilityProcess.fork(`${__dirname}/w.js`);"#,
    );
    let targets: Vec<Option<(&str, &str)>> =
        f.js.processes
            .iter()
            .map(|p| p.target.as_ref().map(|t| (t.path.as_str(), t.context)))
            .collect();
    assert_eq!(
        targets,
        [
            Some(("helper/index.js", "resources-path")),
            Some(("worker.js", "resources-path")),
            Some(("app.asar.unpacked/w.js", "resources-path")),
            Some(("x.js", "resources-path")),
            None,
            Some(("bin/tool.js", "resources-path")),
            // The application's root stays rooted in a template; the file's directory is
            // the file's own.
            Some(("/dist/w.js", "filesystem-expression")),
            Some(("w.js", "filesystem-expression"))
        ]
    );
}

/// ES-module main processes name their own directory without `__dirname`:
/// `import.meta.dirname` and `import.meta.filename` (Node.js 20.11 on), a renamed
/// `fileURLToPath` of `new URL(".", import.meta.url)` bound to a name, as Quasar's minified
/// main writes it, and the file URL of a path beside the module, `new URL("./x.html",
/// import.meta.url)` written out by `.href` or `.toString()`.
#[test]
fn es_modules_anchor_paths_at_their_own_directory() {
    let f = facts(
        "dist/main.mjs",
        r#"import{BrowserWindow as n}from"electron";import o from"node:path";import{fileURLToPath as t}from"node:url";
var c=t(new URL(".",import.meta.url)),l;
async function a(){l=new n({webPreferences:{preload:o.resolve(c,o.join("preload","electron-preload.cjs"))}});await l.loadFile("index.html")}
const b=new n({webPreferences:{preload:o.join(import.meta.dirname,"b.mjs")}});
b.loadURL(new URL("./b.html",import.meta.url).href);
const d=new n({webPreferences:{preload:t(new URL("./d.mjs",import.meta.url))}});
d.loadURL(new URL("d.html",import.meta.url).toString());
d.loadFile(o.join(o.dirname(import.meta.filename),"e.html"));"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(
        preloads(&f),
        [
            Some(("preload/electron-preload.cjs", "filesystem-expression")),
            Some(("b.mjs", "filesystem-expression")),
            Some(("./d.mjs", "filesystem-expression")),
        ]
    );
    let mut loads = renderer_loads(&f);
    loads.retain(|(api, _)| api.starts_with("load"));
    assert_eq!(
        loads,
        [
            ("loadFile", "index.html"),
            ("loadURL", "./b.html"),
            ("loadURL", "d.html"),
            ("loadFile", "e.html")
        ]
    );
}

/// A page chosen between two paths at run time, as angular-electron's template loads its page
/// (compiled by `tsc`): a `let` assigned a second static path is bound to both, and a path
/// built on it, a file URL of `path.join("file:", __dirname, page)` bound to a name and
/// written out by `.href` or `.toString()`, is read once with each. A `let` also assigned a
/// value that is no static path is bound to nothing.
#[test]
fn a_name_assigned_another_static_path_holds_both() {
    let f = facts(
        "main.js",
        r#"const electron_1 = require("electron");
const path = require("path");
const fs = require("fs");
const win = new electron_1.BrowserWindow({});
let pathIndex = './index.html';
if (fs.existsSync(path.join(__dirname, '../dist/index.html'))) {
    pathIndex = '../dist/index.html';
}
const url = new URL(path.join('file:', __dirname, pathIndex));
win.loadURL(url.href);
win.loadURL(url.toString());
let other = './a.html';
other = process.env.PAGE;
win.loadFile(path.join(__dirname, other));"#,
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let loads = renderer_loads(&f);
    assert_eq!(
        loads,
        [
            ("loadURL", "./index.html"),
            ("loadURL", "../dist/index.html"),
            ("loadURL", "./index.html"),
            ("loadURL", "../dist/index.html")
        ]
    );
}

/// A class that extends a window constructor makes that window with the options its
/// constructor hands to `super`; a class extending anything else does not.
#[test]
fn a_subclass_of_browser_window_makes_a_window_with_the_options_it_hands_to_super() {
    let f = facts(
        "main.js",
        r#"const electron = require("electron");
const { BrowserView } = require("electron");
const path = require("path");
class MainWindow extends electron.BrowserWindow {
  constructor() {
    super({ webPreferences: { preload: path.join(__dirname, "preload.js"), sandbox: false } });
  }
}
class Panel extends BrowserView {
  constructor(options) { super(options); }
}
class Store extends Map {
  constructor() { super([["webPreferences", { preload: "x.js" }]]); }
}"#,
    );
    let windows: Vec<(&str, Option<&str>, Vec<&str>)> =
        f.js.windows
            .iter()
            .map(|w| {
                (
                    w.constructor.as_str(),
                    w.preload.as_ref().map(|p| p.path.as_str()),
                    w.web_preferences.iter().map(|(k, _)| k.as_str()).collect(),
                )
            })
            .collect();
    assert_eq!(
        windows,
        [
            (
                "BrowserWindow",
                Some("preload.js"),
                vec!["preload", "sandbox"]
            ),
            ("BrowserView", None, vec![])
        ]
    );
}

/// Names built on names bound to several paths stay bounded: each holds at most 8, however
/// the declarations chain and branch.
#[test]
fn paths_built_on_names_with_several_stay_bounded() {
    let mut text = String::from(
        "const { BrowserWindow } = require(\"electron\");\nconst path = require(\"path\");\nlet p0 = \"a.html\";\n",
    );
    for i in 1..8 {
        text.push_str(&format!("p0 = \"a{i}.html\";\n"));
    }
    for i in 1..40 {
        let j = i - 1;
        text.push_str(&format!(
            "const p{i} = c ? path.join(__dirname, \"x\", p{j}) : path.join(__dirname, \"y\", p{j});\n"
        ));
    }
    text.push_str("new BrowserWindow({}).loadFile(p39);\n");
    let f = facts("main.js", &text);
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let loads = renderer_loads(&f);
    assert!(!loads.is_empty() && loads.len() <= 8, "{loads:?}");
}

#[test]
fn session_preloads_are_renderer_loads_of_their_api() {
    let f = facts(
        "main.js",
        r#"const { session } = require("electron");
const path = require("path");
session.defaultSession.setPreloads([path.join(__dirname, "a.js"), dynamicPath]);
session.defaultSession.registerPreloadScript({ type: "frame", filePath: path.join(__dirname, "b.js") });"#,
    );
    let loads = renderer_loads(&f);
    assert_eq!(
        loads,
        [("setPreloads", "a.js"), ("registerPreloadScript", "b.js")]
    );
}

#[test]
fn html_names_its_scripts_and_its_webviews_preloads_in_text_order() {
    let f = facts(
        "app/index.html",
        r#"<html><head><script src="vendor.js"></script></head>
<body>
<webview src="https://example.invalid/" preload="./guest-preload.js"></webview>
<webview src="https://example.invalid/b" preload="file:./other.js" nodeintegration></webview>
<webview src="https://example.invalid/c"></webview>
<script src="./renderer.js"></script>
</body></html>"#,
    );
    let scripts: Vec<(&str, bool, u32)> = f
        .html
        .iter()
        .map(|s| (s.src.as_str(), s.webview_preload, s.line))
        .collect();
    assert_eq!(
        scripts,
        [
            ("vendor.js", false, 1),
            ("./guest-preload.js", true, 3),
            ("./other.js", true, 4),
            ("./renderer.js", false, 6),
        ]
    );
}

#[test]
fn update_feeds_are_endpoints() {
    let f = facts(
        "main.js",
        r#"const { autoUpdater } = require("electron");
autoUpdater.setFeedURL({ url: "https://updates.example.invalid/app/darwin?token=abc" });
require("electron-updater").autoUpdater.setFeedURL({ provider: "generic", url: "https://dl.example.invalid/releases" });
autoUpdater.setFeedURL("https://legacy.example.invalid/feed");"#,
    );
    let mut feeds: Vec<(&str, &str)> =
        f.js.observations
            .iter()
            .filter(|o| o.family == "endpoint")
            .map(|o| (o.kind.as_str(), o.value.as_deref().unwrap()))
            .collect();
    feeds.sort();
    assert_eq!(
        feeds,
        [
            ("setFeedURL", "https://dl.example.invalid/releases"),
            ("setFeedURL", "https://legacy.example.invalid/feed"),
            (
                "setFeedURL",
                "https://updates.example.invalid/app/darwin?token=%5BREDACTED%5D"
            ),
        ]
    );
}

#[test]
fn inline_scripts_of_a_page_are_read_at_their_places_in_the_page() {
    // A renderer page with Node integration: its inline scripts call IPC and import a module;
    // a JSON block, a template and a commented-out script are not code.
    let page = "<!doctype html>\n<html><head><title>Caf\u{e9} \u{2615}</title>\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'self' 'unsafe-inline'\">\n\
<script type=\"application/json\" id=\"state\">{\"ipcRenderer\": 1}</script>\n\
<!-- <script>require('electron').ipcRenderer.send('old:channel')</script> -->\n\
</head><body><p>\u{e9}\u{e9}</p><script>const { ipcRenderer } = require('electron');\n\
ipcRenderer.send('page:ready', 1);</script>\n\
<script type=\"module\">import { render } from './view.js';\n\
  window.api.invoke('ignored');\n  ipcRenderer.invoke('page:load');</script>\n\
<script type=\"text/x-template\"><p>{{ ipcRenderer.send('x') }}</p></script>\n\
<script src=\"./renderer.js\"></script></body></html>\n";
    let f = facts("renderer/index.html", page);
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    assert_eq!(f.inline_scripts, (2, 2));
    assert_eq!(f.html.len(), 1);
    assert_eq!(f.html[0].src, "./renderer.js");
    let csp = f.csp.as_ref().unwrap();
    assert_eq!(csp.policies.len(), 1);
    assert_eq!(csp.policies[0].policy, "script-src 'self' 'unsafe-inline'");
    assert_eq!(csp.policies[0].line, 3);
    assert!(csp.allows_inline_scripts);
    assert!(!csp.allows_eval);
    let ops: Vec<(&str, Option<&str>, u32, u32)> =
        f.js.ipc
            .iter()
            .map(|o| {
                (
                    o.operation,
                    o.channel.as_deref(),
                    o.range.start.line,
                    o.range.start.column,
                )
            })
            .collect();
    // Lines and UTF-16 columns are those of the page: the send starts its line; the invoke
    // sits two columns in.
    assert_eq!(
        ops,
        [
            ("send", Some("page:ready"), 7, 0),
            ("invoke", Some("page:load"), 10, 2)
        ]
    );
    let imports: Vec<(&str, Option<&str>, u32)> =
        f.js.references
            .iter()
            .map(|r| (r.kind, r.specifier.as_deref(), r.range.start.line))
            .collect();
    assert!(
        imports.contains(&("static-import", Some("./view.js"), 8)),
        "{imports:?}"
    );
    assert!(
        imports.contains(&("require", Some("electron"), 6)),
        "{imports:?}"
    );
    // The require's column on line 6 counts `é` as one UTF-16 unit, as in the page.
    let require =
        f.js.references
            .iter()
            .find(|r| r.kind == "require")
            .unwrap();
    let line_6 = page.lines().nth(5).unwrap();
    let prefix = &line_6[..line_6.find("require").unwrap()];
    assert_eq!(
        require.range.start.column,
        prefix.encode_utf16().count() as u32
    );
}

#[test]
fn an_inline_script_that_does_not_parse_leaves_the_others_read() {
    let page = "<script>ipcRenderer.send('first')</script>\n\
<script>var data = {{ server_side }};</script>\n\
<script>ipcRenderer.send('third')</script>\n";
    let f = facts("index.html", page);
    assert_eq!(f.parse, ParseStatus::Partial);
    assert_eq!(f.inline_scripts, (3, 2));
    let channels: Vec<&str> =
        f.js.ipc
            .iter()
            .filter_map(|o| o.channel.as_deref())
            .collect();
    assert_eq!(channels, ["first", "third"]);
    assert!(
        f.diagnostics
            .iter()
            .any(|d| d == "the inline script at line 2 does not parse; its code was not read"),
        "{:?}",
        f.diagnostics
    );
    // A page whose only script does not parse is still read for its tags.
    let f = facts(
        "index.html",
        "<script src=app.js></script><script>if (</script>",
    );
    assert_eq!(f.parse, ParseStatus::Partial);
    assert_eq!(f.inline_scripts, (1, 0));
    assert_eq!(f.html.len(), 1);
}

#[test]
fn content_security_policy_headers_the_code_writes_are_judged() {
    let f = facts(
        "main.js",
        r#"const { session } = require("electron");
session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
  callback({ responseHeaders: { ...details.responseHeaders,
    "Content-Security-Policy": ["default-src 'self'", "script-src 'self' 'unsafe-eval'"] } });
});
protocol.handle("app", () => new Response(body, { headers: { "content-security-policy": "script-src 'unsafe-inline'" } }));
const other = { "Content-Security-Policy": computePolicy() };
details.responseHeaders["Content-Security-Policy"] = ["object-src 'none'"];
res.setHeader("content-security-policy", "default-src *");
response.headers.set("Content-Security-Policy", "script-src 'none'");
res.header("Content-Security-Policy", policyOf(req));
cache.set("Content-Security-Policy");
"#,
    );
    let headers: Vec<(&str, u32, bool, bool)> =
        f.js.csp_headers
            .iter()
            .map(|h| {
                (
                    h.policy.as_str(),
                    h.range.start.line,
                    h.allows_inline_scripts,
                    h.allows_eval,
                )
            })
            .collect();
    assert_eq!(
        headers,
        [
            ("default-src 'self'", 4, false, false),
            // No 'unsafe-inline': inline scripts blocked, eval allowed.
            ("script-src 'self' 'unsafe-eval'", 4, false, true),
            // script-src without 'unsafe-eval' blocks eval.
            ("script-src 'unsafe-inline'", 6, true, false),
            // Assigned to a header map, set by calls: with no script-src or default-src,
            // nothing is blocked; `*` allows neither inline scripts nor eval.
            ("object-src 'none'", 8, true, true),
            ("default-src *", 9, false, false),
            ("script-src 'none'", 10, false, false),
        ]
    );
}

#[test]
fn schemes_the_application_serves_through_its_protocol_module() {
    let f = facts(
        "background.js",
        r#"const { protocol, session, ipcMain } = require("electron");
protocol.registerFileProtocol("App", (request, callback) => callback({ path: "x" }));
session.fromPartition("persist:main").protocol.handle("bundle", () => new Response(""));
protocol.registerHttpProtocol("proxy", () => {});
protocol.interceptFileProtocol("file", () => {});
protocol.handle(schemeName, () => {});
ipcMain.handle("not-a-scheme", () => 1);
"#,
    );
    let served: Vec<(&str, &str, u32)> =
        f.js.served_schemes
            .iter()
            .map(|s| (s.scheme.as_str(), s.api, s.range.start.line))
            .collect();
    assert_eq!(
        served,
        [("app", "registerFileProtocol", 2), ("bundle", "handle", 3)]
    );
    // The IPC handler is still an IPC handler.
    assert_eq!(f.js.ipc.len(), 1);
    assert_eq!(f.js.ipc[0].channel.as_deref(), Some("not-a-scheme"));
}

#[test]
fn default_exports_read_through_interop_helpers_and_webpack_getters() {
    // How compilers hand a CommonJS module's default export over: TypeScript's
    // `__importDefault`, esbuild's `__toESM` (minified: no telling name), rollup's
    // `_interopDefault` of a bound name, an assignment in a minifier's sequence, and
    // webpack's getter, kept in a local or called at once.
    let f = facts(
        "main.js",
        r#"const bindings_1 = __importDefault(require("bindings"));
(0, bindings_1.default)("tsc");
var l = h(require("bindings"));
(0, l.default)({ bindings: "esbuild" });
var b = require("bindings"), bd = _interopDefault(b);
bd.default("rollup");
var o, t;
o = r(require("node-gyp-build")), t = o.default;
(0, o.default)(__dirname);
var s = require("bindings"), a = n.n(s);
a()("webpack-local");
n.n(s)()("webpack-inline");
(0, other.default)("not-bound");
x()("not-a-getter");
"#,
    );
    let native: Vec<(&str, &str)> =
        f.js.native
            .iter()
            .map(|n| (n.mechanism, n.specifier.as_str()))
            .collect();
    assert_eq!(
        native,
        [
            ("bindings", "tsc"),
            ("bindings", "esbuild"),
            ("bindings", "rollup"),
            ("node-gyp-build", "."),
            ("bindings", "webpack-local"),
            ("bindings", "webpack-inline"),
        ]
    );
}

#[test]
fn electron_serve_serves_a_directory_and_its_loader_loads_the_scheme() {
    let f = facts(
        "main.js",
        r#"import serve from "electron-serve";
import { BrowserWindow } from "electron";
const loadURL = serve({ directory: "renderer" });
serve({ scheme: "Bundle", directory: "dist", file: "main", hostname: "h" });
serve();
serve(options);
serve({ directory: dir, scheme: "dyn" });
serve({ scheme: prefix + "x" });
const win = new BrowserWindow({});
loadURL(win);
win.loadURL("bundle://h/about");
"#,
    );
    let served: Vec<(&str, &str, Option<&str>, Option<&str>)> =
        f.js.served_schemes
            .iter()
            .map(|s| {
                let options = s.serve.as_ref().unwrap();
                (
                    s.scheme.as_str(),
                    s.api,
                    options.directory.as_deref(),
                    options.file.as_deref(),
                )
            })
            .collect();
    assert_eq!(
        served,
        [
            ("app", "electron-serve", Some("renderer"), Some("index")),
            ("bundle", "electron-serve", Some("dist"), Some("main")),
            // Version 2 on serves the application's root by default.
            ("app", "electron-serve", Some("."), Some("index")),
            // A directory that is not a literal is not known; the scheme still is.
            ("dyn", "electron-serve", None, Some("index")),
        ]
    );
    let loads: Vec<(&str, &str, u32)> =
        f.js.renderer_loads
            .iter()
            .map(|l| (l.api, l.target.as_str(), l.range.start.line))
            .collect();
    assert_eq!(
        loads,
        [
            ("loadURL", "app://-", 10),
            ("loadURL", "bundle://h/about", 11)
        ]
    );
}

#[test]
fn channels_written_as_names_bound_to_strings_are_those_strings() {
    let f = facts(
        "main.js",
        r#"const { ipcMain } = require("electron");
const GET = "settings:get";
const Channels = Object.freeze({ window: { close: "window:close" }, count: 3 });
var IpcChannel;
(function (IpcChannel) {
  IpcChannel["Open"] = "link:open";
  IpcChannel[IpcChannel["Zero"] = 0] = "Zero";
})(IpcChannel || (IpcChannel = {}));
!function(e){e.Min="min:ified"}(n||(n={}));
var Arrow = ((E) => { E["A"] = "arrow:a"; return E; })(Arrow || {});
var once = "var:once", twice = "var:twice";
twice = "var:changed";
var later, again;
later = "assigned:once";
again = "a"; again = "b";
let typed = "typed:const" as const;
ipcMain.handle(GET, h);
ipcMain.on(Channels.window.close, h);
ipcMain.on(Channels["window"]["close"], h);
ipcMain.on(IpcChannel.Open, h);
ipcMain.on(n.Min, h);
ipcMain.on(Arrow.A, h);
ipcMain.on(once, h);
ipcMain.on(later, h);
ipcMain.on(typed, h);
ipcMain.on(twice, h);
ipcMain.on(again, h);
ipcMain.on(Channels.count, h);
ipcMain.on(IpcChannel.Zero, h);
ipcMain.on(Channels.window.missing, h);
function register(GET) { ipcMain.handle(GET, h); }
function inner() { const GET = "inner:get"; ipcMain.handle(GET, h); }
"#,
    );
    let channels: Vec<(Option<&str>, Option<&str>)> =
        f.js.ipc
            .iter()
            .map(|op| (op.channel.as_deref(), op.channel_expression.as_deref()))
            .collect();
    assert_eq!(
        channels,
        [
            (Some("settings:get"), Some("GET")),
            (Some("window:close"), Some("Channels.window.close")),
            (Some("window:close"), Some(r#"Channels["window"]["close"]"#)),
            (Some("link:open"), Some("IpcChannel.Open")),
            (Some("min:ified"), Some("n.Min")),
            (Some("arrow:a"), Some("Arrow.A")),
            (Some("var:once"), Some("once")),
            (Some("assigned:once"), Some("later")),
            (Some("typed:const"), Some("typed")),
            // Given another string again: one of each (a choice, see
            // `a_channel_chosen_among_strings_is_one_operation_a_string`).
            (Some("var:twice"), Some("twice")),
            (Some("var:changed"), Some("twice")),
            (Some("a"), Some("again")),
            (Some("b"), Some("again")),
            // Not a number, not a member: dynamic.
            (None, Some("Channels.count")),
            (None, Some("IpcChannel.Zero")),
            (None, Some("Channels.window.missing")),
            // A parameter hides the constant; an inner declaration binds its own.
            (None, Some("GET")),
            (Some("inner:get"), Some("GET")),
        ]
    );
}

/// Each window call of a file: its name and its arguments' strings.
fn window_calls(facts: &FileFacts) -> Vec<(&str, Vec<Option<&str>>)> {
    facts
        .js
        .window_calls
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.args.iter().map(Option::as_deref).collect(),
            )
        })
        .collect()
}

/// An IPC operation as (operation, side, channel, via, handler kind).
type Op<'a> = (
    &'a str,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
);

#[test]
fn calls_of_a_function_that_forwards_its_parameter_as_a_channel_are_its_operations() {
    let main = facts(
        "main.js",
        r#"const { ipcMain, ipcRenderer } = require("electron");
handle("hoisted", () => 0);
function handle(channel, fn) { ipcMain.handle(channel, async (e, ...a) => fn(...a)); }
const on = (channel, listener) => ipcMain.on(channel, listener);
const send = function (ch, ...args) { ipcRenderer.send(ch, ...args); };
const GET = "settings:get";
handle("get-user", () => 1);
on("ping", onPing);
send(GET, 1);
function f(handle) { handle("shadowed"); }
const nested = (ch) => [1].forEach(() => ipcRenderer.send(ch));
nested("inner");
"#,
    );
    let mut ops: Vec<Op> = main
        .js
        .ipc
        .iter()
        .map(|op| {
            (
                op.operation,
                op.side,
                op.channel.as_deref(),
                op.via.as_deref(),
                op.handler_kind,
            )
        })
        .collect();
    ops.sort();
    assert_eq!(
        ops,
        [
            // The helpers' own operations, on their parameters.
            ("handle", "main", None, None, Some("inline-function")),
            // A call before the declaration (function declarations are hoisted), and one
            // after; the handler is what the helper passes, not the caller's function.
            (
                "handle",
                "main",
                Some("get-user"),
                Some("handle"),
                Some("inline-function")
            ),
            (
                "handle",
                "main",
                Some("hoisted"),
                Some("handle"),
                Some("inline-function")
            ),
            ("on", "main", None, None, Some("identifier")),
            // The listener the helper passes is its own parameter: the caller's argument.
            ("on", "main", Some("ping"), Some("on"), Some("identifier")),
            ("send", "renderer", None, None, None),
            ("send", "renderer", None, None, None),
            // A channel the call passes through a constant is that string.
            ("send", "renderer", Some("settings:get"), Some("send"), None),
        ]
    );
    // Without Electron, the same shapes are nobody's operations.
    let other = facts(
        "other.js",
        "function handle(channel, fn) { bus.handle(channel, fn); } handle(\"x\", f);",
    );
    assert!(other.js.ipc.is_empty());
}

#[test]
fn electrons_entry_points_by_process_are_electron() {
    let main = facts(
        "main.mjs",
        r#"import { ipcMain as m } from "electron/main";
m.handle("x", () => 1);
"#,
    );
    let ops: Vec<(&str, Option<&str>)> = main
        .js
        .ipc
        .iter()
        .map(|op| (op.operation, op.channel.as_deref()))
        .collect();
    assert_eq!(ops, [("handle", Some("x"))]);
    let preload = facts(
        "preload.js",
        r#"const { contextBridge: b, ipcRenderer: r } = require("electron/renderer");
b.exposeInMainWorld("api", { send: (c) => r.send(c) });
"#,
    );
    let bridge = &preload.js.bridges[0];
    assert_eq!(bridge.api_key.as_deref(), Some("api"));
    let forwarders: Vec<(&str, &str)> = bridge
        .forwarders
        .iter()
        .map(|f| (f.member.as_str(), f.operation))
        .collect();
    assert_eq!(forwarders, [("send", "send")]);
}

#[test]
fn an_ipc_events_sender_sends_like_web_contents_in_a_file_that_uses_electron() {
    let main = facts(
        "main.js",
        r#"const { ipcMain } = require("electron");
ipcMain.on("ask", (event) => { event.sender.send("answer", 1); });
ipcMain.on("ping", (e) => { e.reply("pong"); e.senderFrame.send("framed"); });
win.webContents.send("pushed");
state.peer.sender.send("not-an-event");
state.peer.reply("not-an-event");
win.webContents.ipc.handle("own:get", () => 1);
win.webContents.ipc.on("own:note", () => {});
"#,
    );
    let ops = ipc_ops(&main);
    assert_eq!(
        ops,
        [
            ("main", "on", Some("ask")),
            ("main", "webcontents-send", Some("answer")),
            ("main", "on", Some("ping")),
            ("main", "event-reply", Some("pong")),
            ("main", "webcontents-send", Some("framed")),
            ("main", "webcontents-send", Some("pushed")),
            ("main", "webcontents-ipc-handle", Some("own:get")),
            ("main", "webcontents-ipc-on", Some("own:note")),
        ]
    );
    // Without Electron, `sender` and `reply` are any object's; without `ipcMain`, so is
    // `reply`.
    let other = facts(
        "mail.js",
        "function f(event) { event.sender.send(\"x\"); event.reply(\"y\"); }",
    );
    assert!(other.js.ipc.is_empty());
    let bot = facts(
        "bot.js",
        "const { app } = require(\"electron\"); bot.on(\"m\", (ctx) => ctx.reply(\"hi\"));",
    );
    assert!(bot.js.ipc.is_empty());
}

#[test]
fn the_sender_of_an_event_an_ipc_renderer_listener_receives_sends_to_the_main_process() {
    // A preload: every event it names is an `ipcRenderer` event, passed in place or by name.
    let preload = facts(
        "preload.js",
        r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("open-url", async (event, url) => { event.sender.send("opened", url); });
const h = (e) => { e.sender.send("closing"); };
ipcRenderer.on("about-to-close", h);
"#,
    );
    assert_eq!(
        ipc_ops(&preload),
        [
            ("renderer", "on", Some("open-url")),
            ("renderer", "send", Some("opened")),
            ("renderer", "send", Some("closing")),
            ("renderer", "on", Some("about-to-close")),
        ]
    );
    // A file with both sides: the listener around the call decides.
    let both = facts(
        "both.js",
        r#"const { ipcMain, ipcRenderer } = require("electron");
ipcRenderer.on("from-main", (event) => { event.sender.send("to-main"); });
ipcMain.on("from-page", (event) => { event.sender.send("to-page"); });
"#,
    );
    assert_eq!(
        ipc_ops(&both),
        [
            ("renderer", "on", Some("from-main")),
            ("renderer", "send", Some("to-main")),
            ("main", "on", Some("from-page")),
            ("main", "webcontents-send", Some("to-page")),
        ]
    );
    // Electron through a module that re-exports it: the file names `ipcMain`, so its events
    // are still IPC events.
    let reexported = facts(
        "main.js",
        r#"const electron_1 = require("@vendor/electron/shared/electron");
electron_1.ipcMain.handle("open-popup", (event, id) => {
  menu.popup({ callback: () => { event.sender.send("popup-closed", id); } });
});
"#,
    );
    assert_eq!(
        ipc_ops(&reexported),
        [
            ("main", "handle", Some("open-popup")),
            ("main", "webcontents-send", Some("popup-closed")),
        ]
    );
}

#[test]
fn web_contents_looked_up_or_listed_by_electrons_module_send_to_their_pages() {
    let main = facts(
        "main.js",
        r#"const electron = require("electron");
const { webContents } = electron;
for (const wc of webContents.getAllWebContents()) wc.send("each-of");
webContents.getAllWebContents().filter((w) => !w.isDestroyed()).forEach((w) => w.send("each-filtered"));
const focused = webContents.getFocusedWebContents();
focused.send("focused");
const byId = electron.webContents.fromId(3);
byId.send("by-id");
const found = webContents.getAllWebContents().find((w) => w.id === 1);
found.send("found");
webContents.fromId(7)?.send("in-place");
items.forEach((w) => w.send("not-contents"));
for (const w of items) w.send("not-contents-either");
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "webcontents-send", Some("each-of")),
            ("main", "webcontents-send", Some("each-filtered")),
            ("main", "webcontents-send", Some("focused")),
            ("main", "webcontents-send", Some("by-id")),
            ("main", "webcontents-send", Some("found")),
            ("main", "webcontents-send", Some("in-place")),
        ]
    );
}

/// A bundler that hoists modules into one scope (rollup, esbuild, webpack's concatenated
/// modules) writes a call of another module's function as a call of a local one, with
/// names minified: `function Xe(e) { e.handle("x", …) }` … `Xe(o.ipcMain)`. The parameter a
/// call hands `ipcMain` or `ipcRenderer` to holds that object, for a function declared
/// before or after the call, and so does a helper's that forwards its channel; a function
/// another object is handed to is not read.
#[test]
fn parameters_a_call_hands_electrons_ipc_objects_to_hold_them() {
    let main = facts(
        "main.js",
        r#"const o = require("electron");
function Xe(e, win) { e.handle("get-user", () => 1); }
const Ye = (t) => { t.on("save", () => 2); };
function helper(e, channel, fn) { e.on(channel, fn); }
Xe(o.ipcMain, null);
Ye(o.ipcMain);
helper(o.ipcMain, "via-helper", () => {});
later(o.ipcMain);
function later(x) { x.handle("hoisted", () => 3); }
function other(e) { e.handle("not-ipc", () => 4); }
other(emitter);
function inner() { function Xe(e) { e.handle("shadowed", () => 5); } }
"#,
    );
    let ops: Vec<(&str, &str, Option<&str>)> = ipc_ops(&main)
        .into_iter()
        .filter(|(_, _, channel)| channel.is_some())
        .collect();
    assert_eq!(
        ops,
        [
            ("main", "handle", Some("get-user")),
            ("main", "on", Some("save")),
            ("main", "on", Some("via-helper")),
            ("main", "handle", Some("hoisted")),
        ]
    );
    let preload = facts(
        "preload.js",
        r#"const { ipcRenderer: r, contextBridge } = require("electron");
function mk(i) { return { get: () => i.invoke("get-user") }; }
contextBridge.exposeInMainWorld("api", mk(r));
"#,
    );
    assert_eq!(
        ipc_ops(&preload),
        [("renderer", "invoke", Some("get-user"))]
    );
}

/// webpack 5 in production mode keeps CommonJS modules (as `tsc` writes them) as factories
/// and calls another factory's export through a member, `(0, r.registerHandlers)(e.ipcMain)`,
/// of the function terser writes where the factory assigns it: the parameter holds the
/// object there too. (What webpack 5.102 wrote for `exports.registerHandlers = function
/// (ipc) {…}` and a main process that calls it with `electron_1.ipcMain`.)
#[test]
fn parameters_a_call_of_another_factorys_export_hands_ipc_objects_to_hold_them() {
    let main = facts(
        "main.js",
        r#"(()=>{"use strict";var e={858(e,r){r.registerHandlers=function(e){e.handle(n,async()=>({name:"x"})),e.on(s,(e,r)=>{e.sender.send("app:saved",r)})};r.other=function(e){e.handle("not-ipc",()=>1)};const n="app:get-user",s="app:save"},482(e){e.exports=require("electron")}};const r={};function n(s){const t=r[s];if(void 0!==t)return t.exports;const o=r[s]={exports:{}};return e[s](o,o.exports,n),o.exports}(()=>{const e=n(482),r=n(858);e.app.whenReady().then(()=>{(0,r.registerHandlers)(e.ipcMain),(0,r.other)(e.emitter)})})()})();"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "handle", Some("app:get-user")),
            ("main", "on", Some("app:save")),
            ("main", "webcontents-send", Some("app:saved")),
        ]
    );
    assert_eq!(main.js.bundles[0].modules.len(), 2);
}

/// A class's method a call hands Electron's IPC objects to, as `tsc` writes a class and as
/// Babel does (`_createClass(a, [{key: "mainBindings", value: function mainBindings(a) {…}}])`,
/// the shape secure-electron-store ships, whose function's own name terser drops in a webpack
/// build): its parameter holds the object. A method no such call names, and a function
/// expression's own name called plainly, are not read.
#[test]
fn parameters_of_methods_a_call_hands_ipc_objects_to_hold_them() {
    let main = facts(
        "main.js",
        r#"const o = require("electron");
class Store {
  mainBindings(e, win) { e.on("store:read", (ev) => ev.sender.send("store:value", 1)); }
  other(e) { e.handle("not-handed", () => 1); }
}
var Babel = function () { function a() {} _createClass(a, [{ key: "bindings", value: function bindings(x) { x.handle("babel:handle", () => 1); } }]); return a; }();
var Minified = function () { function e() {} return n(e, [{ key: "wire", value: function (e, t) { e.on("minified:on", () => 1); } }]), e; }();
const f = function g(e) { e.handle("own-name", () => 1); };
new Store().mainBindings(o.ipcMain, null);
new Babel().bindings(o.ipcMain);
new Minified().wire(o.ipcMain, 1);
g(o.ipcMain);
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "on", Some("store:read")),
            ("main", "webcontents-send", Some("store:value")),
            ("main", "handle", Some("babel:handle")),
            ("main", "on", Some("minified:on")),
        ]
    );
}

#[test]
fn electron_imported_by_a_dynamic_import_waited_for_is_electron() {
    // `await import("electron")`, and `yield import(…)` as TypeScript compiles an `await`
    // for older targets: the module, renamed exports included.
    let main = facts(
        "main.js",
        r#"async function start() {
  const { ipcMain: m, webContents } = await import("electron");
  m.handle("awaited", () => 1);
  webContents.fromId(1).send("looked-up");
}
function* legacy() {
  const { ipcMain: n } = yield import("electron");
  n.on("yielded", (event) => { event.sender.send("answered"); });
  const { ipcMain: p } = yield* other();
  p.on("delegated", () => {});
  const q = import("electron");
  q.then((e) => e).on("a-promise", () => {});
}
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "handle", Some("awaited")),
            ("main", "webcontents-send", Some("looked-up")),
            ("main", "on", Some("yielded")),
            ("main", "webcontents-send", Some("answered")),
        ]
    );
}

/// An exported API as (export, members, forwarders as (member, parameter, operation)).
type Api<'a> = (&'a str, Vec<&'a str>, Vec<(&'a str, u32, &'a str)>);
/// A bridge's key, with what it reads off another module: (specifier, member path).
type Exposed<'a> = (&'a str, Option<(&'a str, Vec<&'a str>)>);

#[test]
fn exported_api_objects_and_bridges_that_expose_another_modules_export() {
    let api = facts(
        "api.js",
        r#"const { ipcRenderer } = require("electron");
const local = { send: (channel, ...a) => ipcRenderer.send(channel, ...a) };
exports.api = local;
exports.inPlace = { ask(c) { return ipcRenderer.invoke(c); }, fixed: () => ipcRenderer.invoke("x") };
exports.count = 3;
module.exports.empty = {};
"#,
    );
    let apis: Vec<Api> = api
        .js
        .exported_apis
        .iter()
        .map(|a| {
            (
                a.export.as_str(),
                a.members.iter().map(String::as_str).collect(),
                a.forwarders
                    .iter()
                    .map(|f| (f.member.as_str(), f.param, f.operation))
                    .collect(),
            )
        })
        .collect();
    // Bound names first, then literals exported in place; a number or an empty object is
    // no API.
    assert_eq!(
        apis,
        [
            ("api", vec!["send"], vec![("send", 0, "send")]),
            ("inPlace", vec!["ask", "fixed"], vec![("ask", 0, "invoke")]),
        ]
    );
    // The same exports from a file that does not use Electron are no APIs.
    let plain = facts(
        "plain.js",
        "const local = { send: (c) => c }; exports.api = local; exports.b = { go() {} };",
    );
    assert!(plain.js.exported_apis.is_empty());

    let preload = facts(
        "preload.mjs",
        r#"import { contextBridge } from "electron";
import { electronAPI } from "@electron-toolkit/preload";
import * as all from "./apis.js";
contextBridge.exposeInMainWorld("electron", electronAPI);
contextBridge.exposeInMainWorld("all", all);
contextBridge.exposeInMainWorld("one", all.one.inner);
contextBridge.exposeInMainWorld("made", make());
"#,
    );
    let imports: Vec<Exposed> = preload
        .js
        .bridges
        .iter()
        .map(|b| {
            assert_eq!(b.api_status, "dynamic");
            let import = b.api_import.as_ref().map(|i| match &i.from {
                ImportFrom::Specifier(s) => {
                    (s.as_str(), i.path.iter().map(String::as_str).collect())
                }
                ImportFrom::Module(_) => panic!("no factory here"),
            });
            (b.api_key.as_deref().unwrap(), import)
        })
        .collect();
    assert_eq!(
        imports,
        [
            // A package's export, as a relative module's.
            (
                "electron",
                Some(("@electron-toolkit/preload", vec!["electronAPI"]))
            ),
            ("all", Some(("./apis.js", vec![]))),
            ("one", Some(("./apis.js", vec!["one", "inner"]))),
            ("made", None),
        ]
    );
}

#[test]
fn bridge_members_that_forward_a_channel_and_window_calls_that_may_reach_them() {
    let preload = facts(
        "preload.js",
        r#"const { contextBridge, ipcRenderer } = require("electron");
const handler = {
  ipcRenderer: {
    sendMessage(channel, ...args) { ipcRenderer.send(channel, ...args); },
    on(channel, func) { ipcRenderer.on(channel, (_e, ...a) => func(...a)); },
  },
  invoke: (payload, name) => ipcRenderer.invoke(name, payload),
  fixed: () => ipcRenderer.invoke("fixed:channel"),
  nested: (channel) => [1].map(() => ipcRenderer.send(channel)),
};
contextBridge.exposeInMainWorld("electron", handler);
contextBridge.exposeInMainWorld("direct", { go: function (c) { ipcRenderer.send(c); } });
"#,
    );
    let forwarders: Vec<(&str, &str, u32, &str)> = preload
        .js
        .bridges
        .iter()
        .flat_map(|b| {
            b.forwarders.iter().map(move |f| {
                (
                    b.api_key.as_deref().unwrap(),
                    f.member.as_str(),
                    f.param,
                    f.operation,
                )
            })
        })
        .collect();
    assert_eq!(
        forwarders,
        [
            ("electron", "invoke", 1, "invoke"),
            // The listener's channel is the member's parameter; its callback's is not.
            ("electron", "ipcRenderer.on", 0, "on"),
            ("electron", "ipcRenderer.sendMessage", 0, "send"),
            // Only a parameter of the member's own function: `nested` sends from an inner
            // function, and `fixed` names its channel.
            ("direct", "go", 0, "send"),
        ]
    );
    let page = facts(
        "renderer.js",
        r#"window.electron.ipcRenderer.sendMessage("ping", ["x"]);
globalThis.electron.invoke({}, "get");
window.electron.ipcRenderer.send("read-directly");
window.document.createElement("div");
window.electron.ipcRenderer.sendMessage(channel);
electron.invoke("no-window");
"#,
    );
    let calls = window_calls(&page);
    assert_eq!(
        calls,
        [
            ("electron.ipcRenderer.sendMessage", vec![Some("ping"), None]),
            ("electron.invoke", vec![None, Some("get")]),
            // Kept without a string too: it calls the member, whatever its channel.
            ("electron.ipcRenderer.sendMessage", vec![None]),
        ]
    );
    // A call that names `ipcRenderer.send` is read as the operation itself.
    assert_eq!(page.js.ipc.len(), 1);
    assert_eq!(page.js.ipc[0].channel.as_deref(), Some("read-directly"));

    // The same calls through names the page binds to what its window holds.
    let named = facts(
        "renderer.js",
        r#"const api = window.electron;
const { sendMessage } = window.electron.ipcRenderer;
const { invoke: call } = (globalThis).electron;
api.ipcRenderer.sendMessage("ping", ["x"]);
sendMessage("pong");
call({}, "get");
function inner(api) { api.ipcRenderer.sendMessage("shadowed"); }
const { ipcRenderer } = window.electron;
ipcRenderer.send("read-directly");
"#,
    );
    let calls = window_calls(&named);
    assert_eq!(
        calls,
        [
            ("electron.ipcRenderer.sendMessage", vec![Some("ping"), None]),
            ("electron.ipcRenderer.sendMessage", vec![Some("pong")]),
            ("electron.invoke", vec![None, Some("get")]),
        ]
    );
    assert_eq!(named.js.ipc.len(), 1);
    assert_eq!(named.js.ipc[0].channel.as_deref(), Some("read-directly"));

    // Arguments written as names: a constant of the page is its string, a member of what
    // another module exports is kept for the graph to read off that module.
    let constants = facts(
        "renderer.js",
        r#"import { IPC } from "./channels";
const PING = "ping";
const Channels = Object.freeze({ PONG: "pong" });
window.api.send(PING);
window.api.send(Channels.PONG, 1);
window.api.send(IPC.window.CLOSE);
window.api.send(unknown);
"#,
    );
    type Read<'a> = (Vec<Option<&'a str>>, Vec<Option<Vec<String>>>);
    let calls: Vec<Read> = constants
        .js
        .window_calls
        .iter()
        .map(|c| {
            (
                c.args.iter().map(Option::as_deref).collect(),
                c.arg_imports
                    .iter()
                    .map(|i| i.as_ref().map(|i| i.path.clone()))
                    .collect(),
            )
        })
        .collect();
    // Beside a string read through a name, the expression as written.
    let expressions: Vec<Vec<Option<&str>>> = constants
        .js
        .window_calls
        .iter()
        .map(|c| c.arg_expressions.iter().map(Option::as_deref).collect())
        .collect();
    assert_eq!(
        expressions,
        [
            vec![Some("PING")],
            vec![Some("Channels.PONG"), None],
            vec![Some("IPC.window.CLOSE")],
            // `unknown` is read through no name: no expression is kept.
            vec![],
        ]
    );
    let close = vec!["IPC".to_owned(), "window".to_owned(), "CLOSE".to_owned()];
    assert_eq!(
        calls,
        [
            (vec![Some("ping")], vec![]),
            (vec![Some("pong"), None], vec![]),
            (vec![None], vec![Some(close)]),
            // A channel the page cannot read still calls the member.
            (vec![None], vec![]),
        ]
    );
}

#[test]
fn strings_a_file_exports_and_channels_read_off_another_files_exports() {
    use rea_parse::Constant::{Object, Str};
    let cjs = facts(
        "channels.js",
        r#"exports.IPC = exports.GET = void 0;
exports.GET = "settings:get";
module.exports.IPC = { window: { CLOSE: "window:close" } };
var Channel;
(function (Channel) { Channel["Open"] = "link:open"; })(Channel || (exports.Channel = Channel = {}));
exports.fn = function () {};
"#,
    );
    let names: Vec<&str> = cjs
        .js
        .exported_constants
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["GET", "IPC", "Channel"]);
    assert_eq!(
        cjs.js.exported_constants[0].1,
        Str("settings:get".to_owned())
    );
    assert_eq!(
        cjs.js.exported_constants[2].1,
        Object(vec![("Open".to_owned(), Str("link:open".to_owned()))])
    );
    let whole = facts(
        "c.js",
        r#"module.exports = { A: "a", B: { C: "c" }, f() {} };"#,
    );
    assert_eq!(
        whole.js.exported_constants,
        [
            ("A".to_owned(), Str("a".to_owned())),
            (
                "B".to_owned(),
                Object(vec![("C".to_owned(), Str("c".to_owned()))])
            ),
        ]
    );
    let esm = facts(
        "channels.mjs",
        r#"export const GET = "settings:get";
export let notConst = "x";
export var Channel;
(function (Channel) { Channel["Open"] = "link:open"; })(Channel || (Channel = {}));
const local = "local:value";
export { local as renamed };
"#,
    );
    let names: Vec<&str> = esm
        .js
        .exported_constants
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    // A `let` may change; the enum, and a constant exported by an export list, hold.
    assert_eq!(names, ["GET", "Channel", "renamed"]);
    let main = facts(
        "main.js",
        r#"const { ipcMain } = require("electron");
const ch = __importStar(require("./channels"));
const channels_1 = require("./channels");
const lib = require("lib");
ipcMain.handle(ch.GET, h);
ipcMain.on(channels_1.IPC.window.CLOSE, h);
ipcMain.on(lib.X, h);
ipcMain.on(channels_1[key], h);
ipcMain.on(require("./channels").IPC.OPEN, h);
ipcMain.on(require("lib").OPEN, h);
"#,
    );
    let imports: Vec<Option<(&str, Vec<&str>)>> = main
        .js
        .ipc
        .iter()
        .map(|op| {
            op.channel_import.as_ref().map(|i| {
                let ImportFrom::Specifier(specifier) = &i.from else {
                    panic!("{i:?}")
                };
                (
                    specifier.as_str(),
                    i.path.iter().map(String::as_str).collect(),
                )
            })
        })
        .collect();
    assert_eq!(
        imports,
        [
            Some(("./channels", vec!["GET"])),
            Some(("./channels", vec!["IPC", "window", "CLOSE"])),
            // A package's export is read like a relative module's, from the package the
            // graph resolves it to; a computed member is not static.
            Some(("lib", vec!["X"])),
            None,
            // A require called in place, of the application's module or a package's.
            Some(("./channels", vec!["IPC", "OPEN"])),
            Some(("lib", vec!["OPEN"])),
        ]
    );
}

/// Channels made by a function another factory of the same bundle exports (a webpack getter
/// of an arrow or of a function declaration, a CommonJS assignment of one, minified names
/// and strings bound in that factory): a call with strings is the channel it makes. A call
/// with a value not known, and a function its factory assigns again, stay dynamic.
#[test]
fn channels_made_by_a_function_another_factory_exports() {
    let bundle = facts(
        "main.js",
        r#"(() => {
var __webpack_modules__ = {
  10: (e, t, n) => {
    var o = n(20), s = n(30);
    const { ipcMain: i } = n(99);
    i.handle((0, o.a)("open"), h);
    i.on(o.b("save", "now"), h);
    i.on(s.make("close"), h);
    i.on(o.c("x"), h);
    i.on((0, o.a)(process.argv[2]), h);
  },
  20: (e, t, n) => {
    n.d(t, { a: () => r, b: () => u, c: () => m });
    const p = "app";
    const r = (e) => `${p}:${e}`;
    function u(e, t) { return "cmd:" + e + "/" + t; }
    function m(e) { return "old:" + e; }
    m = (e) => "new:" + e;
  },
  30: (e, t) => { t.make = function (e) { return "win:" + e; }; },
  99: (e) => { e.exports = require("electron"); },
};
function n(id) { var m = { exports: {} }; __webpack_modules__[id](m, m.exports, n); return m.exports; }
n(10);
})();
"#,
    );
    let channels = op_channels(&bundle);
    assert_eq!(
        channels,
        [
            Some("app:open"),
            Some("cmd:save/now"),
            Some("win:close"),
            None,
            None,
        ]
    );
    assert_eq!(bundle.js.dynamic_findings, 2);
}

/// Channels read off another factory of the same bundle: the factory's require name bound to
/// a key (`var o = n(227)`, through an interop helper too) and the strings that factory
/// exports, CommonJS assignments, a compiled enum, or webpack's getters of its own constants.
#[test]
fn channels_read_off_another_factory_of_the_bundle() {
    let bundle = facts(
        "main.js",
        r#"(() => {
var __webpack_modules__ = {
  10: (e, t, n) => {
    var o = n(20), r = __importStar(n(30)), s = n(40), u = n(50);
    const { ipcMain: i } = n(99);
    i.handle(o.GET, h);
    i.on(r.IPC.window.CLOSE, h);
    i.on(s.Channel.Open, h);
    i.on(s.LATE, h);
    i.on(s.CHANGED, h);
    i.on(u.Zb, h);
    i.on(u.Missing, h);
    i.on(o.fn, h);
    i.on(n(60).Direct.Open, h);
  },
  20: (e, t) => { t.GET = "settings:get"; t.fn = function () {}; },
  30: (e) => { e.exports = { IPC: { window: { CLOSE: "window:close" } } }; },
  40: (e, t, n) => {
    n.d(t, { Channel: () => c, LATE: () => l, CHANGED: () => m });
    var c;
    (function (c) { c["Open"] = "link:open"; })(c || (c = {}));
    const l = "late:value";
    var m = "first";
    m = "second";
  },
  50: (e, t, n) => { n.d(t, { Zb: function () { return "mangled:name"; } }); },
  60: (e, t) => { var r, o; (o = r || (t.Direct = r = {})).Open = "inline:enum"; },
  99: (e) => { e.exports = require("electron"); },
};
function n(id) { var m = { exports: {} }; __webpack_modules__[id](m, m.exports, n); return m.exports; }
n(10);
})();
"#,
    );
    let channels: Vec<(Option<&str>, Option<&str>)> = bundle
        .js
        .ipc
        .iter()
        .map(|op| (op.channel.as_deref(), op.channel_expression.as_deref()))
        .collect();
    assert_eq!(
        channels,
        [
            (Some("settings:get"), Some("o.GET")),
            (Some("window:close"), Some("r.IPC.window.CLOSE")),
            (Some("link:open"), Some("s.Channel.Open")),
            (Some("late:value"), Some("s.LATE")),
            // Reassigned in its factory: not a constant.
            (None, Some("s.CHANGED")),
            (Some("mangled:name"), Some("u.Zb")),
            (None, Some("u.Missing")),
            (None, Some("o.fn")),
            // A require called in place.
            (Some("inline:enum"), Some("n(60).Direct.Open")),
        ]
    );
    // Resolved operations are not dynamic; the unresolved keep where they read from.
    let unresolved: Vec<bool> = bundle
        .js
        .ipc
        .iter()
        .map(|op| op.channel_import.is_some())
        .collect();
    assert_eq!(
        unresolved,
        [false, false, false, false, true, false, true, true, false]
    );
    assert_eq!(bundle.js.dynamic_findings, 3);
    // Outside a file that does IPC nothing is bound or kept.
    let quiet = facts(
        "other.js",
        r#"(() => { var m = { 1: (e, t, n) => { var o = n(2); f(o.GET); }, 2: (e, t) => { t.GET = "x"; } };
function n(id) { var x = { exports: {} }; m[id](x, x.exports, n); return x.exports; } n(1); })();"#,
    );
    assert!(quiet.js.ipc.is_empty());
    assert_eq!(quiet.js.bundles.len(), 1);
    // esbuild's wrappers: `(exports, module)`, and the wrapper's name called with nothing.
    let esbuild = facts(
        "preload.js",
        r#"var require_channels = __commonJS({
  "src/channels.js"(exports2, module2) {
    exports2.GET = "settings:get";
    module2.exports.SET = "settings:set";
  }
});
var import_electron = require("electron");
var ch = __toESM(require_channels());
var direct = require_channels();
import_electron.ipcRenderer.invoke(ch.GET);
import_electron.ipcRenderer.invoke(direct.SET);
"#,
    );
    let channels = op_channels(&esbuild);
    assert_eq!(channels, [Some("settings:get"), Some("settings:set")]);
    assert_eq!(esbuild.js.bundles[0].modules[0].exports, ["GET", "SET"]);
}

/// A barrel module's re-exports as webpack 5 compiles them when it does not concatenate
/// modules: getters of a member of another factory's require (`GET: () => c.GET` after `var
/// c = n("./channels.js")`, declared after the getters), chained through a second barrel;
/// the array form webpack 5.100+ writes in production (`n.d(t, ["f", 0, "x"])`, a value
/// after `0`, or a getter); rspack 2's object of values; and TypeScript's `__exportStar`.
#[test]
fn channels_re_exported_by_another_factory_are_read_through_it() {
    let bundle = facts(
        "main.js",
        r#"(() => {
var __webpack_modules__ = {
  "./channels.js": (e, t, n) => {
    n.d(t, { GET: () => GET, IPC: () => IPC });
    const GET = "barrel:get";
    const IPC = { CLOSE: "barrel:close" };
  },
  "./index.js": (e, t, n) => {
    n.d(t, { FETCH: () => c.GET, GET: () => c.GET, IPC: () => c.IPC, NONE: () => c.NONE });
    var c = n("./channels.js");
  },
  "./outer.js": (e, t, n) => {
    n.d(t, { OUTER: () => i.FETCH, LOOP: () => l.LOOP });
    var i = n("./index.js"), l = n("./outer.js");
  },
  67: (e, t, n) => { n.d(t, ["P", 0, { CLOSE: "array:close" }, "f", 0, "array:get", "g", () => v]); const v = "array:getter"; },
  68: (e, t, n) => { let i = { CLOSE: "values:close" }; n.d(t, { PD: () => i }, { fG: "values:get" }); },
  69: function (e, t, n) { var i = this && this.__exportStar || function (e, t) { for (var r in e) t[r] = e[r]; }; Object.defineProperty(t, "__esModule", { value: !0 }), i(n(68), t), t.OWN = "star:own"; },
  99: (e) => { e.exports = require("electron"); },
  10: (e, t, n) => {
    const { ipcMain: m } = n(99);
    var s = n("./index.js"), o = n("./outer.js"), a = n(67);
    m.handle(s.GET, h);
    m.on(s.IPC.CLOSE, h);
    m.handle(o.OUTER, h);
    m.handle(s.NONE, h);
    m.handle(o.LOOP, h);
    m.handle(a.f, h);
    m.on(a.P.CLOSE, h);
    m.on(a.g, h);
    var b = n(69);
    m.on(b.fG, h);
    m.on(b.PD.CLOSE, h);
    m.on(b.OWN, h);
  },
};
function n(id) { var m = { exports: {} }; __webpack_modules__[id](m, m.exports, n); return m.exports; }
n(10);
})();
"#,
    );
    let channels = op_channels(&bundle);
    assert_eq!(
        channels,
        [
            Some("barrel:get"),
            Some("barrel:close"),
            // Through two barrels.
            Some("barrel:get"),
            // Nothing at the end of the chain, and a factory re-exporting itself: dynamic.
            None,
            None,
            Some("array:get"),
            Some("array:close"),
            Some("array:getter"),
            // rspack 2's values after its getters, re-exported whole by TypeScript's
            // `__exportStar` under a minified name.
            Some("values:get"),
            Some("values:close"),
            Some("star:own"),
        ]
    );
    assert_eq!(bundle.js.dynamic_findings, 2);
}

/// Stars of a large module could multiply it: re-exports add at most 65,536 strings to a
/// file's factories, and a channel read through the rest stays dynamic.
#[test]
fn re_exports_add_a_bounded_number_of_strings() {
    let (exported, stars) = (5_000, 20);
    let mut text = String::from("(() => { var m = { 1: (e, t, n) => {");
    for i in 0..exported {
        text.push_str(&format!("t.E{i} = \"ch:{i}\";"));
    }
    text.push_str("},");
    for k in 0..stars {
        text.push_str(&format!(
            "{}: function (e, t, n) {{ var i = this && this.__exportStar || function () {{}}; i(n(1), t); }},",
            k + 10
        ));
    }
    text.push_str("99: (e) => { e.exports = require(\"electron\"); }, 5: (e, t, n) => { const { ipcMain: m } = n(99);");
    for k in 0..stars {
        text.push_str(&format!("m.on(n({}).E{k}, h);", k + 10));
    }
    text.push_str("} }; function n(i) { var x = { exports: {} }; m[i](x, x.exports, n); return x.exports; } n(5); })();");
    let bundle = facts("main.js", &text);
    let resolved: Vec<bool> = bundle
        .js
        .ipc
        .iter()
        .map(|op| op.channel.is_some())
        .collect();
    assert_eq!(resolved.len(), stars);
    // 13 stars of 5,000 and part of the 14th fit in the bound; the rest are not read.
    assert_eq!(resolved.iter().filter(|r| **r).count(), 14);
    assert!(resolved[0] && !resolved[stars - 1]);
}

/// TypeScript enums as a TypeScript file writes them (shipped sources, and what
/// `compare_source_to_bundle` reads): their string members are channels in the file and
/// exports other files read; numeric members are not strings.
#[test]
fn typescript_enums_as_written_name_channels() {
    use rea_parse::Constant::{Object, Str};
    let f = facts(
        "channels.ts",
        r#"import { ipcMain } from "electron";
export enum Channels { GetUser = "user:get", "Set-User" = `user:set`, Count = 3, Next }
const enum Local { Open = "link:open" }
ipcMain.handle(Channels.GetUser, async () => ({}));
ipcMain.on(Local.Open, () => {});
function scoped() { enum Local { Open = "other" } }
"#,
    );
    assert_eq!(
        f.js.exported_constants,
        [(
            "Channels".to_owned(),
            Object(vec![
                ("GetUser".to_owned(), Str("user:get".to_owned())),
                ("Set-User".to_owned(), Str("user:set".to_owned())),
            ])
        )]
    );
    let channels: Vec<Option<&str>> = f.js.ipc.iter().map(|op| op.channel.as_deref()).collect();
    assert_eq!(channels, [Some("user:get"), Some("link:open")]);
}

/// TypeScript enums as minifiers leave them: terser joins the members into one sequence,
/// swc's minifier inlines the function (`(n = e || (e = {})).Open = "x"`); an entry module
/// webpack inlines into its runtime requires through the runtime's own require function
/// (`const n = o(777)`, or assigned after a bare `let`), and the factory it requires exports
/// its enum the inlined way too.
#[test]
fn minified_enums_and_entries_inlined_into_the_runtime() {
    let same_file = facts(
        "preload.js",
        r#"(()=>{"use strict";var n,e,t;let i=require("electron");!function(e){e.Seq="seq:member",e[e.Count=3]="Count"}(t||(t={}));(e=n||(n={})).Open="link:open",e[e.Count=3]="Count",i.ipcRenderer.send(n.Open),i.ipcRenderer.send(t.Seq),i.ipcRenderer.send(n.Count)})();"#,
    );
    let channels = op_channels(&same_file);
    // `Count` is a number member: not a channel.
    assert_eq!(channels, [Some("link:open"), Some("seq:member"), None]);
    let runtime = facts(
        "main.js",
        r#"(()=>{"use strict";let e,n;var r={777(e,n){var r,o;n.GET="settings:get",(o=r||(n.Channel=r={})).Open="link:open"},482(e){e.exports=require("electron")}},o={};function t(e){var n=o[e];if(void 0!==n)return n.exports;var i=o[e]={exports:{}};return r[e](i,i.exports,t),i.exports}e=t(482);n=t(777);const c=t(777);e.ipcMain.on(n.GET,h),e.ipcMain.on(c.Channel.Open,h),e.ipcMain.on(c.Other,h)})();"#,
    );
    let channels = op_channels(&runtime);
    assert_eq!(channels, [Some("settings:get"), Some("link:open"), None]);
    assert_eq!(runtime.js.bundles.len(), 1);
    assert_eq!(runtime.js.bundles[0].modules.len(), 2);
}

/// What rollup's and rolldown's CommonJS output exports by `Object.defineProperty(exports,
/// …)`: a getter returning a name the file binds (as function, arrow or method), or a value.
/// A getter of anything else, one inside a function, and another object's property export
/// nothing.
#[test]
fn exports_defined_as_properties_of_exports_are_the_file_s() {
    use rea_parse::Constant::{Object, Str};
    let f = facts(
        "chunk.cjs",
        r#"let IpcChannel = function(e) { e["GET"] = "zubridge:get"; return e; }({});
const A = "a:value";
const B = "b:value";
Object.defineProperty(exports, 'IpcChannel', { enumerable: true, get: function () { return IpcChannel; } });
Object.defineProperty(exports, "A", { enumerable: true, get: () => A });
Object.defineProperty(module.exports, "B", { get() { return B; } });
Object.defineProperty(exports, "C", { value: "c:value" });
Object.defineProperty(exports, "D", { get: function () { return compute(); } });
Object.defineProperty(other, "E", { value: "e:value" });
function later() { const F = "f"; Object.defineProperty(exports, "F", { get: () => F }); }"#,
    );
    let mut exported = f.js.exported_constants.clone();
    exported.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        exported,
        [
            ("A".to_owned(), Str("a:value".to_owned())),
            ("B".to_owned(), Str("b:value".to_owned())),
            ("C".to_owned(), Str("c:value".to_owned())),
            (
                "IpcChannel".to_owned(),
                Object(vec![("GET".to_owned(), Str("zubridge:get".to_owned()))])
            ),
        ]
    );
}

/// Rolldown's (tsdown's) enums, as @zubridge/electron ships them: the function gets a new
/// `{}` and returns it, and the name is bound to what it returns. One that returns nothing,
/// or something else, binds nothing.
#[test]
fn enums_rolldown_binds_to_what_their_function_returns() {
    let f = facts(
        "preload.cjs",
        r#"const electron = require("electron");
let IpcChannel = /* @__PURE__ */ function(IpcChannel$1) {
	IpcChannel$1["DISPATCH"] = "zubridge:dispatch";
	IpcChannel$1.GET_STATE = "zubridge:get-state";
	return IpcChannel$1;
}({});
let Unreturned = function(e) { e.A = "unreturned:a"; }({});
let Other = function(e) { e.A = "other:a"; return other; }({});
electron.ipcRenderer.send(IpcChannel.DISPATCH);
electron.ipcRenderer.invoke(IpcChannel.GET_STATE);
electron.ipcRenderer.send(Unreturned.A);
electron.ipcRenderer.send(Other.A);"#,
    );
    let channels: Vec<Option<&str>> = f.js.ipc.iter().map(|op| op.channel.as_deref()).collect();
    assert_eq!(
        channels,
        [
            Some("zubridge:dispatch"),
            Some("zubridge:get-state"),
            None,
            None
        ]
    );
}

#[test]
fn security_handlers_the_main_process_installs() {
    let f = facts(
        "main.js",
        r#"const { app, session } = require("electron");
app.on("web-contents-created", (event, contents) => {
  contents.on("will-navigate", (e) => e.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: "deny" }));
  contents.on("will-attach-webview", guardWebview);
});
session.defaultSession.setPermissionRequestHandler(null);
win.webContents.once("will-redirect", onRedirect);
win.on("closed", () => {});
emitter.on(eventName, () => {});
"#,
    );
    let handlers: Vec<(&str, &str, u32)> =
        f.js.security_handlers
            .iter()
            .map(|h| (h.api, h.handler, h.range.start.line))
            .collect();
    assert_eq!(
        handlers,
        [
            ("web-contents-created", "function", 2),
            ("will-navigate", "function", 3),
            ("setWindowOpenHandler", "function", 4),
            ("will-attach-webview", "reference", 5),
            ("setPermissionRequestHandler", "null", 7),
            ("will-redirect", "reference", 8),
        ]
    );
}

#[test]
fn launch_inputs_deep_links_opened_files_and_later_launches() {
    let f = facts(
        "main.js",
        r#"const { app: a, protocol: p } = require("electron");
if (!a.requestSingleInstanceLock()) a.quit();
a.on("second-instance", (event, argv) => focus(argv));
a.once("open-url", onDeepLink);
require("electron").app.on("open-file", null);
a.on("continue-activity", (e, type, info) => {});
a.on("ready", () => {});
a.on(eventName, () => {});
editor.on("open-file", () => {});
a.setAsDefaultProtocolClient("rea-app");
p.registerSchemesAsPrivileged([{ scheme: "rea", privileges: { standard: true } }]);
const link = process.argv.find((arg) => arg.startsWith("rea-app://"));
const argv = process["argv"], env = process.env, other = proc.argv;
"#,
    );
    // Minified code renames `app` and `protocol` as it does the rest of Electron.
    let registered: Vec<(&str, Option<&str>)> =
        f.js.scheme_registrations
            .iter()
            .map(|r| (r.api, r.scheme.as_deref()))
            .collect();
    assert_eq!(
        registered,
        [
            ("setAsDefaultProtocolClient", Some("rea-app")),
            ("registerSchemesAsPrivileged", Some("rea"))
        ]
    );
    let inputs: Vec<(&str, Option<&str>, u32)> =
        f.js.launch_inputs
            .iter()
            .map(|i| (i.api, i.handler, i.range.start.line))
            .collect();
    assert_eq!(
        inputs,
        [
            ("requestSingleInstanceLock", None, 2),
            ("second-instance", Some("function"), 3),
            ("open-url", Some("reference"), 4),
            ("open-file", Some("null"), 5),
            ("continue-activity", Some("function"), 6),
            // The command line a first instance is launched with carries its deep link on
            // Windows and Linux.
            ("process.argv", None, 12),
        ]
    );
    // The same events on an object of a file that does not use Electron are its own.
    let other = facts(
        "editor.js",
        "const app = new App(); app.on(\"open-file\", open); app.requestSingleInstanceLock(); process.argv;\n",
    );
    assert!(other.js.launch_inputs.is_empty());
}

#[test]
fn command_line_switches_the_main_process_appends() {
    let f = facts(
        "main.js",
        r#"const { app: a } = require("electron");
const PORT = "9222";
a.commandLine.appendSwitch("no-sandbox");
a.commandLine.appendSwitch("remote-debugging-port", PORT);
require("electron").app.commandLine.appendSwitch("--ignore-certificate-errors");
a.commandLine.appendSwitch("js-flags", "--max-old-space-size=" + size);
a.commandLine.appendSwitch(flagName);
a.commandLine.appendArgument("--disable-web-security");
a.commandLine.appendArgument("--proxy-server=http://127.0.0.1:8080");
a.commandLine.appendArgument("/tmp/file.txt");
a.enableSandbox();
a.commandLine.hasSwitch("no-sandbox");
menubar.app.commandLine.appendSwitch("disable-renderer-backgrounding");
a.commandLine.appendSwitch("force-device-scale-factor", 1);
a.commandLine.appendSwitch("proxy-server", "http://user:pw@proxy.invalid:8080");
"#,
    );
    type Row<'a> = (
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
        u32,
    );
    let switches: Vec<Row<'_>> =
        f.js.command_line_switches
            .iter()
            .map(|s| {
                (
                    s.api,
                    s.switch.as_deref(),
                    s.value.as_deref(),
                    s.dynamic.as_deref(),
                    s.range.start.line,
                )
            })
            .collect();
    assert_eq!(
        switches,
        [
            ("appendSwitch", Some("no-sandbox"), None, None, 3),
            (
                "appendSwitch",
                Some("remote-debugging-port"),
                Some("9222"),
                None,
                4
            ),
            (
                "appendSwitch",
                Some("ignore-certificate-errors"),
                None,
                None,
                5
            ),
            (
                "appendSwitch",
                Some("js-flags"),
                None,
                Some(r#""--max-old-space-size=" + size"#),
                6
            ),
            ("appendSwitch", None, None, Some("flagName"), 7),
            (
                "appendArgument",
                Some("disable-web-security"),
                None,
                None,
                8
            ),
            (
                "appendArgument",
                Some("proxy-server"),
                Some("http://127.0.0.1:8080"),
                None,
                9
            ),
            ("enableSandbox", Some("enable-sandbox"), None, None, 11),
            (
                "appendSwitch",
                Some("disable-renderer-backgrounding"),
                None,
                None,
                13
            ),
            (
                "appendSwitch",
                Some("force-device-scale-factor"),
                Some("1"),
                None,
                14
            ),
            // A proxy's credentials are never kept.
            (
                "appendSwitch",
                Some("proxy-server"),
                Some("http://proxy.invalid:8080/"),
                None,
                15
            ),
        ]
    );
    // A file that does not use Electron has no command line of Electron's.
    let other = facts(
        "cli.js",
        "const app = makeApp(); app.commandLine.appendSwitch(\"no-sandbox\"); app.enableSandbox();\n",
    );
    assert!(other.js.command_line_switches.is_empty());
    // The command line bound to a name of its own first.
    let bound = facts(
        "main.js",
        r#"const { app } = require("electron");
const cl = app.commandLine;
cl.appendSwitch("ignore-certificate-errors");
const { commandLine } = app;
commandLine.appendArgument("--no-sandbox");
"#,
    );
    let names: Vec<(&str, Option<&str>, u32)> = bound
        .js
        .command_line_switches
        .iter()
        .map(|s| (s.api, s.switch.as_deref(), s.range.start.line))
        .collect();
    assert_eq!(
        names,
        [
            ("appendSwitch", Some("ignore-certificate-errors"), 3),
            ("appendArgument", Some("no-sandbox"), 5)
        ]
    );
}

#[test]
fn a_repeated_option_key_reads_as_javascript_keeps_it_the_last() {
    let f = facts(
        "main.js",
        r#"const { utilityProcess, BrowserWindow } = require("electron");
utilityProcess.fork("./worker.js", [], { serviceName: "first", serviceName: "second" });
new BrowserWindow({ webPreferences: { sandbox: false }, webPreferences: { sandbox: true } });
"#,
    );
    assert_eq!(f.js.processes[0].service_name.as_deref(), Some("second"));
    assert_eq!(
        f.js.windows[0].web_preferences,
        [(
            "sandbox".to_owned(),
            StaticValue::Literal(serde_json::json!(true))
        )]
    );
}

#[test]
fn channels_concatenated_from_strings_and_names_bound_to_strings_are_those_strings() {
    let main = facts(
        "main.js",
        &r#"const { ipcMain } = require("electron");
const PREFIX = "settings";
const GET = PREFIX + ":get";
let later = "x";
later = "y";
ipcMain.handle(GET, f);
ipcMain.handle(`${PREFIX}:set`, f);
ipcMain.handle(PREFIX + ":" + "reset", f);
ipcMain.handle(later + ":no", f);
ipcMain.handle(`${PREFIX}:${id}`, f);
ipcMain.handle(1 + 2, f);
ipcMain.handle(PREFIX - 1, f);
ipcMain.handle(CHAIN, f);
"#
        .replace("CHAIN", &vec!["PREFIX"; 20_000].join(" + ")),
    );
    let channels: Vec<Option<&str>> = ipc_ops(&main).into_iter().map(|(_, _, c)| c).collect();
    // Other operators, and chains deeper than the fold reads, are dynamic (and never
    // recursion without end).
    assert_eq!(
        channels,
        [
            Some("settings:get"),
            Some("settings:set"),
            Some("settings:reset"),
            None,
            None,
            None,
            None,
            None,
        ]
    );
    // So is a constant another file may read, exported.
    let channels = facts(
        "channels.mjs",
        "const NS = \"settings\"; export const SAVE = `${NS}:save`; export const BAD = NS + other;",
    );
    assert_eq!(
        channels.js.exported_constants,
        [(
            "SAVE".to_owned(),
            rea_parse::Constant::Str("settings:save".to_owned())
        )]
    );
    // A folded channel keeps the expression it was read from.
    assert_eq!(
        main.js.ipc[1].channel_expression.as_deref(),
        Some("`${PREFIX}:set`")
    );
}

#[test]
fn handlers_registered_in_a_loop_over_a_table_are_one_operation_a_key() {
    let main = facts(
        "main.js",
        r#"const { ipcMain } = require("electron");
const GET = "db:get";
const handlers = { "db:query": query, [GET]: get, save() {} };
for (const [channel, handler] of Object.entries(handlers)) ipcMain.handle(channel, handler);
Object.keys({ "a:one": 1 }).forEach((c) => ipcMain.on(c, () => {}));
for (const c in handlers) ipcMain.removeHandler(c);
["x:1", GET].forEach(function (name) { ipcMain.on(name, f); });
const list = ["y:1"];
for (const n of list) ipcMain.on(n, f);
function other(channel) { ipcMain.handle(channel, f); }
for (const [k] of Object.entries(computed())) ipcMain.handle(k, f);
"#,
    );
    let ops: Vec<(&str, Option<&str>)> = ipc_ops(&main)
        .into_iter()
        .map(|(_, operation, channel)| (operation, channel))
        .collect();
    assert_eq!(
        ops,
        [
            ("handle", Some("db:query")),
            ("handle", Some("db:get")),
            ("handle", Some("save")),
            ("on", Some("a:one")),
            ("remove-handler", Some("db:query")),
            ("remove-handler", Some("db:get")),
            ("remove-handler", Some("save")),
            ("on", Some("x:1")),
            ("on", Some("db:get")),
            ("on", Some("y:1")),
            // A parameter of another function, and a table not written in the file, stay
            // dynamic.
            ("handle", None),
            ("handle", None),
        ]
    );
    // Each keeps the loop's variable it was read through.
    assert_eq!(
        main.js.ipc[0].channel_expression.as_deref(),
        Some("channel")
    );
}

/// An assignment's declaration is looked for at most 256 scopes out: nested deeper, the name
/// is dynamic rather than followed without bound.
#[test]
fn a_choice_assigned_from_deep_inside_is_followed_a_bounded_way() {
    let nested = |depth: usize| {
        let mut text = String::from("const { ipcRenderer } = require(\"electron\");\nlet ch;\n");
        for i in 0..depth {
            text.push_str(&format!("f(() => {{ ch = \"c:{}\";\n", i % 2));
        }
        text.push_str("ipcRenderer.send(ch);\n");
        text.push_str(&"});\n".repeat(depth));
        facts("preload.js", &text)
    };
    let channels = |f: &FileFacts| -> Vec<Option<String>> {
        f.js.ipc.iter().map(|op| op.channel.clone()).collect()
    };
    assert_eq!(
        channels(&nested(20)),
        [Some("c:0".to_owned()), Some("c:1".to_owned())]
    );
    assert_eq!(channels(&nested(300)), [None]);
}

/// A channel chosen among strings (`@electron/remote` picks `REMOTE_BROWSER_CONSTRUCTOR` or
/// `…_FUNCTION_CALL` into a `let` before one `sendSync`) is one operation on each string,
/// marked as a choice; a name that may hold anything else stays dynamic, and so does a
/// parameter given a default, which held the argument before.
#[test]
fn a_channel_chosen_among_strings_is_one_operation_a_string() {
    let preload = facts(
        "preload.js",
        r#"const { ipcRenderer } = require("electron");
const PLAIN = "c:plain";
function call(construct) {
  let command;
  if (construct) { command = "c:construct"; } else { command = "c:call"; }
  return ipcRenderer.sendSync(command, 1);
}
function get() {
  const command = "c:get";
  return ipcRenderer.sendSync(command);
}
const pick = (flag) => ipcRenderer.invoke(flag ? "c:yes" : PLAIN);
function nested(flag) {
  var kind = "c:one";
  (() => { kind = "c:two"; })();
  ipcRenderer.send(kind);
}
function defaulted(channel) { if (!channel) channel = "c:default"; ipcRenderer.send(channel); }
for (let item of items) { item = "c:loop"; ipcRenderer.send(item); }
function grown() { let g = "c:a"; g += "!"; ipcRenderer.send(g); }
function mixed(x) { let m; m = "c:a"; m = x.name; ipcRenderer.send(m); }
function half(x) { ipcRenderer.send(x || "c:fallback"); }
"#,
    );
    let ops: Vec<(Option<&str>, bool)> = preload
        .js
        .ipc
        .iter()
        .map(|op| (op.channel.as_deref(), op.choice))
        .collect();
    assert_eq!(
        ops,
        [
            (Some("c:construct"), true),
            (Some("c:call"), true),
            (Some("c:get"), false),
            (Some("c:yes"), true),
            (Some("c:plain"), true),
            (Some("c:one"), true),
            (Some("c:two"), true),
            (None, false),
            (None, false),
            (None, false),
            (None, false),
            (None, false),
        ]
    );
    // Each keeps the expression it was read through.
    assert_eq!(
        preload.js.ipc[0].channel_expression.as_deref(),
        Some("command")
    );
    assert_eq!(
        preload.js.ipc[3].channel_expression.as_deref(),
        Some("flag ? \"c:yes\" : PLAIN")
    );
}

/// A window's options as real applications compose them: spreads of a helper's return
/// (declared after the call, returning a name bound inside it, as nativefier does), of a
/// module export called through TypeScript's `(0, m.f)(…)`, `Object.assign` of a constant,
/// an arrow's expression body, and preferences spread from a constant. A later part
/// replaces an earlier one's `webPreferences`, as in JavaScript; a source the walk cannot
/// read is listed as unresolved and leaves `webPreferences` unknown, never "missing".
#[test]
fn window_options_composed_from_spreads_helpers_and_object_assign() {
    let f = facts(
        "main.js",
        r#"const electron_1 = require("electron");
const path = require("path");
const helpers_1 = require("./helpers");
const SECURE = { contextIsolation: true, sandbox: true };
const DEFAULTS = { width: 800, webPreferences: { nodeIntegration: false, ...SECURE } };
function createMain(options) {
  const win = new electron_1.BrowserWindow({ show: false, ...defaultWindowOptions(options) });
  return win;
}
function defaultWindowOptions(options) {
  const extra = { ...options.browserwindowOptions };
  const result = {
    title: options.name,
    webPreferences: { preload: path.join(__dirname, "preload.js"), contextIsolation: false, sandbox: false },
    ...extra,
  };
  return result;
}
new electron_1.BrowserWindow({ ...(0, helpers_1.defaultWindowOptions)(opts), parent });
new electron_1.BrowserWindow(Object.assign({}, DEFAULTS, { height: 600 }));
const compact = () => ({ webPreferences: { ...SECURE, preload: path.join(__dirname, "compact.js") } });
new electron_1.BrowserWindow(compact());
new electron_1.BrowserWindow({ ...compact(), webPreferences: { sandbox: false } });
new electron_1.BrowserWindow({ webPreferences: { sandbox: false }, ...overrides });
new electron_1.BrowserWindow({ ...overrides });
new electron_1.BrowserWindow({ width: 1 });"#,
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 8);
    let pref = |i: usize, name: &str| {
        w[i].web_preferences
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let literal = |v: bool| Some(StaticValue::Literal(v.into()));
    let sources = |i: usize| -> Vec<(&str, &str)> {
        w[i].option_sources
            .iter()
            .map(|s| (s.expression.as_str(), s.resolution))
            .collect()
    };

    // The helper's return: its preload and preferences, and the spread it could not read.
    assert_eq!(w[0].options_status, "object-literal");
    assert_eq!(w[0].web_preferences_status, "object-literal");
    assert_eq!(
        w[0].preload.as_ref().map(|p| p.path.as_str()),
        Some("preload.js")
    );
    assert_eq!(pref(0, "contextIsolation"), literal(false));
    assert_eq!(pref(0, "sandbox"), literal(false));
    assert_eq!(
        sources(0),
        [
            ("defaultWindowOptions(options)", "function-return"),
            ("extra", "binding"),
            ("options.browserwindowOptions", "unresolved"),
        ]
    );
    // The same function called through a module namespace.
    assert_eq!(w[1].preload, w[0].preload);
    assert_eq!(sources(1)[0].1, "function-return");

    // `Object.assign({}, DEFAULTS, …)`: the constant's preferences, its own spread merged.
    assert_eq!(w[2].web_preferences_status, "object-literal");
    assert_eq!(pref(2, "nodeIntegration"), literal(false));
    assert_eq!(pref(2, "contextIsolation"), literal(true));
    assert_eq!(pref(2, "sandbox"), literal(true));
    assert!(
        w[2].option_sources
            .iter()
            .all(|s| s.resolution != "unresolved")
    );

    // The whole options are a call: an arrow's expression body.
    assert_eq!(w[3].options_status, "function-return");
    assert_eq!(
        w[3].preload.as_ref().map(|p| p.path.as_str()),
        Some("compact.js")
    );
    assert_eq!(pref(3, "sandbox"), literal(true));
    // A later `webPreferences` key replaces the spread's whole object.
    assert_eq!(w[4].preload, None);
    assert_eq!(w[4].web_preferences.len(), 1);
    assert_eq!(pref(4, "sandbox"), literal(false));

    // An unreadable spread after the preferences is listed; before nothing, it leaves them
    // unknown.
    assert_eq!(w[5].web_preferences_status, "object-literal");
    assert_eq!(sources(5), [("overrides", "unresolved")]);
    assert_eq!(w[6].web_preferences_status, "dynamic");
    assert_eq!(w[7].web_preferences_status, "missing");
    assert!(w[7].option_sources.is_empty());
}

/// A helper's return is read only when the file declares one function of that name and
/// all its returns read the same; otherwise the call stays unresolved.
#[test]
fn window_option_helpers_that_are_ambiguous_stay_unresolved() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
function twice() { return { webPreferences: { sandbox: true } }; }
function other() { function twice() { return { webPreferences: { sandbox: false } }; } }
function branches(dev) {
  if (dev) return { webPreferences: { webSecurity: false } };
  return { webPreferences: { webSecurity: true } };
}
new BrowserWindow(twice());
new BrowserWindow(branches(true));
new BrowserWindow(notDeclared());"#,
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 3);
    for window in w {
        assert_eq!(window.options_status, "dynamic");
        assert_eq!(window.web_preferences_status, "dynamic");
        assert!(window.web_preferences.is_empty());
        assert_eq!(window.option_sources.len(), 1);
        assert_eq!(window.option_sources[0].resolution, "unresolved");
    }
}

/// Optional calls are calls when they run: `win?.webContents.send(…)`, `ipcMain?.handle?.(…)`
/// and `window.api?.invoke(…)` are read like the plain calls, and so is a helper method
/// that forwards its channel through one.
#[test]
fn optional_calls_are_read_as_the_calls_they_make() {
    let f = facts(
        "main.js",
        r#"const { ipcMain, shell } = require("electron");
let mainWindow = null;
mainWindow?.webContents.send("progress", 1);
ipcMain?.handle?.("get-config", () => ({}));
shell?.openExternal("https://example.com/docs");
class Bus { on(channel, fn) { this.electron.ipcMain?.on(channel, fn); } }
const bus = new Bus();
bus.on("ready", () => {});"#,
    );
    let ops = ipc_ops(&f);
    assert!(
        ops.contains(&("main", "webcontents-send", Some("progress"))),
        "{ops:?}"
    );
    assert!(
        ops.contains(&("main", "handle", Some("get-config"))),
        "{ops:?}"
    );
    assert!(ops.contains(&("main", "on", Some("ready"))), "{ops:?}");
    let via: Vec<Option<&str>> =
        f.js.ipc
            .iter()
            .filter(|op| op.channel.as_deref() == Some("ready"))
            .map(|op| op.via.as_deref())
            .collect();
    assert_eq!(via, [Some("bus.on")]);
    let page = facts(
        "page.js",
        r#"window.api?.invoke("get-config"); const { ipcRenderer } = require("electron"); ipcRenderer?.send("saved");"#,
    );
    assert!(ipc_ops(&page).contains(&("renderer", "send", Some("saved"))));
    let calls: Vec<(&str, &[Option<String>])> = page
        .js
        .window_calls
        .iter()
        .map(|c| (c.name.as_str(), c.args.as_slice()))
        .collect();
    assert_eq!(
        calls,
        [("api.invoke", &[Some("get-config".to_owned())][..])]
    );
}

/// about-window's shape: options bound to `Object.assign({…}, extra || {})` before
/// `new BrowserWindow(options)`, and `ipcMain` reached through `electron.ipcMain ?? info.ipcMain`
/// as TypeScript compiles it. A parameter of the same name hides the options.
#[test]
fn options_bound_to_object_assign_and_ipc_main_through_a_fallback() {
    let f = facts(
        "index.js",
        r#"const electron_1 = require("electron");
function open(info) {
  const ipc = electron_1.ipcMain !== null && electron_1.ipcMain !== void 0 ? electron_1.ipcMain : info.ipcMain;
  const BrowserWindow = electron_1.BrowserWindow || info.BrowserWindow;
  const options = Object.assign({ width: 400, webPreferences: { nodeIntegration: true, contextIsolation: false } }, info.win_options || {});
  const window = new BrowserWindow(options);
  ipc.on("about-window:close-window", () => window.close());
}
function other(options) { new electron_1.BrowserWindow(options); }"#,
    );
    assert_eq!(
        ipc_ops(&f),
        [("main", "on", Some("about-window:close-window"))]
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].options_status, "object-literal");
    assert_eq!(w[0].web_preferences_status, "object-literal");
    assert!(
        w[0].web_preferences
            .contains(&("nodeIntegration".into(), StaticValue::Literal(true.into())))
    );
    let sources: Vec<(&str, &str)> = w[0]
        .option_sources
        .iter()
        .map(|s| (s.expression.as_str(), s.resolution))
        .collect();
    assert_eq!(
        sources,
        [
            (
                "{ width: 400, webPreferences: { nodeIntegration: true, contextIsolation: false } }",
                "object-literal"
            ),
            ("info.win_options || {}", "unresolved"),
        ]
    );
    assert_eq!(w[1].options_status, "dynamic");
    assert_eq!(w[1].web_preferences_status, "dynamic");
}

/// Options amended after they were bound, as electron-window and older apps write them:
/// `opts.webPreferences = Object.assign({ preload }, options.webPreferences)` and
/// `opts.webPreferences.<key> = value` count for a window constructed after them.
#[test]
fn window_options_amended_by_assignment() {
    let f = facts(
        "main.js",
        r#"const path = require("path");
const { BrowserWindow } = require("electron");
function create(options) {
  var opts = Object.assign({ show: false }, options);
  opts.webPreferences = Object.assign({ preload: path.join(__dirname, "renderer-preload.js") }, options.webPreferences);
  return new BrowserWindow(opts);
}
function second() {
  const options = { webPreferences: { contextIsolation: true } };
  options.webPreferences.sandbox = false;
  options.webPreferences.preload = path.join(__dirname, "second.js");
  new BrowserWindow(options);
}"#,
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 2);
    assert_eq!(
        w[0].preload.as_ref().map(|p| p.path.as_str()),
        Some("renderer-preload.js")
    );
    assert_eq!(w[0].web_preferences_status, "object-literal");
    assert!(
        w[0].web_preferences
            .iter()
            .any(|(k, v)| k.starts_with("[spread@")
                && *v == StaticValue::Dynamic("options.webPreferences".into()))
    );
    assert_eq!(
        w[1].preload.as_ref().map(|p| p.path.as_str()),
        Some("second.js")
    );
    let names: Vec<&str> = w[1]
        .web_preferences
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(names, ["contextIsolation", "preload", "sandbox"]);
    assert!(
        w[1].web_preferences
            .contains(&("sandbox".into(), StaticValue::Literal(false.into())))
    );
}

/// Hostile compositions stay bounded: a literal that spreads the one before it three times,
/// forty times over (3^40 parts if copied), and a function whose return spreads two
/// hundred calls of itself. Both windows are read, their options left unresolved past the
/// bounds.
#[test]
fn window_compositions_that_explode_stay_bounded() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
function grow() {
  const a0 = { webPreferences: { sandbox: true } };
  const a1 = { ...a0, ...a0, ...a0 };
  const a2 = { ...a1, ...a1, ...a1 };
  const a3 = { ...a2, ...a2, ...a2 };
  const a4 = { ...a3, ...a3, ...a3 };
  const a5 = { ...a4, ...a4, ...a4 };
  const a6 = { ...a5, ...a5, ...a5 };
  const a7 = { ...a6, ...a6, ...a6 };
  const a8 = { ...a7, ...a7, ...a7 };
  const a9 = { ...a8, ...a8, ...a8 };
  const a10 = { ...a9, ...a9, ...a9 };
  const a11 = { ...a10, ...a10, ...a10 };
  const a12 = { ...a11, ...a11, ...a11 };
  const a13 = { ...a12, ...a12, ...a12 };
  const a14 = { ...a13, ...a13, ...a13 };
  const a15 = { ...a14, ...a14, ...a14 };
  const a16 = { ...a15, ...a15, ...a15 };
  const a17 = { ...a16, ...a16, ...a16 };
  const a18 = { ...a17, ...a17, ...a17 };
  const a19 = { ...a18, ...a18, ...a18 };
  const a20 = { ...a19, ...a19, ...a19 };
  const a21 = { ...a20, ...a20, ...a20 };
  const a22 = { ...a21, ...a21, ...a21 };
  const a23 = { ...a22, ...a22, ...a22 };
  const a24 = { ...a23, ...a23, ...a23 };
  const a25 = { ...a24, ...a24, ...a24 };
  const a26 = { ...a25, ...a25, ...a25 };
  const a27 = { ...a26, ...a26, ...a26 };
  const a28 = { ...a27, ...a27, ...a27 };
  const a29 = { ...a28, ...a28, ...a28 };
  const a30 = { ...a29, ...a29, ...a29 };
  const a31 = { ...a30, ...a30, ...a30 };
  const a32 = { ...a31, ...a31, ...a31 };
  const a33 = { ...a32, ...a32, ...a32 };
  const a34 = { ...a33, ...a33, ...a33 };
  const a35 = { ...a34, ...a34, ...a34 };
  const a36 = { ...a35, ...a35, ...a35 };
  const a37 = { ...a36, ...a36, ...a36 };
  const a38 = { ...a37, ...a37, ...a37 };
  const a39 = { ...a38, ...a38, ...a38 };
  const a40 = { ...a39, ...a39, ...a39 };
  return a40;
}
function again() { return { ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again(), ...again() }; }
new BrowserWindow(grow());
new BrowserWindow(again());"#,
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].options_status, "function-return");
    assert!(
        w[0].option_sources
            .iter()
            .any(|s| s.resolution == "unresolved")
    );
    assert!(w[1].option_sources.len() <= 16);
    assert!(
        w[1].option_sources
            .iter()
            .any(|s| s.resolution == "unresolved")
    );
}

/// A `webPreferences` literal of twenty thousand keys is read with the first kept and the
/// rest counted; a name bound to either of two Electron exports
/// (`isMain ? electron.ipcMain : electron.ipcRenderer`) is bound to neither; and names read
/// through a local named as the module itself (`const electron = require("electron")`)
/// are bound.
#[test]
fn huge_preferences_are_counted_and_two_aliased_branches_bind_nothing() {
    let big = facts(
        "window.js",
        &format!(
            r#"const electron = require("electron");
new electron.BrowserWindow({{ webPreferences: {{ {} }} }});"#,
            (0..20_000)
                .map(|i| format!("k{i}: {i}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let w = &big.js.windows[0];
    assert_eq!(w.web_preferences.len(), 64);
    assert_eq!(
        w.web_preferences.len() as u64 + w.omitted_web_preferences,
        20_000
    );
    let f = facts(
        "main.js",
        r#"const electron = require("electron");
const ipc = process.type === "browser" ? electron.ipcMain : electron.ipcRenderer;
ipc.on("either", () => {});
const main = electron.ipcMain || fallback;
main.on("main-only", () => {});"#,
    );
    assert_eq!(ipc_ops(&f), [("main", "on", Some("main-only"))]);
    // Through a local named as the module itself, renamed or read as a member.
    let g = facts(
        "main.js",
        r#"const electron = require("electron");
const { ipcMain: m } = electron;
const r = electron.ipcRenderer;
m.handle("renamed", () => {});
r.send("member");"#,
    );
    assert_eq!(
        ipc_ops(&g),
        [
            ("main", "handle", Some("renamed")),
            ("renderer", "send", Some("member"))
        ]
    );
}

/// A file's exports as (name, kind, shapes as JSON text).
fn exports(facts: &FileFacts) -> Vec<(&str, &str, String)> {
    facts
        .js
        .export_shapes
        .iter()
        .map(|e| {
            (
                e.name.as_str(),
                e.kind,
                serde_json::to_string(&e.shapes).unwrap(),
            )
        })
        .collect()
}

#[test]
fn export_shapes_of_es_modules() {
    let f = facts(
        "src/user.js",
        r#"
        import { helper } from "./helper.js";
        const DEFAULT_ROLE = "viewer";
        export function getUser(id, options = {}) {
            if (!id) return null;
            if (options.full) {
                return { type: "user", id, name: `u${id}`, role: DEFAULT_ROLE, tags: ["a", 2] };
            }
            return { type: "stub", id };
        }
        export const isAdmin = (u) => u.role === "admin";
        export async function load() { const r = { ok: true }; return r; }
        const mutable = () => { const out = { a: 1 }; out.b = 2; return out; };
        export { mutable as build, helper };
        export { x as y } from "./other.js";
        export default class Service {}
        export const VERSION = 3;
        function maybe(flag) { if (flag) { return "yes"; } }
        export { maybe };
        "#,
    );
    assert_eq!(f.parse, ParseStatus::Complete);
    let found = exports(&f);
    let names: Vec<&str> = found.iter().map(|e| e.0).collect();
    assert_eq!(
        names,
        [
            "getUser", "isAdmin", "load", "build", "helper", "y", "default", "VERSION", "maybe"
        ]
    );
    let get_user = &f.js.export_shapes[0];
    assert_eq!((get_user.kind, get_user.arity), ("function", Some(1)));
    // Three returns in source order; the parameter `id` is passed through.
    assert_eq!(get_user.shapes.len(), 3);
    assert_eq!(get_user.shapes[0], serde_json::json!({"type": "null"}));
    let full = &get_user.shapes[1];
    assert_eq!(full["fields"]["type"]["value"], "user");
    assert_eq!(
        full["fields"]["id"],
        serde_json::json!({"type": "parameter", "position": 0})
    );
    assert_eq!(full["fields"]["name"]["type"], "string");
    assert_eq!(full["fields"]["role"]["value"], "viewer");
    assert_eq!(full["fields"]["tags"]["elements"][1]["value"], "2");
    assert_eq!(full["complete"], true);
    assert_eq!(found[1].2, r#"[{"type":"boolean"}]"#);
    let load = &f.js.export_shapes[2];
    assert!(load.is_async);
    assert_eq!(load.shapes[0]["fields"]["ok"]["value"], true);
    assert_eq!(load.shapes[0]["complete"], true);
    // `out` is changed after it is made: other keys are possible.
    assert_eq!(f.js.export_shapes[3].shapes[0]["complete"], false);
    assert_eq!(f.js.export_shapes[4].kind, "re-export");
    assert_eq!(f.js.export_shapes[4].from.as_deref(), Some("./helper.js"));
    assert_eq!(f.js.export_shapes[5].imported.as_deref(), Some("x"));
    assert_eq!(f.js.export_shapes[6].kind, "class");
    assert_eq!(found[7].2, r#"[{"type":"number","value":"3"}]"#);
    // The body may end without a return.
    assert_eq!(
        found[8].2,
        r#"[{"type":"string","value":"yes"},{"type":"undefined"}]"#
    );
}

#[test]
fn export_shapes_of_commonjs_modules() {
    let f = facts(
        "lib/index.js",
        r#"
        "use strict";
        exports.parse = exports.format = void 0;
        function format(v) { return v ? { kind: "a", v } : { kind: "b" }; }
        exports.format = format;
        exports.parse = (s) => JSON.parse(s);
        module.exports.limit = 10;
        Object.defineProperty(exports, "__esModule", { value: true });
        var util_1 = require("./util");
        Object.defineProperty(exports, "helper", { enumerable: true, get: function () { return util_1.helper; } });
        "#,
    );
    let found = exports(&f);
    assert_eq!(
        found,
        [
            ("format", "function", r#"[{"complete":true,"fields":{"kind":{"type":"string","value":"a"},"v":{"position":0,"type":"parameter"}},"type":"object"},{"complete":true,"fields":{"kind":{"type":"string","value":"b"}},"type":"object"}]"#.to_owned()),
            ("parse", "function", r#"[{"callee":"JSON.parse","reason":"call","type":"unknown"}]"#.to_owned()),
            ("limit", "value", r#"[{"type":"number","value":"10"}]"#.to_owned()),
            ("helper", "re-export", "[]".to_owned()),
        ]
    );
    let helper = &f.js.export_shapes[3];
    assert_eq!(
        (helper.from.as_deref(), helper.imported.as_deref()),
        (Some("./util"), Some("helper"))
    );
    let whole = facts(
        "lib/api.js",
        "module.exports = { open() {}, mode: 'fast', ...extra };",
    );
    assert_eq!(
        exports(&whole),
        [
            ("open", "function", r#"[{"type":"undefined"}]"#.to_owned()),
            (
                "mode",
                "value",
                r#"[{"type":"string","value":"fast"}]"#.to_owned()
            ),
        ]
    );
    let single = facts(
        "lib/fn.js",
        "module.exports = function (a, b, {c}) { if (a) return c; b = b + 1; return b; };",
    );
    assert_eq!(exports(&single)[0].0, "default");
    assert_eq!(single.js.export_shapes[0].arity, Some(3));
    // A destructured parameter and a reassigned one are not passed through as written.
    assert_eq!(
        exports(&single)[0].2,
        r#"[{"name":"c","reason":"binding","type":"unknown"},{"name":"b","reason":"binding","type":"unknown"}]"#
    );
}

#[test]
fn export_shapes_skip_signatures_without_bodies() {
    let f = facts(
        "src/api.ts",
        r#"
        export function parse(a: string): string;
        export function parse(a: number): number;
        export function parse(a: any): any { return { parsed: a }; }
        export declare function ambient(): void;
        export type Shape = { a: string };
        export interface Api { f(): void }
        export const answer: number = 42;
        "#,
    );
    assert_eq!(
        exports(&f),
        [
            ("parse", "function", r#"[{"complete":true,"fields":{"parsed":{"position":0,"type":"parameter"}},"type":"object"}]"#.to_owned()),
            ("answer", "value", r#"[{"type":"number","value":"42"}]"#.to_owned()),
        ]
    );
}

#[test]
fn export_shapes_of_names_bound_in_a_cycle_stop() {
    let f = facts(
        "lib/cycle.js",
        "var a = b; var b = a; export { a }; export const c = a; module.exports = c;",
    );
    let found = exports(&f);
    let names: Vec<&str> = found.iter().map(|e| e.0).collect();
    assert_eq!(names, ["a", "c", "default"]);
    assert!(
        found
            .iter()
            .all(|(_, _, shapes)| shapes.contains("unknown")),
        "{found:?}"
    );
}

#[test]
fn export_shapes_of_module_factories() {
    let f = facts(
        "dist/main.js",
        r#"(self.webpackChunkapp = self.webpackChunkapp || []).push([[1], {
            10: (e, t, n) => { "use strict"; n.d(t, { get: () => o, VERSION: () => v }); const v = "2"; function o(id) { return { id, ok: true }; } },
            11: (e, t, n) => { "use strict"; n.d(t, ["A", 0, function (x) { return [x]; }, "B", () => r]); var r = n(10); },
            12: function (e, t, n) { n.d(t, "legacy", function () { return l; }); var l = 4; },
            13: (e) => { e.exports = { double: (x) => 2 * x, name: "util" }; }
        }]);"#,
    );
    let modules = &f.js.bundles[0].modules;
    let shapes = |key: u64| -> Vec<(String, String)> {
        let module = modules
            .iter()
            .find(|m| m.key == ModuleKey::Number(key))
            .unwrap();
        module
            .export_shapes
            .iter()
            .map(|e| (e.name.clone(), serde_json::to_string(&e.shapes).unwrap()))
            .collect()
    };
    assert_eq!(
        shapes(10),
        [
            ("get".to_owned(), r#"[{"complete":true,"fields":{"id":{"position":0,"type":"parameter"},"ok":{"type":"boolean","value":true}},"type":"object"}]"#.to_owned()),
            ("VERSION".to_owned(), r#"[{"type":"string","value":"2"}]"#.to_owned()),
        ]
    );
    assert_eq!(
        shapes(11),
        [
            ("A".to_owned(), r#"[{"complete":true,"elements":[{"position":0,"type":"parameter"}],"type":"array"}]"#.to_owned()),
            // A module the factory requires, by the bundle's key.
            ("B".to_owned(), "[]".to_owned()),
        ]
    );
    let b = &modules
        .iter()
        .find(|m| m.key == ModuleKey::Number(11))
        .unwrap()
        .export_shapes[1];
    assert_eq!((b.kind, b.from.as_deref()), ("re-export", Some("10")));
    assert_eq!(
        shapes(12),
        [(
            "legacy".to_owned(),
            r#"[{"type":"number","value":"4"}]"#.to_owned()
        )]
    );
    assert_eq!(
        shapes(13),
        [
            ("double".to_owned(), r#"[{"type":"number"}]"#.to_owned()),
            (
                "name".to_owned(),
                r#"[{"type":"string","value":"util"}]"#.to_owned()
            ),
        ]
    );
}

mod export_shape_properties {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::facts;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["a", "b", "c", "value", "x1"]).prop_map(str::to_owned)
    }

    fn expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("1".to_owned()),
            Just("-2.5".to_owned()),
            Just("'s'".to_owned()),
            Just("`t${a}`".to_owned()),
            Just("null".to_owned()),
            Just("undefined".to_owned()),
            Just("true".to_owned()),
            Just("/r/g".to_owned()),
            Just("this".to_owned()),
            name(),
        ];
        leaf.prop_recursive(6, 64, 4, |inner| {
            prop_oneof![
                (name(), inner.clone(), inner.clone())
                    .prop_map(|(k, v, w)| format!("{{{k}: {v}, ...{w}, [{k}]: 1}}")),
                (name(), inner.clone()).prop_map(|(k, v)| format!("{{{k}, m() {{}}, {k}: {v}}}")),
                (inner.clone(), inner.clone()).prop_map(|(v, w)| format!("[{v}, , ...{w}]")),
                (inner.clone(), inner.clone()).prop_map(|(v, w)| format!("(c ? {v} : {w})")),
                (inner.clone(), inner.clone()).prop_map(|(v, w)| format!("({v} + {w})")),
                inner.clone().prop_map(|v| format!("f({v})")),
                inner.clone().prop_map(|v| format!("(async () => ({v}))")),
                inner.clone().prop_map(|v| format!("(await {v})")),
                name().prop_map(|n| format!("new {n}()")),
                (name(), inner).prop_map(|(n, v)| format!("({n} = {v})")),
            ]
        })
    }

    fn statement() -> impl Strategy<Value = String> {
        prop_oneof![
            (name(), expr(), expr()).prop_map(|(n, v, w)| format!(
                "export async function {n}(p, q = 1) {{ if (p) return {v}; {n}.k = 1; return {w}; }}"
            )),
            (name(), expr()).prop_map(|(n, v)| format!("export const {n} = {v};")),
            (name(), expr()).prop_map(|(n, v)| format!("var {n} = {v};")),
            (name(), name()).prop_map(|(n, m)| format!("export {{ {n} as {m} }};")),
            name().prop_map(|n| format!("export {{ {n} as default }};")),
            (name(), name()).prop_map(|(n, m)| format!("export {{ {n} as {m} }} from './m';")),
            expr().prop_map(|v| format!("module.exports = {v};")),
            (name(), expr()).prop_map(|(n, v)| format!("exports.{n} = {v};")),
            (name(), expr()).prop_map(|(n, v)| format!(
                "Object.defineProperty(exports, '{n}', {{ get: async () => ({v}) }});"
            )),
        ]
    }

    /// The deepest nesting of a JSON value.
    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn any_module_reads_within_bounds_and_the_same_twice(
            statements in prop::collection::vec(statement(), 1..12),
        ) {
            let text = statements.join("\n");
            let first = facts("src/any.mjs", &text);
            // The generator writes only valid modules: one that did not parse would say nothing.
            prop_assert!(first.parse == rea_parse::ParseStatus::Complete, "{}", text);
            let again = facts("src/any.mjs", &text);
            prop_assert_eq!(&first.js.export_shapes, &again.js.export_shapes);
            let exports = &first.js.export_shapes;
            prop_assert!(exports.len() <= rea_parse::MAX_FILE_EXPORTS);
            let mut names: Vec<&str> = exports.iter().map(|e| e.name.as_str()).collect();
            names.sort_unstable();
            let count = names.len();
            names.dedup();
            prop_assert_eq!(names.len(), count, "one export per name: {}", text);
            for export in exports {
                prop_assert!(export.shapes.len() <= 16);
                for shape in &export.shapes {
                    prop_assert!(shape["type"].is_string(), "{}", shape);
                    // Depth 8 of values, each at most two JSON levels (`fields`, a key).
                    prop_assert!(depth(shape) <= 2 * 10, "{}", shape);
                }
            }
        }
    }
}

#[test]
fn a_flow_file_is_read_with_typescript_syntax_and_says_so() {
    // As global-agent and React Native ship their sources: Flow type imports and annotations.
    let f = facts(
        "src/classes/Agent.js",
        r#"// @flow

import {serializeError} from 'serialize-error';
import type {AgentType, ProtocolType} from '../types';
import Logger from '../Logger';

const log = Logger.child({namespace: 'Agent'});

class Agent {
  protocol: ProtocolType;
  constructor (isProxyConfigured: () => boolean, fetch: (url: string) => Promise<string>) {
    this.protocol = require('http').globalAgent.protocol;
  }
}

export default Agent;"#,
    );
    assert_eq!(f.parse, ParseStatus::Partial, "{:?}", f.diagnostics);
    assert!(
        f.diagnostics[0].starts_with("a Flow file, read with TypeScript syntax"),
        "{:?}",
        f.diagnostics
    );
    let mut specs: Vec<&str> =
        f.js.references
            .iter()
            .filter_map(|r| r.specifier.as_deref())
            .collect();
    specs.sort();
    // A type import is erased when the file is compiled, as in TypeScript: no reference.
    assert_eq!(specs, ["../Logger", "http", "serialize-error"]);
    // Without the pragma the same text is not guessed at: it fails as JavaScript.
    let f = facts(
        "src/classes/Agent.js",
        "import type {A} from '../types';\nclass Agent { protocol: A; }",
    );
    assert_eq!(f.parse, ParseStatus::Failed, "{:?}", f.diagnostics);
    // Flow-only syntax fails both ways, and the diagnostics say what TypeScript met too.
    let f = facts(
        "src/bind.js",
        "// @flow\nexport default (method: Function) => (...args: *) => method(...args);",
    );
    assert_eq!(f.parse, ParseStatus::Failed, "{:?}", f.diagnostics);
    assert!(
        f.diagnostics
            .last()
            .is_some_and(|d| d.starts_with("a Flow file; as TypeScript: 2:")),
        "{:?}",
        f.diagnostics
    );
}

/// A require of a path built from the file's own directory names its module as a relative
/// specifier would; other anchors (the app root), paths built from unknown parts and add-ons
/// (read as add-on requests) are not specifiers.
#[test]
fn requires_of_paths_built_from_the_files_directory_are_relative_specifiers() {
    let f = facts(
        "main.js",
        r#"const path = require("path");
        const { app } = require("electron");
        require(path.join(__dirname, "lib/a.js"));
        require(path.resolve(__dirname, "..", "shared", "b"));
        const dir = path.join(__dirname, "handlers");
        require(path.join(dir, "c.js"));
        require(path.join(app.getAppPath(), "d.js"));
        require(path.join(__dirname, name));
        require(path.join(__dirname, "build/Release/e.node"));"#,
    );
    let requires: Vec<(Option<&str>, Option<&str>)> =
        f.js.references
            .iter()
            .filter(|r| r.kind == "require")
            .map(|r| (r.specifier.as_deref(), r.expression.as_deref()))
            .collect();
    assert!(requires.contains(&(
        Some("./lib/a.js"),
        Some(r#"path.join(__dirname, "lib/a.js")"#)
    )));
    assert!(requires.iter().any(|r| r.0 == Some("../shared/b")));
    assert!(requires.iter().any(|r| r.0 == Some("./handlers/c.js")));
    for dynamic in [
        r#"path.join(app.getAppPath(), "d.js")"#,
        "path.join(__dirname, name)",
        r#"path.join(__dirname, "build/Release/e.node")"#,
    ] {
        assert!(
            requires.contains(&(None, Some(dynamic))),
            "{dynamic}: {requires:?}"
        );
    }
    assert_eq!(f.js.native.len(), 1); // Of those, a path with an unknown last part in the file's own directory names it.
    let directories: Vec<(&str, &str)> =
        f.js.references
            .iter()
            .filter_map(|r| Some((r.expression.as_deref()?, r.directory.as_deref()?)))
            .collect();
    assert_eq!(directories, [("path.join(__dirname, name)", ".")]);
}

/// A require of a path whose last part is known only at run time (a directory's listing)
/// keeps the static directory it lies in, relative to the file's own; the app root and an
/// unknown directory give none.
/// The directory each require computed at run time lies in, where one is known.
fn computed_require_directories(facts: &FileFacts) -> Vec<Option<&str>> {
    facts
        .js
        .references
        .iter()
        .filter(|r| r.kind == "require" && r.specifier.is_none())
        .map(|r| r.directory.as_deref())
        .collect()
}

#[test]
fn requires_of_a_directorys_listing_keep_the_directory() {
    let f = facts(
        "src/main.js",
        r#"const path = require("path");
        const fs = require("fs");
        const { app } = require("electron");
        const plugins = path.join(__dirname, "plugins");
        fs.readdirSync(plugins).forEach((f) => require(path.join(plugins, f)));
        for (const f of fs.readdirSync(path.join(__dirname, "..", "ipc"))) require(path.resolve(__dirname, "..", "ipc", f));
        list.forEach((f) => require(__dirname + "/handlers/" + f));
        list.forEach((f) => require(path.join(app.getAppPath(), f)));
        list.forEach((f) => require(path.join(somewhere, f)));"#,
    );
    let directories = computed_require_directories(&f);
    assert_eq!(
        directories,
        [
            Some("./plugins"),
            Some("../ipc"),
            Some("./handlers"),
            None,
            None
        ]
    );
}

#[test]
fn requires_of_a_globs_listing_keep_the_directory_the_pattern_starts_in() {
    // electron-api-demos loads its demos so; the rest are the other common glob packages.
    let f = facts(
        "main.js",
        r#"const path = require("path");
        const glob = require("glob");
        const fg = require("fast-glob");
        const { globSync } = require("glob");
        function loadDemos() {
          const files = glob.sync(path.join(__dirname, "main-process/**/*.js"));
          files.forEach((file) => { require(file); });
        }
        fg.sync(path.join(__dirname, "../plugins/*/index.js")).map(function (p) { return require(p); });
        for (const h of globSync(`${__dirname}/ipc/*.js`)) require(h);
        globSync(path.join(__dirname, "plugins/*.js")).forEach(require);
        glob.sync("relative-to-cwd/*.js").forEach((f) => require(f));
        files.forEach((each) => require(each));
        glob.sync(path.join(__dirname, "x/*.js")).forEach((file) => { const other = file + ".bak"; require(other); });"#,
    );
    let directories = computed_require_directories(&f);
    assert_eq!(
        directories,
        [
            Some("./main-process"),
            Some("../plugins"),
            Some("./ipc"),
            Some("./plugins"),
            None, // a pattern relative to the working directory
            None, // `files` of another scope is no listing here
            None, // not the listing's item
        ]
    );
}

/// Rolldown's minifier writes a wrapper used once where it is used: a helper bound once is
/// written where it wraps its module, `((e, t) => () => …)((e, t) => {…})()`, and a wrapper
/// required once where it is required, `c(o((e, t) => {…})())`. Each is a module keyed by its
/// offset, and what the module exports is read through the name bound to it. A function of
/// another shape called the same way wraps nothing.
#[test]
fn wrappers_written_where_they_are_used_are_modules() {
    let helper = "(e,t)=>()=>(t||(e((t={exports:{}}).exports,t,t.exports),e=null),t.exports)";
    let f = facts(
        "index.js",
        &format!("({helper})((e,t)=>{{t.exports={{a:1}}}})();"),
    );
    assert_eq!(f.js.bundles.len(), 1, "{:?}", f.js.bundles);
    let bundle = &f.js.bundles[0];
    assert_eq!(
        (bundle.bundler, bundle.shape),
        ("rolldown", "esbuild-wrapper")
    );
    let keys: Vec<String> = bundle.modules.iter().map(|m| m.key.text()).collect();
    assert_eq!(keys, ["commonjs@0"]);

    let bound = format!(
        r#"let l=require("electron");var o={helper},c=(n)=>n;
var d=c(o(((e,t)=>{{t.exports={{channel:`settings:get`}}}}))());
l.ipcMain.handle(d.default.channel,()=>1);"#
    );
    let f = facts("main.js", &bound);
    let modules: Vec<String> =
        f.js.bundles
            .iter()
            .flat_map(|b| b.modules.iter().map(|m| m.key.text()))
            .collect();
    let offset = bound.find("o(((e").unwrap();
    assert_eq!(modules, [format!("commonjs@{offset}")]);
    let channels: Vec<Option<&str>> = f.js.ipc.iter().map(|op| op.channel.as_deref()).collect();
    assert_eq!(channels, [Some("settings:get")]);

    let other = facts(
        "other.js",
        "var run=(e,t)=>()=>e(t);run((e,t)=>{t.exports={a:1}})();",
    );
    assert!(other.js.bundles.is_empty(), "{:?}", other.js.bundles);
}

/// `@electron/remote`'s main side, set up and enabled for a page's web contents (required,
/// imported, or called on its `require` in place), and a module's member called on its
/// `require` in place (`require("child_process").exec`). The renderer side of
/// `@electron/remote`, and a local module's `exec`, are neither.
#[test]
fn remote_module_calls_and_members_of_a_require_in_place() {
    let f = facts(
        "main.js",
        r#"const { app, BrowserWindow } = require("electron");
require("@electron/remote/main").initialize();
const remoteMain = require("@electron/remote/main");
const win = new BrowserWindow({});
remoteMain.enable(win.webContents);
require("@electron/remote").getCurrentWindow();
require("child_process").exec("ls -la");
require("./local").exec("not a process");"#,
    );
    let processes: Vec<(&str, &str, Option<&str>)> =
        f.js.processes
            .iter()
            .map(|p| (p.kind, p.api.as_str(), p.expression.as_deref()))
            .collect();
    assert_eq!(
        processes,
        [
            ("remote-module", "@electron/remote/main.initialize", None),
            (
                "remote-module",
                "@electron/remote/main.enable",
                Some("win.webContents")
            ),
            ("child-process", "child_process.exec", None),
        ]
    );
    let imported = facts(
        "main.mjs",
        r#"import { initialize, enable as allow } from "@electron/remote/main";
initialize();
allow(view.webContents);"#,
    );
    let apis: Vec<&str> = imported
        .js
        .processes
        .iter()
        .map(|p| p.api.as_str())
        .collect();
    assert_eq!(
        apis,
        [
            "@electron/remote/main.initialize",
            "@electron/remote/main.enable"
        ]
    );
}

/// Code run in a page is a process boundary of kind `execute-javascript`, with the code as
/// written: static when it is a string literal, and the scripts of an isolated world.
#[test]
fn code_run_in_pages_is_kept_as_written() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow, webFrame } = require("electron");
const win = new BrowserWindow();
win.webContents.executeJavaScript("document.title");
win.webContents.executeJavaScript(`window.init(${JSON.stringify(config)})`, true);
win.webContents.executeJavaScriptInIsolatedWorld(999, [{ code: "1 + 1" }]);
webFrame.executeJavaScript(script);"#,
    );
    let code: Vec<(&str, &str, bool)> =
        f.js.processes
            .iter()
            .filter(|p| p.kind == "execute-javascript")
            .map(|p| {
                (
                    p.api.as_str(),
                    p.expression.as_deref().unwrap(),
                    p.static_target,
                )
            })
            .collect();
    assert_eq!(
        code,
        [
            (
                "win.webContents.executeJavaScript",
                r#""document.title""#,
                true
            ),
            (
                "win.webContents.executeJavaScript",
                "`window.init(${JSON.stringify(config)})`",
                false
            ),
            (
                "win.webContents.executeJavaScriptInIsolatedWorld",
                r#"[{ code: "1 + 1" }]"#,
                false
            ),
            ("webFrame.executeJavaScript", "script", false),
        ]
    );
}

/// Every call that registers a URL scheme with Electron is kept: a custom scheme served with a
/// handler of the application's own as a served scheme, and the rest as registrations, with
/// the privileges granted (minified `!0` too, never a `false` one), the system's deep links, a
/// web scheme intercepted, a forwarded one, and one the code does not write.
#[test]
fn calls_that_register_url_schemes_are_kept_with_their_privileges() {
    let f = facts(
        "main.js",
        r#"const { app, protocol, session } = require("electron");
const SCHEME = "App";
protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: !0, secure: true, bypassCSP: false, corsEnabled: !1 } },
  { scheme: "media", privileges: { stream: true } },
  dynamicEntry,
]);
protocol.registerStandardSchemes(["old", scheme()]);
app.setAsDefaultProtocolClient("deep-link");
protocol.handle(SCHEME, (req) => new Response(""));
session.defaultSession.protocol.interceptFileProtocol("file", (req, cb) => cb({}));
protocol.registerHttpProtocol("proxy", (req, cb) => cb({ url: "https://example.invalid/" }));
protocol.handle(process.env.SCHEME, (req) => new Response(""));
protocol.registerSchemesAsPrivileged(schemes);"#,
    );
    let served: Vec<(&str, &str)> =
        f.js.served_schemes
            .iter()
            .map(|s| (s.scheme.as_str(), s.api))
            .collect();
    assert_eq!(served, [("app", "handle")]);
    let registered: Vec<(&str, Option<&str>, Vec<&str>)> =
        f.js.scheme_registrations
            .iter()
            .map(|r| {
                (
                    r.api,
                    r.scheme.as_deref(),
                    r.privileges.iter().map(String::as_str).collect(),
                )
            })
            .collect();
    assert_eq!(
        registered,
        [
            (
                "registerSchemesAsPrivileged",
                Some("app"),
                vec!["secure", "standard"]
            ),
            ("registerSchemesAsPrivileged", Some("media"), vec!["stream"]),
            ("registerSchemesAsPrivileged", None, vec![]),
            ("registerStandardSchemes", Some("old"), vec!["standard"]),
            ("registerStandardSchemes", None, vec!["standard"]),
            ("setAsDefaultProtocolClient", Some("deep-link"), vec![]),
            ("interceptFileProtocol", Some("file"), vec![]),
            ("registerHttpProtocol", Some("proxy"), vec![]),
            ("handle", None, vec![]),
            ("registerSchemesAsPrivileged", None, vec![]),
        ]
    );
}

/// Each scheme a file serves, with the directories its handler joins the request's path under.
fn served_roots(f: &FileFacts) -> Vec<(&str, Vec<&str>)> {
    f.js.served_schemes
        .iter()
        .map(|s| {
            (
                s.scheme.as_str(),
                s.roots.iter().map(|r| r.path.as_str()).collect(),
            )
        })
        .collect()
}

/// Modules a file re-exports whole, as ES modules write it and as TypeScript, tslib, esbuild
/// and Babel compile it to CommonJS; a re-export of one name, a plain call and a namespace
/// object are none.
#[test]
fn modules_a_file_re_exports_whole_are_listed_in_order() {
    let esm = facts(
        "shared/index.js",
        r#"export * from "./channels";
export * as paths from "./paths";
export { GET as FETCH } from "./channels";
export * from "./windows";
export * from "./channels";"#,
    );
    assert_eq!(esm.js.star_exports, ["./channels", "./windows"]);
    let commonjs = facts(
        "shared/index.js",
        r#""use strict";
var __exportStar = (this && this.__exportStar) || function (m, exports) {};
Object.defineProperty(exports, "__esModule", { value: true });
__exportStar(require("./tsc"), exports);
tslib_1.__exportStar(require("./tslib"), exports);
__reExport(src_exports, require("./esbuild"), module.exports);
var _babel = require("./babel");
Object.keys(_babel).forEach(function (key) {
  if (key === "default" || key === "__esModule") return;
  exports[key] = _babel[key];
});
helper(require("./other"), exports);
Object.keys(options).forEach((key) => {});
exports.one = require("./one").one;"#,
    );
    assert_eq!(
        commonjs.js.star_exports,
        ["./tsc", "./tslib", "./esbuild", "./babel"]
    );
}

/// A function that hands its parameter to a protocol method as the scheme serves the scheme
/// each call passes, under the directories its handler joins: vue-cli-plugin-electron-builder's
/// `createProtocol` as webpack minifies it into the main process (its protocol object a
/// parameter's fallback), a class's method, and a scheme named by a constant (as a direct call's
/// may be too). A call passing
/// a web scheme, or no string, serves nothing; the protocol call inside the function serves
/// nothing of its own.
#[test]
fn functions_that_register_a_scheme_serve_the_scheme_each_call_passes() {
    let f = facts(
        "background.js",
        r#"const o = require("electron"), r = require("path"), t = require("fs");
const n = (e, n) => {
  (n || o.protocol).registerBufferProtocol(e, (o, n) => {
    let a = new URL(o.url).pathname;
    (0, t.readFile)(r.join(__dirname, a), (o, t) => n({ data: t }));
  });
};
class Server {
  serve(scheme) { o.protocol.handle(scheme, (req) => o.net.fetch(r.join(__dirname, "../web", new URL(req.url).pathname))); }
}
const SCHEME = "bundle";
n("app");
new Server().serve("ui");
Server.prototype.serve(SCHEME);
n("https");
n(process.env.SCHEME);
"#,
    );
    let served: Vec<(&str, &str, Vec<&str>)> =
        f.js.served_schemes
            .iter()
            .map(|s| {
                (
                    s.scheme.as_str(),
                    s.api,
                    s.roots.iter().map(|r| r.path.as_str()).collect(),
                )
            })
            .collect();
    assert_eq!(served, [("app", "registerBufferProtocol", vec![""])]);
    let s = facts(
        "main.js",
        r#"const { protocol } = require("electron");
const path = require("path");
class Server {
  serve(scheme) { protocol.handle(scheme, (req) => fetch(path.join(__dirname, "../web", new URL(req.url).pathname))); }
}
const SCHEME = "bundle";
const server = new Server();
server.serve("ui");
server.serve(SCHEME);
const DIRECT = "direct";
protocol.registerFileProtocol(DIRECT, (request, callback) => callback({}));
"#,
    );
    let served = served_roots(&s);
    assert_eq!(
        served,
        [
            ("ui", vec!["../web"]),
            ("bundle", vec!["../web"]),
            ("direct", vec![])
        ]
    );
}

/// The directories a protocol handler written in the call joins the request's path under:
/// beside the file, or under the application's root, also in a function declared under the
/// name the call passes (in its nested functions too); a name no function of the file is
/// declared under, or a handler that joins only static paths, gives none.
#[test]
fn protocol_handlers_name_the_directories_they_serve_from() {
    let f = facts(
        "main/index.js",
        r#"const { app, protocol } = require("electron");
const path = require("path");
protocol.handle("app", (req) => fetchFile(path.join(__dirname, "../renderer", new URL(req.url).pathname)));
protocol.registerFileProtocol("ui", function (request, callback) {
  callback({ path: path.resolve(app.getAppPath(), "out/ui", request.url.slice(5)) });
});
protocol.handle("named", handler);
protocol.handle("fixed", () => serve(path.join(__dirname, "index.html")));
protocol.handle("declared", serveFiles);
async function serveFiles(request) {
  const { pathname } = new URL(request.url);
  return new Promise((resolve) => fs.readFile(path.join(__dirname, "..", "site", pathname), (e, d) => resolve(d)));
}
function unrelated(handler) { return path.join(__dirname, "elsewhere", handler); }"#,
    );
    let roots = served_roots(&f);
    assert_eq!(
        roots,
        [
            ("app", vec!["../renderer"]),
            ("ui", vec!["/out/ui"]),
            ("named", vec![]),
            ("fixed", vec![]),
            ("declared", vec!["../site"]),
        ]
    );
}

#[test]
fn an_enum_rollup_exports_in_commonjs_is_one_exported_constant() {
    use rea_parse::Constant::{Object, Str};
    // Rollup's CommonJS output of a TypeScript enum (electron-redux's `IPCEvents`): the enum
    // starts from the `{}` it assigns to the export, which is no constant of its own.
    let f = facts(
        "chunk.js",
        r#"'use strict';
exports.IPCEvents = void 0;
(function (IPCEvents) {
  IPCEvents["INIT_STATE"] = "electron-redux.INIT_STATE";
  IPCEvents["ACTION"] = "electron-redux.ACTION";
})(exports.IPCEvents || (exports.IPCEvents = {}));
exports.EMPTY = {};
"#,
    );
    assert_eq!(
        f.js.exported_constants,
        [(
            "IPCEvents".to_owned(),
            Object(vec![
                (
                    "INIT_STATE".to_owned(),
                    Str("electron-redux.INIT_STATE".to_owned())
                ),
                ("ACTION".to_owned(), Str("electron-redux.ACTION".to_owned())),
            ])
        )]
    );
}

#[test]
fn an_update_configuration_names_its_provider_and_never_keeps_a_credential() {
    use rea_parse::{
        ParseStatus,
        UpdateValue::{List, Text},
    };
    // As electron-builder writes it for a private GitHub repository and Windows signing.
    let f = facts(
        "resources/app-update.yml",
        "owner: acme\nrepo: desk\nprovider: github\nprivate: true\ntoken: ghp_abcdef0123456789\n\
         publisherName:\n  - ACME Corp\n  - ACME Inc\nupdaterCacheDirName: desk-updater\n",
    );
    assert_eq!(f.parse, ParseStatus::Complete);
    let config = f.update_config.unwrap();
    let text = |s: &str| Text(s.to_owned());
    assert_eq!(
        config.fields,
        [
            ("owner".to_owned(), text("acme")),
            ("repo".to_owned(), text("desk")),
            ("provider".to_owned(), text("github")),
            ("private".to_owned(), text("true")),
            ("token".to_owned(), text("[REDACTED]")),
            (
                "publisherName".to_owned(),
                List(vec!["ACME Corp".to_owned(), "ACME Inc".to_owned()])
            ),
            ("updaterCacheDirName".to_owned(), text("desk-updater")),
        ]
    );
    assert_eq!(config.credential_keys, ["token"]);
    assert_eq!(config.omitted, 0);
    // A generic server: its URL is redacted as endpoints are; a nested mapping and an alias
    // are left out, never expanded.
    let generic = facts(
        "dev-app-update.yml",
        "provider: generic\nurl: https://user:pw@updates.example.invalid/desk?key=1#x\n\
         requestHeaders:\n  Authorization: Bearer x\nbase: &b stable\nchannel: *b\n",
    );
    let config = generic.update_config.unwrap();
    assert_eq!(
        config.fields,
        [
            ("provider".to_owned(), text("generic")),
            (
                "url".to_owned(),
                text("https://updates.example.invalid/desk?key=%5BREDACTED%5D")
            ),
            ("base".to_owned(), text("stable")),
        ]
    );
    assert_eq!(config.omitted, 2);
    // Bounded: many keys keep the first 64; aliases of aliases are never expanded.
    let many: String = (0..30_000).map(|i| format!("k{i}: v\n")).collect();
    let config = facts("app-update.yml", &many).update_config.unwrap();
    assert_eq!(config.fields.len(), 64);
    assert!(config.omitted > 0);
    let laughs = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n\
                  c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n";
    let config = facts("app-update.yml", laughs).update_config.unwrap();
    assert_eq!(config.fields.len(), 1);
    assert_eq!(config.omitted, 3);
    // Not a mapping, and not YAML: a parse failure with its diagnostic.
    for bad in ["- a\n- b\n", "key: [unclosed\n", ""] {
        let f = facts("app-update.yml", bad);
        assert_eq!(f.parse, ParseStatus::Failed, "{bad:?}");
        assert!(f.update_config.is_none());
        assert_eq!(
            f.diagnostics,
            ["not YAML whose first document is a mapping"]
        );
    }
}

/// (line, written, computed, src, attributes, webpreferences) of each `<webview>` tag the
/// file's code writes.
type Tag = (
    u32,
    String,
    bool,
    Option<String>,
    Vec<String>,
    Option<String>,
);

fn code_webviews(f: &FileFacts) -> Vec<Tag> {
    f.js.webviews
        .iter()
        .map(|w| {
            (
                w.line,
                w.written.to_owned(),
                w.computed,
                w.src.clone(),
                w.attributes.iter().map(|a| (*a).to_owned()).collect(),
                w.web_preferences.clone(),
            )
        })
        .collect()
}

fn tag(
    line: u32,
    written: &str,
    computed: bool,
    src: Option<&str>,
    attributes: &[&str],
    prefs: Option<&str>,
) -> Tag {
    (
        line,
        written.to_owned(),
        computed,
        src.map(str::to_owned),
        attributes.iter().map(|a| (*a).to_owned()).collect(),
        prefs.map(str::to_owned),
    )
}

#[test]
fn webview_markup_in_strings_templates_and_concatenations_is_read() {
    // Zulip's old renderer builds its tabs' webviews as a template; an expression writes an
    // attribute only on one branch, and the URL is computed.
    let f = facts(
        "webview.js",
        r#"class WebView {
  template() {
    return `<webview
      class="disabled"
      src="${this.props.url}"
      ${this.props.nodeIntegration ? 'nodeIntegration' : ''}
      disablewebsecurity
      webpreferences="allowRunningInsecureContent, javascript=yes">
    </webview>`;
  }
}
const plain = '<div><webview src="https://example.invalid/?token=abc" allowpopups></webview></div>';
const joined = '<webview src="' + url + '" plugins ' + (trusted && 'nodeintegrationinsubframes') + '></webview>';
const unrelated = `<div class="${name}">webview</div>`;
let composed = `<webview class="view" src="${this.url(url)}"`;
if (options.node) {
  composed += " nodeintegration";
}
composed += ` data-readonly="${ro ? 'true' : 'false'}"`;
other += " allowpopups";
$(".views").append(`${composed}></webview>`);
"#,
    );
    assert_eq!(
        code_webviews(&f),
        [
            tag(
                3,
                "markup-in-code",
                true,
                Some("/${…}"),
                &["nodeintegration", "disablewebsecurity"],
                Some("allowRunningInsecureContent, javascript=yes")
            ),
            tag(
                12,
                "markup-in-code",
                false,
                Some("https://example.invalid/?token=%5BREDACTED%5D"),
                &["allowpopups"],
                None
            ),
            tag(
                13,
                "markup-in-code",
                true,
                Some("/${…}"),
                &["nodeintegrationinsubframes", "plugins"],
                None
            ),
            // Built in parts (electron-navigation): what is appended to the name is the tag's.
            tag(
                15,
                "markup-in-code",
                true,
                Some("/${…}"),
                &["nodeintegration"],
                None
            ),
        ]
    );
    assert!(f.js.webviews[0].node_integration() && f.js.webviews[0].web_security_disabled());
}

#[test]
fn webview_elements_code_makes_are_read_with_their_props() {
    let f = facts(
        "view.js",
        r#"import { jsx as _jsx } from "react/jsx-runtime";
export const A = () => React.createElement("webview", { src: "https://example.invalid/", nodeintegration: "true", allowpopups: false });
export const B = () => (0, r.jsx)("webview", { ...rest, webpreferences: "contextIsolation=no", disablewebsecurity: !0 });
export const C = () => _jsx("webview", { src: page, plugins: !1, nodeIntegration: enabled });
const el = document.createElement("webview");
el.setAttribute("src", "https://example.invalid/");
el.setAttribute("nodeintegration", "");
el.setAttribute("webpreferences", "webSecurity=no");
other.setAttribute("allowpopups", "");
ipcRenderer.send("webview", { nodeintegration: true });
"#,
    );
    assert_eq!(
        code_webviews(&f),
        [
            tag(
                2,
                "element",
                false,
                Some("https://example.invalid/"),
                &["nodeintegration"],
                None
            ),
            tag(
                3,
                "element",
                true,
                None,
                &["disablewebsecurity"],
                Some("contextIsolation=no")
            ),
            tag(4, "element", true, None, &["nodeintegration"], None),
            // The DOM's element takes the attributes set next that only a webview reads (the
            // last `setAttribute` is on it too: which element `other` is, is not known).
            tag(
                5,
                "element",
                true,
                None,
                &["nodeintegration", "allowpopups"],
                Some("webSecurity=no")
            ),
        ]
    );
    assert!(f.js.webviews[3].web_security_disabled());
}

#[test]
fn a_jsx_webview_in_a_shipped_source_is_read() {
    let f = facts(
        "Browser.tsx",
        r#"export function Browser({ url }: { url: string }) {
  return (
    <div>
      <webview src={url} nodeintegration allowpopups={false} webpreferences="sandbox=no" />
    </div>
  );
}
"#,
    );
    assert_eq!(
        code_webviews(&f),
        [tag(
            4,
            "element",
            true,
            None,
            &["nodeintegration"],
            Some("sandbox=no")
        )]
    );
}

#[test]
fn export_default_from_reads_as_a_reexport() {
    // Babel's export-default-from, as history 4 ships its `modules/index.js`.
    let f = facts(
        "modules/index.js",
        "export createHistory from './createBrowserHistory'\nexport useBasename, { other } from './useBasename'\nexport * as all from './all'\n",
    );
    assert_eq!(f.parse, ParseStatus::Complete, "{:?}", f.diagnostics);
    let mut specs: Vec<(&str, &str)> =
        f.js.references
            .iter()
            .filter_map(|r| Some((r.kind, r.specifier.as_deref()?)))
            .collect();
    specs.sort();
    assert_eq!(
        specs,
        [
            ("static-import", "./all"),
            ("static-import", "./createBrowserHistory"),
            ("static-import", "./useBasename")
        ]
    );
}

#[test]
fn a_long_concatenation_is_searched_for_webview_markup_once_and_its_nested_parts_still_are() {
    // A generated string of thousands of parts: its left spine is searched with the whole, and
    // a tag written inside one of its parts is still found.
    let parts: Vec<String> = (0..3000).map(|i| format!("x{i}")).collect();
    let text = format!(
        "// webview\nconst s = {} + (c ? '<webview allowpopups>' + y : z);\n",
        parts.join(" + ")
    );
    let f = facts("generated.js", &text);
    assert_eq!(
        code_webviews(&f),
        [tag(2, "markup-in-code", true, None, &["allowpopups"], None)]
    );
}

/// Options merged by the usual libraries' functions, as nightmare's runner writes them
/// (`options = defaults(opts || {}, { webPreferences: { preload } })` in a callback, with
/// `options` declared outside it): defaults fill in what the caller's options leave out, a
/// deep merge merges `webPreferences` key by key, a shallow one replaces them whole.
#[test]
fn window_options_merged_by_library_functions() {
    let f = facts(
        "runner.js",
        r#"const { BrowserWindow, app } = require("electron");
const { join } = require("path");
const defaults = require("deep-defaults");
const _ = require("lodash");
app.on("ready", function () {
  var win, options;
  respondTo("init", function (opts) {
    options = defaults(opts || {}, { show: false, webPreferences: { preload: join(__dirname, "preload.js"), nodeIntegration: false } });
    win = new BrowserWindow(options);
  });
});
function deep(extra) {
  const o = _.merge({}, { webPreferences: { nodeIntegration: true } }, { webPreferences: { preload: join(__dirname, "deep.js") } }, extra);
  return new BrowserWindow(o);
}
function shallow() {
  return new BrowserWindow(_.extend({ webPreferences: { nodeIntegration: true } }, { webPreferences: { preload: join(__dirname, "shallow.js") } }));
}
function own(extra) {
  return new BrowserWindow(_.defaults({ webPreferences: { sandbox: true } }, { webPreferences: { sandbox: false, preload: join(__dirname, "lost.js") } }));
}"#,
    );
    let w = &f.js.windows;
    assert_eq!(w.len(), 4);
    assert_eq!(
        preloads(&f),
        [
            Some(("preload.js", "filesystem-expression")),
            Some(("deep.js", "filesystem-expression")),
            Some(("shallow.js", "filesystem-expression")),
            // `_.defaults` keeps the first object's `webPreferences` whole.
            None,
        ]
    );
    let prefs = |i: usize| -> Vec<(&str, &StaticValue)> {
        w[i].web_preferences
            .iter()
            .map(|(k, v)| (k.as_str(), v))
            .collect()
    };
    let t = StaticValue::Literal(true.into());
    let no = StaticValue::Literal(false.into());
    assert!(
        prefs(0).contains(&("nodeIntegration", &no)),
        "{:?}",
        prefs(0)
    );
    // The caller's options may override the defaults: they are listed, unresolved.
    assert!(
        w[0].option_sources
            .iter()
            .any(|s| s.expression == "opts || {}" && s.resolution == "unresolved")
    );
    assert!(
        prefs(1).contains(&("nodeIntegration", &t)),
        "{:?}",
        prefs(1)
    );
    assert!(
        !prefs(2).iter().any(|(k, _)| *k == "nodeIntegration"),
        "{:?}",
        prefs(2)
    );
    assert_eq!(prefs(3), [("sandbox", &t)]);
}

/// Calls of `ipcRenderer`'s methods through names a file never binds are kept for the page's
/// other scripts to settle; a name the file binds anywhere is not one, nor is one whose
/// binding cannot be looked for within the bounds (a text past 1 MiB where the name is
/// written other than as these callees).
#[test]
fn calls_through_unbound_names_are_kept_for_the_page() {
    let small = facts(
        "menu.js",
        r#"ipc.on("open", () => {});
// other names a page global
other.send("save", 1);
function g(bound) { bound.send("param"); }
window.shared.invoke("through-window");
el.on("click", () => {});
var el = document.body;
"#,
    );
    let calls: Vec<(&str, &str, &str, bool)> = small
        .js
        .global_calls
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.operation,
                c.channel.as_str(),
                c.through_window,
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("ipc", "on", "open", false),
            ("other", "send", "save", false),
            ("shared", "invoke", "through-window", true),
        ]
    );
    assert!(small.js.ipc.is_empty(), "{:?}", small.js.ipc);
    let padding = format!("/*{}*/\n", "x".repeat(1 << 20));
    let large = facts(
        "big.js",
        &format!("ipc.on(\"open\", () => {{}});\n// ipc\nsolo.send(\"kept\");\n{padding}"),
    );
    let names: Vec<&str> = large
        .js
        .global_calls
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["solo"]);
}

/// A helper that forwards its own arguments with `apply`, as nightmare's preload does before
/// ES2015 (`function send() { ipc.send.apply(ipc, arguments) }`): its calls are the
/// operation on the channel they pass first.
#[test]
fn a_helper_that_applies_its_arguments_forwards_the_channel() {
    let f = facts(
        "preload.js",
        r#"var ipc = require("electron").ipcRenderer;
function send(_event) { ipc.send.apply(ipc, arguments); }
function listen() { return ipc.on.apply(ipc, arguments); }
function other() { ipc.send.apply(ipc, ["fixed"]); }
send("response", 1);
send("page", "error", 2);
listen("reply", function () {});
"#,
    );
    assert_eq!(
        ipc_ops(&f),
        [
            ("renderer", "send", Some("response")),
            ("renderer", "send", Some("page")),
            ("renderer", "on", Some("reply")),
        ]
    );
    let vias: Vec<Option<&str>> = f.js.ipc.iter().map(|op| op.via.as_deref()).collect();
    assert_eq!(vias, [Some("send"), Some("send"), Some("listen")]);
    assert_eq!(f.js.ipc[2].handler_kind, Some("inline-function"));
}

/// `<link rel="import">` names a document the page imports (an HTML import), in any case and
/// among other link types; other links name nothing the page runs.
#[test]
fn html_imports_are_named_by_the_page() {
    let f = facts(
        "index.html",
        r#"<html><head>
<link rel="stylesheet" href="style.css">
<link rel="IMPORT" href="sections/about.html">
<link rel="preload import" href=" sections/ipc.html ">
<link rel="import" href="">
<script src="app.js"></script>
</head></html>"#,
    );
    let named: Vec<(&str, bool, bool)> = f
        .html
        .iter()
        .map(|s| (s.src.as_str(), s.html_import, s.webview_preload))
        .collect();
    assert_eq!(
        named,
        [
            ("sections/about.html", true, false),
            ("sections/ipc.html", true, false),
            ("app.js", false, false),
        ]
    );
}

/// A function of the file named like a merging one, called with one argument, is read as the
/// file's function: what it returns are the options.
#[test]
fn a_local_defaults_function_of_one_argument_returns_the_options() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
const { join } = require("path");
function defaults(opts) {
  return Object.assign({ webPreferences: { preload: join(__dirname, "preload.js"), sandbox: true } }, opts);
}
new BrowserWindow(defaults({ width: 800 }));
"#,
    );
    assert_eq!(
        preloads(&f),
        [Some(("preload.js", "filesystem-expression"))]
    );
    assert_eq!(f.js.windows[0].options_status, "function-return");
}

/// `webPreferences` merged by a library function read as `Object.assign`'s are: for defaults,
/// an earlier object's keys win.
#[test]
fn web_preferences_merged_by_library_functions() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
const { join } = require("path");
const _ = require("lodash");
new BrowserWindow({ webPreferences: _.defaults({ sandbox: false }, { sandbox: true, preload: join(__dirname, "x.js") }) });
"#,
    );
    assert_eq!(preloads(&f), [Some(("x.js", "filesystem-expression"))]);
    assert!(
        f.js.windows[0]
            .web_preferences
            .contains(&("sandbox".into(), StaticValue::Literal(false.into()))),
        "{:?}",
        f.js.windows[0].web_preferences
    );
}

/// Each load's window, as (target, the window's holder) in source order of the loads.
fn window_loads(facts: &FileFacts) -> Vec<(&str, Option<&str>)> {
    facts
        .js
        .renderer_loads
        .iter()
        .map(|l| {
            let window = l.window.map(|w| &facts.js.windows[w as usize]);
            (
                l.target.as_str(),
                window.map(|w| w.holder.as_deref().unwrap_or("-")),
            )
        })
        .collect()
}

#[test]
fn loads_called_on_a_window_name_are_that_window_s() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
let settings;
function loadSettings() { settings.loadFile("settings.html"); }
function createMain() {
  const win = new BrowserWindow({ webPreferences: { sandbox: true } });
  win.loadFile("index.html");
}
function createOther() {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true } });
  win.webContents.loadURL("https://example.com/app?token=abc");
  win.loadFile("fallback.html");
}
function createSettings() { settings = new BrowserWindow({}); loadSettings(); }
class Tray {
  popup = new BrowserWindow({});
  show() { this.popup.loadURL(`file://${__dirname}/popup.html`); }
}
new BrowserWindow({ width: 3 }).loadFile("about.html");
function elsewhere(view) { view.loadFile("view.html"); other.webContents.loadFile("other.html"); }
"#,
    );
    assert_eq!(
        window_loads(&f),
        [
            ("settings.html", Some("settings")),
            ("index.html", Some("win")),
            ("fallback.html", Some("win")),
            ("popup.html", Some("this.popup")),
            ("about.html", Some("-")),
            ("view.html", None),
            ("other.html", None),
        ]
    );
    // The two `win`s are two windows: each function's own.
    let index = |target: &str| {
        f.js.renderer_loads
            .iter()
            .find(|l| l.target == target)
            .and_then(|l| l.window)
    };
    assert_ne!(index("index.html"), index("fallback.html"));
    let other = &f.js.windows[index("fallback.html").unwrap() as usize];
    assert_eq!(other.remote_urls.len(), 1);
    assert!(other.remote_urls[0].starts_with("https://example.com/app?token="));
    assert!(
        !other.remote_urls[0].contains("abc"),
        "{:?}",
        other.remote_urls
    );
    let main = &f.js.windows[index("index.html").unwrap() as usize];
    assert!(main.remote_urls.is_empty());
}

#[test]
fn a_window_reassigned_loads_into_the_one_constructed_before_the_load() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
let w = new BrowserWindow({ webPreferences: { sandbox: true } });
w.loadFile("first.html");
w = new BrowserWindow({ webPreferences: { sandbox: false } });
w.loadFile("second.html");
"#,
    );
    let sandbox = |target: &str| {
        let load =
            f.js.renderer_loads
                .iter()
                .find(|l| l.target == target)
                .unwrap();
        f.js.windows[load.window.unwrap() as usize]
            .web_preferences
            .iter()
            .find(|(k, _)| k == "sandbox")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(
        sandbox("first.html"),
        Some(StaticValue::Literal(true.into()))
    );
    assert_eq!(
        sandbox("second.html"),
        Some(StaticValue::Literal(false.into()))
    );
}

#[test]
fn a_window_subclass_loads_through_this() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
class MainWindow extends BrowserWindow {
  constructor() { super({ webPreferences: { sandbox: true } }); this.loadFile("main.html"); }
  reload() { this.webContents.loadFile("main.html"); }
}
"#,
    );
    assert_eq!(f.js.windows.len(), 1);
    assert_eq!(f.js.windows[0].holder.as_deref(), Some("this"));
    assert!(
        f.js.renderer_loads.iter().all(|l| l.window == Some(0)),
        "{:?}",
        f.js.renderer_loads
    );
}

#[test]
fn a_name_given_a_function_s_window_loads_into_it() {
    let f = facts(
        "main.js",
        r#"const { app, BrowserWindow } = require("electron");
let main;
app.whenReady().then(async () => {
  main = await createMain();
  main.loadFile("main.html");
  const tool = this.makeTool();
  tool.webContents.loadFile("tool.html");
  const either = pick();
  either.loadFile("either.html");
  const helper = notAWindow();
  helper.loadFile("helper.html");
});
function createMain() {
  const win = new BrowserWindow({ webPreferences: { sandbox: true } });
  return win;
}
class Tools {
  makeTool = () => { return new BrowserWindow({ webPreferences: { sandbox: false } }); };
}
function pick() {
  if (x) return new BrowserWindow({});
  return new BrowserWindow({ show: false });
}
function notAWindow() { return {}; }
"#,
    );
    let sandbox = |target: &str| {
        let load =
            f.js.renderer_loads
                .iter()
                .find(|l| l.target == target)
                .unwrap();
        load.window.map(|w| {
            f.js.windows[w as usize]
                .web_preferences
                .iter()
                .find(|(k, _)| k == "sandbox")
                .map(|(_, v)| v.clone())
        })
    };
    assert_eq!(
        sandbox("main.html"),
        Some(Some(StaticValue::Literal(true.into())))
    );
    assert_eq!(
        sandbox("tool.html"),
        Some(Some(StaticValue::Literal(false.into())))
    );
    // A function that returns either of two windows names neither; one that returns no
    // window names none.
    assert_eq!(sandbox("either.html"), None);
    assert_eq!(sandbox("helper.html"), None);
}

#[test]
fn a_helper_that_loads_its_parameter_loads_what_each_call_passes_into_its_window() {
    let f = facts(
        "main.js",
        r#"const { app, BrowserWindow } = require("electron");
function open(page, width) {
  const win = new BrowserWindow({ width, webPreferences: { sandbox: true } });
  win.loadFile(page);
  return win;
}
function load(win, url) { win.loadURL(url); }
app.whenReady().then(() => {
  open("settings.html", 400);
  open(isDev ? "dev.html" : "about.html", 300);
  load(someWindow, "https://example.com/docs?k=v");
  open(computed());
});
"#,
    );
    let mut loads: Vec<(&str, Option<u32>)> =
        f.js.renderer_loads
            .iter()
            .map(|l| (l.target.as_str(), l.window))
            .collect();
    loads.sort();
    assert_eq!(
        loads,
        [
            ("about.html", Some(0)),
            ("dev.html", Some(0)),
            ("settings.html", Some(0)),
        ]
    );
    // The helper's parameter is no computed target of its window, a caller's computed
    // argument is; the URL loaded into a window the helper is given is a web URL of no
    // window.
    assert_eq!(f.js.windows[0].dynamic_loads, ["computed()"]);
    assert!(f.js.windows[0].remote_urls.is_empty());
    assert!(f.js.observations.iter().any(|o| {
        o.kind == "loadURL"
            && o.value
                .as_deref()
                .is_some_and(|v| v.starts_with("https://example.com/docs"))
    }));
}

#[test]
fn windows_a_window_open_handler_allows_are_windows_with_its_overrides() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
const { join } = require("path");
const win = new BrowserWindow({ webPreferences: { sandbox: true } });
win.webContents.setWindowOpenHandler(() => ({
  action: "allow",
  overrideBrowserWindowOptions: { webPreferences: { preload: join(__dirname, "child.js"), sandbox: false } },
}));
win.webContents.setWindowOpenHandler(function ({ url }) {
  if (url.startsWith("https://docs.example.com/")) {
    return { action: "allow", overrideBrowserWindowOptions: { width: 400 } };
  }
  return { action: "deny", overrideBrowserWindowOptions: { webPreferences: { nodeIntegration: true } } };
});
"#,
    );
    let windows: Vec<(&str, &str, Option<&str>)> =
        f.js.windows
            .iter()
            .map(|w| {
                (
                    w.constructor.as_str(),
                    w.web_preferences_status,
                    w.preload.as_ref().map(|p| p.path.as_str()),
                )
            })
            .collect();
    assert_eq!(
        windows,
        [
            ("BrowserWindow", "object-literal", None),
            ("window-open", "object-literal", Some("child.js")),
            ("window-open", "missing", None),
        ]
    );
    assert!(
        f.js.windows[1]
            .web_preferences
            .contains(&("sandbox".to_owned(), StaticValue::Literal(false.into()))),
        "{:?}",
        f.js.windows[1].web_preferences
    );
}

#[test]
fn a_file_with_thousands_of_windows_matches_a_bounded_number_of_their_loads() {
    let mut text = String::from("const { BrowserWindow } = require(\"electron\");\n");
    for i in 0..5000 {
        text.push_str(&format!(
            "function f{i}() {{ const win = new BrowserWindow({{}}); win.loadFile(\"p{i}.html\"); }}\n"
        ));
    }
    let f = facts("main.js", &text);
    assert_eq!(f.js.windows.len(), 5000);
    assert_eq!(f.js.renderer_loads.len(), 5000);
    let matched: Vec<(usize, u32)> =
        f.js.renderer_loads
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((i, l.window?)))
            .collect();
    // Each load kept is its own function's window's; past the bound, loads stay unmatched.
    assert_eq!(matched.len(), 4096);
    assert!(matched.iter().all(|(i, w)| *i as u32 == *w));
}

#[test]
fn optional_loads_on_a_window_name_are_that_window_s() {
    let f = facts(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
let win = null;
function create() {
  win = new BrowserWindow({});
  win?.loadFile("a.html");
  win?.webContents.loadURL("https://x.example.com/");
  this.other?.loadFile("b.html");
}
"#,
    );
    assert_eq!(
        window_loads(&f),
        [("a.html", Some("win")), ("b.html", None)]
    );
    assert_eq!(f.js.windows[0].remote_urls, ["https://x.example.com/"]);
}

#[test]
fn members_of_this_assigned_ipc_objects_hold_them_in_their_class() {
    // `this._ipcMain = require("electron").ipcMain` in a constructor, a class field, a
    // private field, a member set in a method's callback, an ES5 constructor function's
    // member read by its prototype's methods, and TypeScript's `_this` in a callback.
    let main = facts(
        "main.js",
        r#"const electron_1 = require("electron");
class Bridge {
  constructor() { this._ipcMain = require("electron").ipcMain; }
  start() {
    this._ipcMain.addListener("bus:handshake", (event, id) => this.onHandshake(event, id));
    this._ipcMain.removeAllListeners("bus:command");
  }
}
class Fields {
  ipc = electron_1.ipcMain;
  #own = electron_1.ipcMain;
  wire() { this.ipc.handle("field:get", () => 1); this.#own.on("private:on", () => {}); }
}
function Legacy() { this.bus = electron_1.ipcMain; }
Legacy.prototype.wire = function () {
  var _this = this;
  this.bus.on("legacy:on", function () { _this.bus.handle("legacy:handle", () => 1); });
};
class Other {
  wire() { this.bus.on("not-ipc", () => {}); this._ipcMain.on("other-class", () => {}); }
}
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "add-listener", Some("bus:handshake")),
            ("main", "remove-listener", Some("bus:command")),
            ("main", "handle", Some("field:get")),
            ("main", "on", Some("private:on")),
            ("main", "on", Some("legacy:on")),
            ("main", "handle", Some("legacy:handle")),
        ]
    );
    let renderer = facts(
        "renderer.js",
        r#"class Transport {
  connect() {
    return new Promise((resolve) => {
      this._ipcRenderer = require("electron").ipcRenderer;
      this._ipcRenderer.once("bus:handshake", () => resolve());
      this._ipcRenderer.send("bus:handshake", 1);
    });
  }
  close() { this._ipcRenderer.removeListener("bus:event", () => {}); }
}
"#,
    );
    assert_eq!(
        ipc_ops(&renderer),
        [
            ("renderer", "once", Some("bus:handshake")),
            ("renderer", "send", Some("bus:handshake")),
            ("renderer", "remove-listener", Some("bus:event")),
        ]
    );
}

#[test]
fn constructors_new_hands_ipc_objects_to_hold_them_in_their_members() {
    // `new Bridge(ipcMain)`: the constructor's parameter, and the member it is stored in; a
    // TypeScript parameter property; an ES5 constructor function; `new` by a member, as
    // webpack calls another factory's class. A class no `new` hands an IPC object reads
    // nothing.
    let main = facts(
        "main.ts",
        r#"import { ipcMain } from "electron";
class Bridge {
  constructor(ipc, name) { this.ipc = ipc; ipc.handle("ctor:param", () => name); }
  wire() { this.ipc.on("ctor:member", () => {}); }
}
class Typed {
  constructor(private readonly bus: Electron.IpcMain) {}
  wire() { this.bus.handle("ts:param-property", () => 1); }
}
function Legacy(m) { this.m = m; }
Legacy.prototype.wire = function () { this.m.on("es5:member", () => {}); };
class Unrelated {
  constructor(ipc) { this.ipc = ipc; }
  wire() { this.ipc.on("not-handed", () => {}); }
}
new Bridge(ipcMain, "x");
new Typed(ipcMain);
new Legacy(ipcMain);
new Unrelated(socket);
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "handle", Some("ctor:param")),
            ("main", "on", Some("ctor:member")),
            ("main", "handle", Some("ts:param-property")),
            ("main", "on", Some("es5:member")),
        ]
    );
    // webpack 5 production: a factory's class stored as an export (`t.Store = o`), and a
    // function exported under a mangled name (`n.d(t, {Z: () => f})`), called from another.
    let bundle = facts(
        "main.js",
        r#"(()=>{"use strict";var e={858(e,t){class o{constructor(e){this.i=e}start(){this.i.handle("webpack:class",()=>1)}}t.Store=o},
311(e,t,n){n.d(t,{Z:()=>f});function f(e){e.on("webpack:mangled",()=>{})}},
482(e){e.exports=require("electron")}};const r={};function n(s){const t=r[s];if(void 0!==t)return t.exports;const o=r[s]={exports:{}};return e[s](o,o.exports,n),o.exports}(()=>{const e=n(482),r=n(858),i=n(311);new r.Store(e.ipcMain).start();(0,i.Z)(e.ipcMain)})()})();"#,
    );
    assert_eq!(
        ipc_ops(&bundle),
        [
            ("main", "handle", Some("webpack:class")),
            ("main", "on", Some("webpack:mangled")),
        ]
    );
    // Where two modules export under one mangled name, a call by it names neither.
    let ambiguous = bundle_text_with_second_z();
    assert_eq!(
        ipc_ops(&facts("main.js", &ambiguous)),
        [("main", "handle", Some("webpack:class"))]
    );
}

fn bundle_text_with_second_z() -> String {
    r#"(()=>{"use strict";var e={858(e,t){class o{constructor(e){this.i=e}start(){this.i.handle("webpack:class",()=>1)}}t.Store=o},
311(e,t,n){n.d(t,{Z:()=>f});function f(e){e.on("webpack:mangled",()=>{})}},
312(e,t,n){n.d(t,{Z:()=>g});function g(e){e.on("other:module",()=>{})}},
482(e){e.exports=require("electron")}};const r={};function n(s){const t=r[s];if(void 0!==t)return t.exports;const o=r[s]={exports:{}};return e[s](o,o.exports,n),o.exports}(()=>{const e=n(482),r=n(858),i=n(311);new r.Store(e.ipcMain).start();(0,i.Z)(e.ipcMain)})()})();"#
        .to_owned()
}

#[test]
fn modules_that_hand_back_electron_are_electron() {
    // A module of the application's own that re-exports Electron (Theia's
    // `@theia/electron/shared/electron`, a `../electron-shared/electron`), and a getter named
    // for it (`requireElectron()`, as electron-common-ipc loads Electron where it may be
    // missing), called in place or as another module's export.
    let main = facts(
        "main.js",
        r#"const electron_1 = require("../../electron-shared/electron");
const utils_1 = require("../utils");
const electron = (0, utils_1.requireElectron)();
class Bridge {
  constructor() { this._ipcMain = electron.ipcMain; }
  start() { this._ipcMain.addListener("bus:handshake", () => {}); }
}
const { ipcMain: m } = electron_1;
m.handle("theia:get", () => 1);
const other = require("./electronics");
other.ipcMain2.on("not-electron", () => {});
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "add-listener", Some("bus:handshake")),
            ("main", "handle", Some("theia:get")),
        ]
    );
    let esm = facts(
        "preload.mjs",
        r#"import { ipcRenderer as r, contextBridge } from "@theia/electron/shared/electron";
contextBridge.exposeInMainWorld("api", { open: () => r.send("theia:open") });
"#,
    );
    assert_eq!(ipc_ops(&esm), [("renderer", "send", Some("theia:open"))]);
    assert_eq!(esm.js.bridges.len(), 1);
}

#[test]
fn parameters_defaulting_to_ipc_objects_hold_them() {
    // electron-ipc-proxy's `registerProxy(target, descriptor, transport = electron_1.ipcMain)`,
    // the parameter handed on to another function, and an arrow's and a constructor's.
    let main = facts(
        "server.js",
        r#"const electron_1 = require("electron");
function registerProxy(target, transport = electron_1.ipcMain) {
  transport.on("proxy:request", () => {});
  return () => unregister("proxy:request", transport);
}
function unregister(channel, transport) { transport.removeAllListeners(channel); }
const listen = (bus = electron_1.ipcRenderer) => bus.send("arrow:default");
class Server { constructor(ipc = electron_1.ipcMain) { ipc.handle("ctor:default", () => 1); } }
function plain(transport = makeTransport()) { transport.on("not-ipc", () => {}); }
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "on", Some("proxy:request")),
            ("main", "remove-listener", Some("proxy:request")),
            // The helper's own operation, its channel a parameter.
            ("main", "remove-listener", None),
            ("renderer", "send", Some("arrow:default")),
            ("main", "handle", Some("ctor:default")),
        ]
    );
}

#[test]
fn helpers_re_exported_by_another_factory_are_called_through_it() {
    // Lens's main process: `ipcMainHandle(channel, listener)` in one factory, re-exported by
    // an index factory (`DX: () => i.DX`), and through it again under another name and by
    // TypeScript's `__exportStar`, called with another factory's channel constants.
    let bundle = facts(
        "main.js",
        r#"(() => {
var __webpack_modules__ = {
  99: (e) => { e.exports = require("electron"); },
  70: (e, t, n) => {
    n.d(t, { DX: () => ipcMainHandle, wp: () => ipcMainOn });
    var r = n(99);
    function ipcMainHandle(channel, listener) { r.ipcMain.handle(channel, async (event, ...args) => listener(event, ...args)); }
    function ipcMainOn(channel, listener) { r.ipcMain.on(channel, listener); }
  },
  54: (e, t, n) => { n.d(t, { DX: () => i.DX, Q: () => i.wp }); var i = n(70); },
  55: (e, t, n) => { n.d(t, { H: () => o.DX }); var o = n(54); },
  56: function (e, t, n) { var i = this && this.__exportStar || function (e, t) { for (var r in e) t[r] = e[r]; }; Object.defineProperty(t, "__esModule", { value: !0 }), i(n(70), t); },
  12: (e, t, n) => { n.d(t, { cV: () => c }); const c = "cluster:set-frame-id"; },
  10: (e, t, n) => {
    var ipc = n(54), again = n(55), star = n(56), cluster = n(12);
    (0, ipc.DX)(cluster.cV, (event, id) => id);
    (0, ipc.Q)("window:location-changed", () => {});
    (0, again.H)("twice:re-exported", () => 1);
    (0, star.wp)("star:re-exported", () => {});
    (0, ipc.missing)("not-a-helper", () => {});
  },
};
function n(id) { var m = { exports: {} }; __webpack_modules__[id](m, m.exports, n); return m.exports; }
n(10);
})();
"#,
    );
    let mut ops: Vec<_> = ipc_ops(&bundle)
        .into_iter()
        .filter(|(_, _, channel)| channel.is_some())
        .collect();
    ops.sort();
    assert_eq!(
        ops,
        [
            ("main", "handle", Some("cluster:set-frame-id")),
            ("main", "handle", Some("twice:re-exported")),
            ("main", "on", Some("star:re-exported")),
            ("main", "on", Some("window:location-changed")),
        ]
    );
}

#[test]
fn listener_methods_chained_on_what_they_return_are_the_emitters() {
    // `ipcRenderer.on(a, f).on(b, g)`, as Lens binds its listeners: `on` returns the
    // emitter. `handle` returns nothing, and a chain off any other call is not followed.
    let renderer = facts(
        "renderer.js",
        r#"const electron = require("electron");
electron.ipcRenderer.on("install", () => {}).on("clear-install", () => {}).once("third", () => {});
const { ipcMain } = electron;
ipcMain.on("a", () => {}).removeAllListeners("b");
ipcMain.handle("c", () => 1).on("not-chained", () => {});
emitter.get("x").on("not-ipc", () => {});
"#,
    );
    assert_eq!(
        ipc_ops(&renderer),
        // In the walk's order: the outermost call of a chain first.
        [
            ("renderer", "once", Some("third")),
            ("renderer", "on", Some("clear-install")),
            ("renderer", "on", Some("install")),
            ("main", "remove-listener", Some("b")),
            ("main", "on", Some("a")),
            ("main", "handle", Some("c")),
        ]
    );
}

#[test]
fn names_bound_to_every_pages_web_contents_are_iterated_like_the_list() {
    // Lens's `broadcastMessage`: `const views = webContents.getAllWebContents()`, then a loop
    // over the name (or a filtered copy, or `forEach`); the helper's callers name the channel.
    let main = facts(
        "main.js",
        r#"const electron = require("electron");
function broadcast(channel, ...args) {
  const views = electron.webContents.getAllWebContents();
  if (!views || views.length === 0) return;
  for (const view of views) view.send(channel, ...args);
  const shown = views.filter((v) => !v.isDestroyed());
  shown.forEach((v) => v.send("each:shown"));
}
function other() { const views = getViews(); for (const view of views) view.send("not-pages"); }
broadcast("catalog:items", 1);
"#,
    );
    assert_eq!(
        ipc_ops(&main),
        [
            ("main", "webcontents-send", None),
            ("main", "webcontents-send", Some("each:shown")),
            ("main", "webcontents-send", Some("catalog:items")),
        ]
    );
}

#[test]
fn ipc_decorators_register_handlers_and_sends() {
    // einf's and @doubleshot/nest-electron's method decorators: `@IpcHandle("x")` is
    // `ipcMain.handle("x", method)`, `@IpcOn("x")` is `ipcMain.on`, einf's `@IpcSend("x")`
    // sends the method's result to a window's page. Written in TypeScript, as `tsc` compiles
    // them (`__decorate([(0, einf_1.IpcHandle)("x")], …)`), and as esbuild does.
    let source = facts(
        "app.controller.ts",
        r#"import { Controller, IpcHandle, IpcOn, IpcSend } from "einf";
import { IpcHandle as Handle } from "@doubleshot/nest-electron";
const CHANNEL = "app:constant";
@Controller()
export class AppController {
  @IpcHandle("app:get-version") getVersion() { return "1"; }
  @IpcOn("app:log") log(line: string) {}
  @IpcSend("app:tick") tick() { return Date.now(); }
  @Handle(CHANNEL, { noLog: true }) renamed() { return 1; }
  @Other("not-ipc") other() {}
}
"#,
    );
    assert_eq!(
        ipc_ops(&source),
        [
            ("main", "handle", Some("app:get-version")),
            ("main", "on", Some("app:log")),
            ("main", "webcontents-send", Some("app:tick")),
            ("main", "handle", Some("app:constant")),
        ]
    );
    let compiled = facts(
        "app.controller.js",
        r#""use strict";
const einf_1 = require("einf");
let AppController = class AppController { getVersion() { return "1"; } };
__decorate([(0, einf_1.IpcHandle)("app:get-version"), __metadata("design:type", Function)], AppController.prototype, "getVersion", null);
__decorateClass([IpcOn("app:log")], AppController.prototype, "log", 1);
"#,
    );
    assert_eq!(
        ipc_ops(&compiled),
        [
            ("main", "handle", Some("app:get-version")),
            ("main", "on", Some("app:log")),
        ]
    );
}

#[test]
fn an_exposed_class_instance_bridges_its_methods() {
    // `exposeInMainWorld("api", new Api())`, in place or through a name: the class's methods
    // and function fields are the API's members, a method that hands its parameter on as
    // the channel a forwarder; what the constructor or a superclass adds is one unknown.
    let f = facts(
        "preload.js",
        r#"const { contextBridge, ipcRenderer } = require("electron");
class Api {
  version() { return ipcRenderer.invoke("app:version"); }
  send(channel, ...args) { ipcRenderer.send(channel, ...args); }
  onTick = (listener) => ipcRenderer.on("app:tick", listener);
  static create() { return new Api(); }
  #secret() {}
}
class Built extends Api { constructor() { super(); this.extra = 1; } more() {} }
contextBridge.exposeInMainWorld("api", new Api());
const built = new Built();
contextBridge.exposeInMainWorld("built", built);
contextBridge.exposeInMainWorld("other", new Unknown());
"#,
    );
    let bridges: Vec<(&str, &str, Vec<&str>, u64)> =
        f.js.bridges
            .iter()
            .map(|b| {
                (
                    b.api_key.as_deref().unwrap(),
                    b.api_status,
                    b.members.iter().map(String::as_str).collect(),
                    b.unknown_members,
                )
            })
            .collect();
    assert_eq!(
        bridges,
        [
            (
                "api",
                "object-literal",
                vec!["onTick", "send", "version"],
                0
            ),
            ("built", "object-literal", vec!["more"], 1),
            ("other", "dynamic", vec![], 0),
        ]
    );
    let forwarders: Vec<(&str, &str)> = f.js.bridges[0]
        .forwarders
        .iter()
        .map(|f| (f.member.as_str(), f.operation))
        .collect();
    assert_eq!(forwarders, [("send", "send")]);
}
