//! Semantic relations read from small sources, one rule at a time.

use rea_parse::{FileFacts, FileKind, Options, SemanticFacts, TextLimits};

fn read(path: &str, text: &str) -> SemanticFacts {
    let (path, text) = (path.to_owned(), text.to_owned());
    std::thread::Builder::new()
        .stack_size(rea_parse::syntax::STACK_BYTES)
        .spawn(move || {
            let mut facts = FileFacts::new(
                path.clone(),
                None,
                text.len() as u64,
                FileKind::of(&path).unwrap(),
            );
            let options = Options {
                limits: TextLimits::default(),
                source_map_contents: false,
            };
            rea_parse::read_text(&mut facts, &text, options, &|| false);
            *facts.js.semantics.expect("semantics read")
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The index of the one node of `kind` whose role key is `role` (and, for nodes with a place,
/// which starts at the `nth` occurrence of `at` in the text).
fn node(facts: &SemanticFacts, kind: &str, role: &str) -> u32 {
    let found: Vec<u32> = facts
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.kind == kind && n.role_key == role)
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one {kind} {role}: {:?}",
        facts
            .nodes
            .iter()
            .map(|n| (n.kind, &n.role_key))
            .collect::<Vec<_>>()
    );
    found[0]
}

fn related(facts: &SemanticFacts, source: u32, target: u32, relation: &str) -> bool {
    facts
        .relations
        .iter()
        .any(|r| r.source == source && r.target == target && r.relation == relation)
}

fn relation_names(facts: &SemanticFacts) -> Vec<String> {
    facts
        .relations
        .iter()
        .map(|r| {
            let n = |i: u32| {
                let n = &facts.nodes[i as usize];
                format!("{}({})", n.kind, n.role_key)
            };
            format!("{} -{}-> {}", n(r.source), r.relation, n(r.target))
        })
        .collect()
}

#[test]
fn calls_resolve_to_hoisted_functions_with_arguments_and_returns() {
    let f = read(
        "src/a.js",
        "const out = twice(input);\nfunction twice(x) { return x * 2; }\nconst input = 4;\n",
    );
    let twice = node(&f, "function", "function:twice");
    let site = node(&f, "call-site", "call:twice");
    assert!(
        related(&f, site, twice, "calls"),
        "{:#?}",
        relation_names(&f)
    );
    let x = node(&f, "parameter", "parameter:0:x");
    let input = node(&f, "binding", "binding:input");
    assert!(related(&f, input, x, "argument-to-parameter"));
    let ret = node(&f, "return-site", "return");
    assert!(related(&f, x, ret, "writes"));
    assert!(related(&f, ret, site, "returns-to-call"));
    let out = node(&f, "binding", "binding:out");
    assert!(related(&f, site, out, "writes"));
    assert!(related(&f, 0, twice, "defines"));
    // The resolved call is the only one: nothing about it is unknown.
    assert!(f.unknowns.is_empty(), "{:?}", f.unknowns);
    assert_eq!(f.nodes[x as usize].function, Some(twice));
    assert_eq!(f.nodes[site as usize].function, Some(0));
}

#[test]
fn a_binding_written_with_two_functions_is_ambiguous_and_a_parameter_call_is_dynamic() {
    let f = read(
        "src/b.js",
        "let handler = () => 1;\nif (flag) handler = () => 2;\nhandler();\nfunction run(cb) { cb(); }\n",
    );
    let site = node(&f, "call-site", "call:handler");
    let candidates: Vec<_> = f
        .relations
        .iter()
        .filter(|r| r.source == site && r.relation == "calls")
        .collect();
    assert_eq!(candidates.len(), 2);
    assert!(candidates.iter().all(|r| !r.resolved));
    let ambiguous = f
        .unknowns
        .iter()
        .find(|u| u.reason == "ambiguous-target")
        .unwrap();
    assert_eq!(ambiguous.node, Some(site));
    assert_eq!(ambiguous.candidates.len(), 2);
    let cb = node(&f, "call-site", "call:cb");
    assert!(
        f.unknowns
            .iter()
            .any(|u| u.reason == "dynamic-call" && u.node == Some(cb) && u.family == "call-flow")
    );
}

#[test]
fn closures_capture_and_scopes_shadow() {
    let f = read(
        "src/c.js",
        "const token = load();\nfunction send() { return token; }\nfunction other(token) { return token; }\n",
    );
    let token = node(&f, "binding", "binding:token");
    let send = node(&f, "function", "function:send");
    let other = node(&f, "function", "function:other");
    assert!(related(&f, token, send, "captures"));
    // `other` reads its own parameter, not the module's binding.
    assert!(!related(&f, token, other, "captures"));
    let param = node(&f, "parameter", "parameter:0:token");
    assert!(related(&f, param, other, "reads"));
}

#[test]
fn environment_and_argv_reads_defaults_and_overrides() {
    let f = read(
        "src/config.js",
        r#"const url = process.env.API_URL || "https://example.test";
const { TOKEN } = process.env;
const port = Number(process.env["PORT"]);
process.env.MODE = "test";
const args = process.argv.slice(2);
const key = process.env[name];
"#,
    );
    let api = node(&f, "config-source", "environment:API_URL");
    let url = node(&f, "binding", "binding:url");
    assert!(related(&f, api, url, "reads-environment"));
    let fallback = node(&f, "literal", "literal:https://example.test");
    assert!(related(&f, fallback, url, "defaults"));
    let token = node(&f, "config-source", "environment:TOKEN");
    assert!(related(
        &f,
        token,
        node(&f, "binding", "binding:TOKEN"),
        "reads-environment"
    ));
    let port = node(&f, "config-source", "environment:PORT");
    let coerce = f.nodes.iter().position(|n| n.kind == "boundary").unwrap() as u32;
    assert!(related(&f, port, coerce, "coerces"));
    assert!(related(
        &f,
        coerce,
        node(&f, "binding", "binding:port"),
        "writes"
    ));
    let mode = node(&f, "config-source", "environment:MODE");
    assert!(related(
        &f,
        node(&f, "literal", "literal:test"),
        mode,
        "overrides"
    ));
    let argv = node(&f, "config-source", "argv");
    assert!(related(&f, argv, 0, "reads-argv"));
    assert!(
        f.unknowns
            .iter()
            .any(|u| u.family == "configuration" && u.reason == "dynamic-property")
    );
}

#[test]
fn child_processes_their_arguments_listeners_and_signals() {
    let f = read(
        "src/run.js",
        r#"const { spawn } = require("node:child_process");
const bin = process.env.TOOL;
const child = spawn(bin, ["--serve"], { env: { PATH: "/bin" }, stdio: "inherit" });
child.on("exit", (code) => done(code));
child.on("error", onError);
process.on("SIGTERM", () => { child.kill("SIGTERM"); });
function onError(e) {}
function done(c) {}
"#,
    );
    let child = f
        .nodes
        .iter()
        .position(|n| n.kind == "child-process")
        .unwrap() as u32;
    let site = node(&f, "call-site", "call:spawn");
    assert!(related(&f, site, child, "spawns"));
    let tool = node(&f, "config-source", "environment:TOOL");
    let bin = node(&f, "binding", "binding:bin");
    assert!(related(&f, tool, bin, "reads-environment"));
    assert!(related(&f, bin, child, "supplies-argv"));
    assert!(related(
        &f,
        node(&f, "literal", "literal:--serve"),
        child,
        "supplies-argv"
    ));
    assert!(related(
        &f,
        node(&f, "literal", "literal:/bin"),
        child,
        "supplies-env"
    ));
    assert!(
        f.relations
            .iter()
            .any(|r| r.target == child && r.relation == "connects-stdio")
    );
    assert!(
        f.relations
            .iter()
            .any(|r| r.source == child && r.relation == "listens-exit")
    );
    let on_error = node(&f, "function", "function:onError");
    assert!(related(&f, child, on_error, "listens-error"));
    let signal = node(&f, "signal", "signal:SIGTERM");
    assert!(related(&f, signal, child, "forwards-signal"));
}

#[test]
fn requests_their_fields_and_consumers() {
    let f = read(
        "src/api.js",
        r#"import axios from "axios";
export async function login(user) {
  const response = await fetch("https://api.example.test/login", { method: "POST", body: JSON.stringify(user) });
  const data = JSON.parse(await response.text());
  return data.session;
}
export function profile() {
  return axios.get("/profile").then((r) => r.data);
}
"#,
    );
    let request = f
        .nodes
        .iter()
        .position(|n| n.kind == "request" && n.role_key == "request:fetch")
        .unwrap() as u32;
    assert!(related(
        &f,
        node(&f, "call-site", "call:fetch"),
        request,
        "constructs-request"
    ));
    let url = node(&f, "literal", "literal:https://api.example.test/login");
    let fields: Vec<_> = f
        .relations
        .iter()
        .filter(|r| r.target == request && r.relation == "supplies-request-field")
        .collect();
    assert!(fields.iter().any(|r| r.source == url));
    assert!(fields.iter().any(|r| {
        r.properties
            .iter()
            .any(|(k, v)| *k == "field" && v == "method")
    }));
    let response = node(&f, "binding", "binding:response");
    assert!(related(&f, request, response, "consumed-by"));
    let login = node(&f, "function", "function:login");
    assert!(related(&f, request, login, "awaits"));
    let parse = f
        .nodes
        .iter()
        .position(|n| n.kind == "boundary" && n.role_key == "boundary:JSON.parse")
        .unwrap() as u32;
    assert!(related(
        &f,
        parse,
        node(&f, "binding", "binding:data"),
        "writes"
    ));
    let slot = node(&f, "property-slot", "property:session");
    assert!(related(
        &f,
        node(&f, "binding", "binding:data"),
        slot,
        "reads-property"
    ));
    let axios = f
        .nodes
        .iter()
        .position(|n| n.kind == "request" && n.role_key == "request:get")
        .unwrap() as u32;
    let r = node(&f, "parameter", "parameter:0:r");
    assert!(related(&f, axios, r, "consumed-by"));
    let ret = f
        .relations
        .iter()
        .find(|x| x.relation == "returns-task")
        .unwrap();
    assert_eq!(f.nodes[ret.source as usize].role_key, "call:(…).then");
    assert!(
        f.exports
            .iter()
            .any(|(name, n)| name == "login" && *n == login)
    );
    assert!(
        f.imports
            .iter()
            .any(|i| i.specifier == "axios" && i.name.as_deref() == Some("default"))
    );
}

#[test]
fn promises_timers_and_events() {
    let f = read(
        "src/work.js",
        r#"const { EventEmitter } = require("events");
const bus = new EventEmitter();
async function save() {}
function start() {
  save();
  const handle = setTimeout(tick, 1000);
  clearTimeout(handle);
  const p = new Promise((resolve) => resolve(1));
  Promise.all([p, save()]);
  bus.on("saved", onSaved);
  bus.emit("saved", 1);
  bus.removeListener("saved", onSaved);
}
function tick() {}
function onSaved() {}
"#,
    );
    let start = node(&f, "function", "function:start");
    let save_sites: Vec<u32> = f
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.role_key == "call:save")
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(save_sites.len(), 2);
    // Only the call whose promise is dropped detaches.
    let detached: Vec<_> = f
        .relations
        .iter()
        .filter(|r| r.relation == "detaches-task")
        .collect();
    assert_eq!(detached.len(), 1);
    assert_eq!(detached[0].source, start);
    let timer = f.nodes.iter().position(|n| n.kind == "timer").unwrap() as u32;
    let tick = node(&f, "function", "function:tick");
    assert!(related(&f, timer, tick, "schedules-timer"));
    assert!(related(
        &f,
        node(&f, "call-site", "call:clearTimeout"),
        timer,
        "cancels-timer"
    ));
    let promise = f.nodes.iter().position(|n| n.kind == "promise").unwrap() as u32;
    assert!(related(
        &f,
        node(&f, "call-site", "new:Promise"),
        promise,
        "creates-promise"
    ));
    assert!(
        f.relations
            .iter()
            .any(|r| r.source == promise && r.relation == "owns")
    );
    assert!(related(
        &f,
        node(&f, "binding", "binding:p"),
        node(&f, "call-site", "call:Promise.all"),
        "aggregates"
    ));
    let event = node(&f, "event", "event:saved");
    let on_saved = node(&f, "function", "function:onSaved");
    assert!(related(&f, event, on_saved, "registers-listener"));
    assert!(related(&f, event, on_saved, "removes-listener"));
    assert!(related(
        &f,
        node(&f, "call-site", "call:bus.emit"),
        event,
        "dispatches-candidate"
    ));
}

/// electron-better-ipc's requests and answers are IPC events like Electron's own: an answer
/// registers its function as the channel's listener, whose first parameter gets the data
/// (there is no event object), a window named first is skipped, and a call dispatches.
/// Electron's own listener still gets the event object first.
#[test]
fn electron_better_ipc_answers_and_calls_are_ipc_events() {
    let f = read(
        "src/main.js",
        r#"const { ipcMain } = require("electron-better-ipc");
const { ipcMain: ipcPlain } = require("electron");
function onNotify(notified) { return notified; }
function onFocus(focused, window) { return focused; }
function onPlain(event, sent) { return sent; }
ipcMain.answerRenderer("notify", onNotify);
ipcMain.answerRenderer(win, "focus", onFocus);
ipcMain.callRenderer(win, "theme", 1);
ipcPlain.on("plain", onPlain);
"#,
    );
    let notify = node(&f, "event", "ipc:notify");
    assert!(related(
        &f,
        notify,
        node(&f, "function", "function:onNotify"),
        "registers-listener"
    ));
    let param = |role: &str| node(&f, "parameter", role);
    assert!(related(
        &f,
        notify,
        param("parameter:0:notified"),
        "argument-to-parameter"
    ));
    let focus = node(&f, "event", "ipc:focus");
    assert!(related(
        &f,
        focus,
        node(&f, "function", "function:onFocus"),
        "registers-listener"
    ));
    assert!(related(
        &f,
        focus,
        param("parameter:0:focused"),
        "argument-to-parameter"
    ));
    assert!(related(
        &f,
        node(&f, "call-site", "call:ipcMain.callRenderer"),
        node(&f, "event", "ipc:theme"),
        "dispatches-candidate"
    ));
    let plain = node(&f, "event", "ipc:plain");
    assert!(!related(
        &f,
        plain,
        param("parameter:0:event"),
        "argument-to-parameter"
    ));
    assert!(related(
        &f,
        plain,
        param("parameter:1:sent"),
        "argument-to-parameter"
    ));
}

#[test]
fn urls_in_literals_lose_their_secrets() {
    let f = read(
        "src/k.js",
        r#"const u = "https://user:pw@api.example.test/v1?token=s3cret#frag";
fetch("https://api.example.test/items?key=s3cret");
makeClient("https://h.test/?k=s3cret").get("/x");
"#,
    );
    for n in &f.nodes {
        let text = format!("{} {} {:?}", n.role_key, n.label, n.properties);
        assert!(!text.contains("s3cret") && !text.contains("pw@"), "{text}");
    }
    assert!(
        f.nodes
            .iter()
            .any(|n| n.role_key == "literal:https://api.example.test/v1?token=%5BREDACTED%5D")
    );
}

#[test]
fn generated_code_and_computed_calls_are_unknown() {
    let f = read(
        "src/dyn.js",
        "eval(code);\nconst fn = new Function('a', 'return a');\nobj[name]();\nsetTimeout('tick()', 5);\n",
    );
    let reasons: Vec<&str> = f.unknowns.iter().map(|u| u.reason).collect();
    assert_eq!(
        reasons
            .iter()
            .filter(|r| **r == "eval-or-generated-code")
            .count(),
        3,
        "{reasons:?}"
    );
    assert!(reasons.contains(&"dynamic-property"));
    for u in &f.unknowns {
        assert!(u.relation_kinds.is_sorted());
        assert!(u.range.is_some());
    }
}

#[test]
fn reading_is_deterministic_and_bounded() {
    let mut text = String::new();
    for i in 0..8_000 {
        text.push_str(&format!("function f{i}(a) {{ return g(a); }}\n"));
    }
    let a = read("src/big.js", &text);
    let b = read("src/big.js", &text);
    assert_eq!(a, b);
    assert!(a.truncated);
    assert_eq!(a.nodes.len(), rea_parse::MAX_FILE_SEMANTIC_NODES);
    assert!(a.omitted_nodes > 0);
    assert!(a.relations.len() <= rea_parse::MAX_FILE_SEMANTIC_RELATIONS);
}
