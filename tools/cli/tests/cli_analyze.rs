//! `rea analyze-javascript-application` as a user runs it: the one-screen summary, JSON,
//! typed errors for bad input and bad flags, and a reader that stops early.

mod support;

use std::io::Read;
use std::process::{Output, Stdio};

use support::{rea, run, sample};

fn no_panic(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_summary_names_roles_windows_bridges_and_ipc_of_the_sample() {
    let output = run(&["analyze-javascript-application", sample().to_str().unwrap()]);
    no_panic(&output);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "electron-main",
        "src/main.js",
        "window",
        "bridge",
        "settings:get",
        "evidence",
    ] {
        assert!(text.contains(expected), "{expected} missing from:\n{text}");
    }
    // The JSON form is the sealed envelope, whose result commits to the same graph.
    let output = run(&[
        "analyze-javascript-application",
        sample().to_str().unwrap(),
        "--json",
    ]);
    let envelope: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        envelope["result"],
        envelope["evidence"]["normalized_result"]
    );
    assert!(
        envelope["result"]["graph"]["graph_id"]
            .as_str()
            .unwrap()
            .starts_with("jag_")
    );
    // The summary's semantic line counts what the record's section holds.
    let semantic = &envelope["result"]["semantic_graph"];
    let count = |key: &str| semantic[key].as_array().map_or(0, Vec::len);
    assert!(
        count("nodes") > 0,
        "the sample's own code has semantic nodes"
    );
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("semantic graph"))
        .unwrap_or_else(|| panic!("no semantic line in:\n{text}"));
    let expected = format!(
        "{} nodes, {} relations, {} unknowns; files: {} kept",
        count("nodes"),
        count("relations"),
        count("unknowns"),
        semantic["coverage"]["files"]["read"]
    );
    assert!(line.contains(&expected), "{line} lacks {expected}");
    // The application graph no longer says the semantic graph is missing.
    let limitations = envelope["result"]["limitations"].to_string();
    assert!(!limitations.contains("not produced"), "{limitations}");
    assert!(limitations.contains("semantic_graph"), "{limitations}");
}

/// A new directory holding `files`, with their directories.
fn app_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// The sealed `--json` envelope of the application in `dir`.
fn envelope_in(dir: &std::path::Path) -> serde_json::Value {
    let output = run(&[
        "analyze-javascript-application",
        dir.to_str().unwrap(),
        "--json",
    ]);
    no_panic(&output);
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The human summary of the application in `dir`, with `extra` flags; it must succeed.
fn summary_in(dir: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec!["analyze-javascript-application", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = run(&args);
    no_panic(&output);
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// The human summary of an application made of `files`.
fn summary_of(files: &[(&str, &str)]) -> String {
    summary_in(app_dir(files).path(), &[])
}

/// The summary's line that starts with `prefix`, its indent left out.
/// The summary's lines (trimmed) that start with `prefix`.
fn lines_of<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with(prefix))
        .collect()
}

fn line_of(text: &str, prefix: &str) -> String {
    text.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} line in:\n{text}"))
        .to_owned()
}

#[test]
fn the_summary_says_where_an_imported_bridge_api_is_written() {
    let files = [
        ("package.json", r#"{"name":"b","main":"main.js"}"#),
        (
            "api.js",
            r#"const { ipcRenderer } = require("electron");
exports.api = { send: (channel) => ipcRenderer.send(channel), version: () => "1" };"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge } = require("electron");
const api_1 = require("./api");
contextBridge.exposeInMainWorld("api", api_1.api);"#,
        ),
    ];
    let text = summary_of(&files);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("bridge"))
        .unwrap_or_else(|| panic!("no bridge in:\n{text}"));
    assert!(
        line.contains("api (main) [send, version] from api.js export api"),
        "{line}"
    );
    // An API written where it is exposed names that file: two copies of one preload (ESM
    // and CommonJS builds) are told apart.
    let files = [
        ("package.json", r#"{"name":"b","main":"main.js"}"#),
        (
            "preload.js",
            r#"const { contextBridge } = require("electron");
contextBridge.exposeInMainWorld("api", { version: () => "1" });"#,
        ),
        (
            "preload.mjs",
            r#"import { contextBridge } from "electron";
contextBridge.exposeInMainWorld("api", { version: () => "2" });"#,
        ),
    ];
    let text = summary_of(&files);
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("bridge"))
        .map(str::trim)
        .collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "bridge            api (main) [version] in preload.js",
            "bridge            api (main) [version] in preload.mjs"
        ]
    );
}

#[test]
fn the_summary_says_which_transmissions_reach_which_handlers() {
    let files = [
        ("package.json", r#"{"name":"p","main":"main.js"}"#),
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
ipcMain.handle("db:query", () => 1);
ipcMain.on("log", () => 1);
ipcMain.on("both", () => 1);
ipcMain.on("both", () => 2);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("api", { invoke: (...a) => ipcRenderer.invoke(...a) });
ipcRenderer.send("log");
ipcRenderer.send("both");"#,
        ),
        ("renderer.js", r#"window.api.invoke("db:query");"#),
    ];
    let text = summary_of(&files);
    let paired: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("paired"))
        .map(str::trim)
        .collect();
    // A message sent to a channel two listeners of one file register reaches each.
    assert_eq!(
        paired,
        [
            "both (each of 2 listeners): sends -> main.js on",
            "db:query: invokes via window.api.invoke -> main.js handle",
            "log: sends -> main.js on",
        ],
        "{text}"
    );
    assert!(
        text.contains("ipc to all        1 sent renderer transmissions paired"),
        "{text}"
    );
}

/// An older application's guards and a build shipped beside its sources: the summary counts
/// the legacy `new-window` listener with the window-open handlers it preceded, and says how
/// many transmissions paired with the one of several registrations the main entrypoint reaches.
#[test]
fn the_summary_counts_legacy_new_window_listeners_and_pairings_by_reach() {
    let files = [
        ("package.json", r#"{"name":"p","main":"dist/main.js"}"#),
        (
            "dist/main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
ipcMain.handle("get", () => 1);
const win = new BrowserWindow({ webPreferences: { preload: require("path").join(__dirname, "preload.js") } });
win.webContents.on("new-window", (event) => event.preventDefault());
win.webContents.on("will-navigate", (event) => event.preventDefault());"#,
        ),
        (
            "dist/preload.js",
            r#"require("electron").ipcRenderer.invoke("get");"#,
        ),
        (
            "source/main.ts",
            r#"import { ipcMain } from "electron";
ipcMain.handle("get", () => 1);"#,
        ),
    ];
    let text = summary_of(&files);
    let line = |prefix: &str| line_of(&text, prefix);
    assert!(
        line("security handlers").contains("window open 0 (legacy new-window 1), navigation 1,"),
        "{text}"
    );
    assert!(
        line("ipc by reach").starts_with("ipc by reach      1 renderer transmissions"),
        "{text}"
    );
    assert!(
        line("ipc  ").contains("1 renderer transmissions: 0 paired, 0 ambiguous"),
        "{text}"
    );
}

/// `@electron/remote`'s main side: the summary counts its calls and names the web contents
/// it is enabled for.
#[test]
fn the_summary_names_what_the_remote_module_is_enabled_for() {
    let files = [
        ("package.json", r#"{"name":"p","main":"main.js"}"#),
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
const remoteMain = require("@electron/remote/main");
remoteMain.initialize();
const win = new BrowserWindow({});
remoteMain.enable(win.webContents);"#,
        ),
    ];
    let text = summary_of(&files);
    assert_eq!(
        line_of(&text, "remote module"),
        "remote module     2 main-side calls of @electron/remote; enabled for: win.webContents",
        "{text}"
    );
}

/// The summary's URL scheme line names each scheme with the methods that register it and the
/// privileges granted, and counts those whose scheme the code does not write; the security
/// handlers' line counts what decides on certificates, and the code the main process runs in
/// pages is shown as written, cut short.
#[test]
fn the_summary_names_the_url_schemes_and_their_privileges() {
    let files = [
        ("package.json", r#"{"name":"p","main":"main.js"}"#),
        (
            "main.js",
            r#"const { app, protocol, session } = require("electron");
protocol.registerSchemesAsPrivileged([{ scheme: "app", privileges: { secure: true, standard: true } }]);
app.setAsDefaultProtocolClient("deep");
protocol.handle("app", (req) => new Response(""));
protocol.handle(process.env.SCHEME, (req) => new Response(""));
app.on("certificate-error", (event) => event.preventDefault());
session.defaultSession.setCertificateVerifyProc((request, callback) => callback(0));
const { BrowserWindow } = require("electron");
new BrowserWindow().webContents.executeJavaScript("document.body.dataset.theme = 'dark'; window.scrollTo(0, 0)");"#,
        ),
    ];
    let text = summary_of(&files);
    assert_eq!(
        line_of(&text, "url schemes"),
        "url schemes       app:// (handle registerSchemesAsPrivileged; privileges: secure standard), deep:// (setAsDefaultProtocolClient), 1 registering a scheme not written as a string",
        "{text}"
    );
    assert!(
        line_of(&text, "security handlers").ends_with("certificates 2"),
        "{text}"
    );
    assert_eq!(
        line_of(&text, "executed in pages"),
        r#"executed in pages 1 calls: "document.body.dataset.theme = 'dark'; window.sc…"#,
        "{text}"
    );
}

/// Where outside input reaches the running application: the summary counts each launch
/// event's listeners across files (a removed one is not counted), names the schemes the
/// application opens as their default client, and says whether it takes the single-instance
/// lock and how often the code reads the command line it was launched with; each file's node
/// lists its own, with their lines.
#[test]
fn the_summary_says_how_deep_links_and_later_launches_reach_the_application() {
    let files = [
        ("package.json", r#"{"name":"d","main":"main.js"}"#),
        (
            "main.js",
            r#"const { app: a } = require("electron");
require("./links");
a.setAsDefaultProtocolClient("notes");
if (!a.requestSingleInstanceLock()) a.quit();
a.on("second-instance", (event, argv) => open(argv.pop()));
const first = process.argv.find((arg) => arg.startsWith("notes://"));"#,
        ),
        (
            "links.js",
            r#"const electron = require("electron");
electron.app.on("open-url", (event, url) => open(url));
electron.app.on("open-file", null);
electron.app.setAsDefaultProtocolClient("notes-beta");"#,
        ),
    ];
    let dir = app_dir(&files);
    let text = summary_in(dir.path(), &[]);
    assert_eq!(
        line_of(&text, "launch inputs"),
        "launch inputs     deep links notes:// notes-beta://; listeners open-url 1, second-instance 1; single-instance lock taken; process.argv read 1 times",
        "{text}"
    );
    let envelope = envelope_in(dir.path());
    let result = &envelope["result"];
    assert_eq!(
        result["summary"]["launch_inputs"],
        serde_json::json!({
            "default_protocol_schemes": ["notes", "notes-beta"],
            "open_url_listeners": 1, "second_instance_listeners": 1, "open_file_listeners": 0,
            "continue_activity_listeners": 0, "single_instance_locks": 1, "process_argv_reads": 1
        })
    );
    let inputs_of = |path: &str| {
        result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "javascript-asset")
            .flat_map(|n| n["observations"].as_array().unwrap())
            .find(|o| o["properties"]["path"] == path)
            .map(|o| o["properties"]["electron_launch_inputs"].clone())
            .unwrap_or_else(|| panic!("no node for {path}"))
    };
    assert_eq!(
        inputs_of("links.js"),
        serde_json::json!([
            {"api": "open-url", "handler": "function", "line": 2, "column": 0},
            {"api": "open-file", "handler": "null", "line": 3, "column": 0}
        ])
    );
    assert_eq!(
        inputs_of("main.js"),
        serde_json::json!([
            {"api": "requestSingleInstanceLock", "line": 4, "column": 5},
            {"api": "second-instance", "handler": "function", "line": 5, "column": 0},
            {"api": "process.argv", "line": 6, "column": 14}
        ])
    );
}

/// Electron's checklist asks every IPC handler to validate its sender: the summary counts the
/// main process's handlers with no check of the sender in their code, which is the handler's
/// function, the function it is passed by name, and the functions of its file it calls.
#[test]
fn the_summary_counts_the_handlers_that_check_no_sender() {
    let files = [
        ("package.json", r#"{"name":"s","main":"main.js"}"#),
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
function trusted(event) { return event.senderFrame.url === "app://-/index.html"; }
ipcMain.handle("a", (event) => { if (event.senderFrame.origin !== "app://-") return; return 1; });
ipcMain.handle("b", (event) => { if (!trusted(event)) return null; return 2; });
ipcMain.on("c", (event) => event.reply("c", 3));
ipcMain.handle("d", onD);
function onD(event) { return event.sender.getURL() === "app://-/x" ? 4 : 0; }"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("c", () => {});"#,
        ),
    ];
    let dir = app_dir(&files);
    let text = summary_in(dir.path(), &[]);
    assert_eq!(
        line_of(&text, "sender checks"),
        "sender checks     1 of 4 main-process handlers with no check of the sender in their code (3 checks seen)",
        "{text}"
    );
    let envelope = envelope_in(dir.path());
    let summary = &envelope["result"]["summary"];
    assert_eq!(summary["ipc"]["main_handlers"], 4);
    assert_eq!(summary["ipc"]["main_handlers_without_sender_check"], 1);
    // The renderer's listener is no main-process handler.
    assert_eq!(summary["ipc"]["renderer_listeners"], 1);
}

/// Where an installed application looks for updates: electron-updater's `app-update.yml`
/// beside the application (its provider and where, plain HTTP, and the credentials it
/// carries, never their values), and the feed URLs the code sets.
#[test]
fn the_summary_says_where_the_application_looks_for_updates() {
    let files = [
        (
            "resources/app/package.json",
            r#"{"name":"desk","main":"main.js"}"#,
        ),
        (
            "resources/app/main.js",
            r#"const { app, autoUpdater } = require("electron");
autoUpdater.setFeedURL({ url: "https://updates.example.invalid/desk/darwin?token=abc" });"#,
        ),
        (
            "resources/app-update.yml",
            "owner: acme\nrepo: desk\nprovider: github\nprivate: true\ntoken: ghp_0123456789abcdef\nupdaterCacheDirName: desk-updater\n",
        ),
        (
            "resources/dev-app-update.yml",
            "provider: generic\nurl: http://192.168.1.20:8080/updates\n",
        ),
    ];
    let dir = app_dir(&files);
    let text = summary_in(dir.path(), &[]);
    let lines: Vec<&str> = lines_of(&text, "updates ");
    assert_eq!(
        lines,
        [
            "updates           resources/app-update.yml: provider github, owner acme, repo desk; carries credentials: token",
            "updates           resources/dev-app-update.yml: provider generic, url http://192.168.1.20:8080/updates; over plain HTTP",
            "updates           feed URLs set in code: https://updates.example.invalid/desk/darwin?token=%5BREDACTED%5D",
        ],
        "{text}"
    );
    let envelope = envelope_in(dir.path());
    let result = &envelope["result"];
    let feeds = &result["summary"]["update_feeds"];
    assert_eq!(feeds["configs_with_credentials"], 1);
    assert_eq!(
        feeds["configs"][0],
        serde_json::json!({"path": "resources/app-update.yml", "provider": "github", "plain_http": false,
            "credential_keys": ["token"],
            "fields": {"owner": "acme", "repo": "desk", "provider": "github", "private": "true",
                       "token": "[REDACTED]", "updaterCacheDirName": "desk-updater"}})
    );
    // The token is nowhere in the record.
    assert!(!envelope.to_string().contains("ghp_0123456789abcdef"));
    let node = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|n| n["observations"].as_array().unwrap())
        .find(|o| o["properties"]["path"] == "resources/dev-app-update.yml")
        .unwrap();
    assert_eq!(node["properties"]["file_kind"], "update-config");
    assert_eq!(
        node["properties"]["update_config"]["fields"]["url"],
        "http://192.168.1.20:8080/updates"
    );
}

/// The switches the main process appends to its command line: the summary counts them, names
/// those that turn a defence off (with their values), counts those not written as strings
/// and the global sandbox; each file's node lists its own calls.
#[test]
fn the_summary_lists_the_command_line_switches_the_main_process_appends() {
    let files = [
        ("package.json", r#"{"name":"s","main":"main.js"}"#),
        (
            "main.js",
            r#"const { app } = require("electron");
require("./flags");
if (process.env.DEBUG) app.commandLine.appendSwitch("remote-debugging-port", "9222");
app.commandLine.appendSwitch("enable-features", "SmoothScrolling");
app.enableSandbox();"#,
        ),
        (
            "flags.js",
            r#"const e = require("electron");
e.app.commandLine.appendSwitch("--no-sandbox");
e.app.commandLine.appendArgument("--ignore-certificate-errors");
e.app.commandLine.appendSwitch(process.env.EXTRA_SWITCH);"#,
        ),
    ];
    let dir = app_dir(&files);
    let text = summary_in(dir.path(), &[]);
    assert_eq!(
        line_of(&text, "switches"),
        "switches          6 appended to the command line, 3 weakening a defence (ignore-certificate-errors, no-sandbox, remote-debugging-port=9222), 1 not written as strings; app.enableSandbox() called",
        "{text}"
    );
    let envelope = envelope_in(dir.path());
    let result = &envelope["result"];
    let summary = &result["summary"]["command_line_switches"];
    assert_eq!(summary["calls"], 6);
    assert_eq!(summary["weakening_calls"], 3);
    assert_eq!(
        summary["weakening_switches"],
        serde_json::json!([
            "ignore-certificate-errors",
            "no-sandbox",
            "remote-debugging-port"
        ])
    );
    assert_eq!(summary["dynamic_calls"], 1);
    assert_eq!(summary["enable_sandbox_calls"], 1);
    let items: Vec<(&str, u64, &str, bool)> = summary["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap(),
                i["line"].as_u64().unwrap(),
                i["api"].as_str().unwrap(),
                i["weakens"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            ("flags.js", 2, "appendSwitch", true),
            ("flags.js", 3, "appendArgument", true),
            ("flags.js", 4, "appendSwitch", false),
            ("main.js", 3, "appendSwitch", true),
            ("main.js", 4, "appendSwitch", false),
            ("main.js", 5, "enableSandbox", false),
        ]
    );
    let node = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "javascript-asset")
        .flat_map(|n| n["observations"].as_array().unwrap())
        .find(|o| o["properties"]["path"] == "main.js")
        .unwrap();
    assert_eq!(
        node["properties"]["electron_command_line_switches"][0],
        serde_json::json!({"api": "appendSwitch", "switch": "remote-debugging-port", "value": "9222",
                           "dynamic_expression": null, "line": 3, "column": 23})
    );
}

/// What a renderer's message can make the main process do: each process boundary written in
/// an IPC handler's code (inline, in the function it is passed by name, or in a function that
/// code calls), with whether its target is written there; a boundary outside any handler is
/// not listed.
#[test]
fn the_summary_lists_the_process_boundaries_ipc_handlers_reach() {
    let files = [
        ("package.json", r#"{"name":"hb","main":"main.js"}"#),
        (
            "main.js",
            r#"const { ipcMain, shell, BrowserWindow } = require("electron");
const { exec } = require("child_process");
ipcMain.handle("open-link", (event, url) => shell.openExternal(url));
ipcMain.on("help", () => shell.openExternal("https://example.com/help"));
ipcMain.handle("run", onRun);
function onRun(event, cmd) { return runIt(cmd); }
function runIt(cmd) { exec(cmd); }
shell.openExternal("https://outside.example");
ipcMain.on("quit", () => app.quit());"#,
        ),
    ];
    let dir = app_dir(&files);
    let envelope = envelope_in(dir.path());
    let reached = &envelope["result"]["summary"]["ipc_handler_boundaries"];
    let items: Vec<(&str, &str, u64, &str, bool, &str, u64)> = reached["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["channel"].as_str().unwrap(),
                b["operation"].as_str().unwrap(),
                b["line"].as_u64().unwrap(),
                b["kind"].as_str().unwrap(),
                b["static"].as_bool().unwrap(),
                b["target"].as_str().unwrap(),
                b["boundary_line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            ("open-link", "handle", 3, "open-external", false, "url", 3),
            (
                "help",
                "on",
                4,
                "open-external",
                true,
                "https://example.com/help",
                4
            ),
            ("run", "handle", 5, "child-process", false, "cmd", 7),
        ]
    );
    assert_eq!(reached["boundaries"], 3);
    assert_eq!(reached["dynamic_targets"], 2);
    // The summary counts every open-external call, the one outside a handler too.
    assert_eq!(envelope["result"]["summary"]["open_external_calls"], 3);
    let text = summary_in(dir.path(), &[]);
    let lines: Vec<&str> = lines_of(&text, "handler reach");
    assert_eq!(
        lines,
        [
            "handler reach     3 process boundaries in IPC handlers' code, 2 with a target not written there",
            "handler reach     open-link (main handle, main.js:3) -> open-external electron.shell.openExternal(url) dynamic at main.js:3",
            "handler reach     run (main handle, main.js:5) -> child-process child_process.exec(cmd) dynamic at main.js:7",
            "handler reach     help (main on, main.js:4) -> open-external electron.shell.openExternal(https://example.com/help) at main.js:4",
        ],
        "{text}"
    );
}

/// A handler that calls a function another file exports reaches the boundaries written in
/// that function, or in a function of that file it calls by name; a function the file does
/// not export, or an export the handler does not call, adds nothing.
#[test]
fn handlers_reach_boundaries_through_functions_other_files_export() {
    let files = [
        ("package.json", r#"{"name":"hb","main":"main.mjs"}"#),
        (
            "main.mjs",
            r#"import { ipcMain } from "electron";
import { openLink } from "./lib/actions.mjs";
import tools from "./lib/tools.cjs";
ipcMain.handle("open-link", (event, url) => openLink(url));
ipcMain.on("tool", (event, name) => { tools.runTool(name); });"#,
        ),
        (
            "lib/actions.mjs",
            r#"import { shell } from "electron";
export function openLink(url) { return shell.openExternal(url); }
export const help = () => shell.openExternal("https://example.com/help");"#,
        ),
        (
            "lib/tools.cjs",
            r#"const { spawn, exec } = require("child_process");
function launch(bin) { return spawn(bin, []); }
module.exports.runTool = function runTool(name) { return launch("/usr/bin/" + name); };
module.exports.clean = () => exec("rm -rf /tmp/cache");"#,
        ),
    ];
    let dir = app_dir(&files);
    let envelope = envelope_in(dir.path());
    let reached = &envelope["result"]["summary"]["ipc_handler_boundaries"];
    let items: Vec<(&str, &str, &str, u64, &str, &str)> = reached["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["channel"].as_str().unwrap(),
                b["kind"].as_str().unwrap(),
                b["target"].as_str().unwrap(),
                b["boundary_line"].as_u64().unwrap(),
                b["via"]["path"].as_str().unwrap(),
                b["via"]["export"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (
                "open-link",
                "open-external",
                "url",
                2,
                "lib/actions.mjs",
                "openLink"
            ),
            (
                "tool",
                "child-process",
                "bin",
                2,
                "lib/tools.cjs",
                "runTool"
            ),
        ]
    );
    let text = summary_in(dir.path(), &[]);
    assert!(
        text.contains("tool (main on, main.mjs:5) -> child-process child_process.spawn(bin) dynamic at lib/tools.cjs:2 in runTool"),
        "{text}"
    );
}

/// A bridge member that passes the page's argument to `ipcRenderer` as the channel lets the
/// page pick any channel: the summary lists those members, and the bridge's node says which
/// parameter is the channel; a member with its own channel is not one.
#[test]
fn the_summary_lists_bridge_members_through_which_pages_pick_the_channel() {
    let files = [
        ("package.json", r#"{"name":"fw","main":"main.js"}"#),
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: require("path").join(__dirname, "preload.js") } });"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("bridge", {
  getUser: () => ipcRenderer.invoke("user:get"),
  send: (channel, ...args) => ipcRenderer.send(channel, ...args),
  request: (id, channel, data) => ipcRenderer.invoke(channel, id, data),
  subscribe: (channel, listener) => ipcRenderer.on(channel, (event, ...args) => listener(...args)),
});"#,
        ),
    ];
    let dir = app_dir(&files);
    let envelope = envelope_in(dir.path());
    let result = &envelope["result"];
    assert_eq!(
        result["summary"]["bridge_channel_forwarders"],
        serde_json::json!({"members": 3, "omitted": 0, "items": [
            {"api_key": "bridge", "member": "request", "operation": "invoke", "path": "preload.js"},
            {"api_key": "bridge", "member": "send", "operation": "send", "path": "preload.js"},
            {"api_key": "bridge", "member": "subscribe", "operation": "on", "path": "preload.js"},
        ]})
    );
    let bridge = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "context-bridge-api")
        .unwrap();
    assert_eq!(
        bridge["observations"][0]["properties"]["channel_forwarders"][0],
        serde_json::json!({"member": "request", "operation": "invoke", "channel_parameter": 1})
    );
    let text = summary_in(dir.path(), &[]);
    assert_eq!(
        line_of(&text, "any channel"),
        "any channel       pages pick the channel through 3 bridge members in 1 files: sending bridge.request, bridge.send; listening bridge.subscribe",
        "{text}"
    );
}

/// In a bundle whose modules stay factories (webpack without concatenation, as for CommonJS
/// sources), a handler that calls what another factory exports reaches the boundaries written
/// in that export's function: assigned to `exports`, or returned by webpack's getter.
#[test]
fn handlers_reach_boundaries_through_other_factories_exports() {
    let bundle = r#"(()=>{var e={367(e,r,o){const{shell:n}=o(482);r.openLink=function(e){return n.openExternal(e)}},482(e){"use strict";e.exports=require("electron")},317(e){"use strict";e.exports=require("child_process")},441(e,r,o){"use strict";o.d(r,{runTool:()=>t});var n=o(317);function t(e){return(0,n.spawn)("/usr/bin/"+e,[])}}};const r={};function o(n){const t=r[n];if(void 0!==t)return t.exports;const s=r[n]={exports:{}};return e[n](s,s.exports,o),s.exports}o.d=(e,r)=>{for(var n in r)o.o(r,n)&&!o.o(e,n)&&Object.defineProperty(e,n,{enumerable:!0,get:r[n]})},o.o=(e,r)=>Object.prototype.hasOwnProperty.call(e,r);const{ipcMain:n}=o(482),t=o(367),s=o(441);n.handle("open-link",(e,r)=>t.openLink(r)),n.on("tool",(e,r)=>{s.runTool(r)})})();"#;
    let files = [
        ("package.json", r#"{"name":"w","main":"main.js"}"#),
        ("main.js", bundle),
    ];
    let dir = app_dir(&files);
    let envelope = envelope_in(dir.path());
    let items: Vec<(&str, &str, &str, serde_json::Value)> =
        envelope["result"]["summary"]["ipc_handler_boundaries"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["channel"].as_str().unwrap(),
                    b["kind"].as_str().unwrap(),
                    b["target"].as_str().unwrap(),
                    b["via"].clone(),
                )
            })
            .collect();
    assert_eq!(
        items,
        [
            (
                "open-link",
                "open-external",
                "e",
                serde_json::json!({"path": "main.js", "module_key": 367, "export": "openLink"})
            ),
            (
                "tool",
                "child-process",
                "\"/usr/bin/\"+e",
                serde_json::json!({"path": "main.js", "module_key": 441, "export": "runTool"})
            ),
        ]
    );
    let text = summary_in(dir.path(), &[]);
    assert!(
        text.contains("-> child-process child_process.spawn(\"/usr/bin/\"+e) dynamic at main.js:1 in module 441 runTool"),
        "{text}"
    );
}

/// A bridge whose own code runs a process boundary (a preload with Node.js) gives the page
/// that boundary: the summary lists it with the API's key; the preload's own call outside the
/// bridge is not listed.
#[test]
fn the_summary_lists_the_process_boundaries_a_bridges_code_reaches() {
    let files = [
        ("package.json", r#"{"name":"b","main":"main.js"}"#),
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { sandbox: false, preload: require("path").join(__dirname, "preload.js") } });"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, shell } = require("electron");
const { exec } = require("child_process");
contextBridge.exposeInMainWorld("native", {
  run: (cmd) => exec(cmd),
  docs: () => shell.openExternal("https://example.com/docs"),
  version: process.versions.electron,
});
exec("echo preload");"#,
        ),
    ];
    let dir = app_dir(&files);
    let envelope = envelope_in(dir.path());
    let reached = &envelope["result"]["summary"]["bridge_boundaries"];
    assert_eq!(
        reached,
        &serde_json::json!({"boundaries": 2, "dynamic_targets": 1, "omitted": 0, "items": [
            {"api_key": "native", "path": "preload.js", "line": 3, "kind": "child-process",
             "api": "child_process.exec", "static": false, "target": "cmd", "boundary_line": 4},
            {"api_key": "native", "path": "preload.js", "line": 3, "kind": "open-external",
             "api": "electron.shell.openExternal", "static": true,
             "target": "https://example.com/docs", "boundary_line": 5},
        ]})
    );
    assert_eq!(envelope["result"]["summary"]["child_process_calls"], 2);
    let text = summary_in(dir.path(), &[]);
    assert!(
        text.contains("bridge reach      native (preload.js:3) -> child-process child_process.exec(cmd) dynamic at preload.js:4"),
        "{text}"
    );
}

/// The summary's source-map line: the maps shipped, those the code links by its
/// `sourceMappingURL`, and, once their contents are read, the original sources they name and
/// how many of those carry their text.
#[test]
fn the_summary_says_what_source_maps_were_shipped_linked_and_read() {
    let files = [
        ("package.json", r#"{"name":"m","main":"main.js"}"#),
        (
            "main.js",
            "const { app } = require(\"electron\");\napp.quit();\n//# sourceMappingURL=main.js.map\n",
        ),
        (
            "main.js.map",
            r#"{"version":3,"sources":["src/a.ts","src/b.ts"],"sourcesContent":["export const a = 1;",null],"mappings":"AAAA","names":[]}"#,
        ),
        (
            "stray.js.map",
            r#"{"version":3,"sources":["src/c.ts"],"sourcesContent":["export const c = 3;"],"mappings":"AAAA","names":[]}"#,
        ),
    ];
    let dir = app_dir(&files);
    let line = |extra: &[&str]| line_of(&summary_in(dir.path(), extra), "source maps");
    assert_eq!(
        line(&[]),
        "source maps       2 maps, 1 linked from code; contents not read (--source-maps contents reads them)"
    );
    let read = line(&["--source-maps", "contents"]);
    assert!(
        read.starts_with("source maps       2 maps, 1 linked from code; "),
        "{read}"
    );
    assert!(
        read.ends_with("3 original sources, 2 with contents"),
        "{read}"
    );
}

#[test]
fn bad_input_and_bad_flags_get_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, b"hello").unwrap();
    let array = dir.path().join("array.json");
    std::fs::write(&array, b"[1, 2]").unwrap();
    // (arguments, error code, details.reason)
    for (args, code, reason) in [
        (
            vec![
                "analyze-javascript-application",
                "/definitely/missing",
                "--json",
            ],
            "artifact_operation_failed",
            "path",
        ),
        (
            vec![
                "analyze-javascript-application",
                text.to_str().unwrap(),
                "--json",
            ],
            "artifact_operation_failed",
            "format",
        ),
        (
            vec![
                "analyze-javascript-application",
                sample().to_str().unwrap(),
                "--format",
                "asar",
                "--json",
            ],
            "artifact_operation_failed",
            "format",
        ),
        (
            vec![
                "analyze-javascript-application",
                sample().to_str().unwrap(),
                "--max-text-files",
                "0",
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
        // Two versions to compare: a file that is not there, text that is not JSON, and
        // JSON that is not Evidence.
        (
            vec![
                "compare-application-versions",
                "/definitely/missing.json",
                text.to_str().unwrap(),
                "--json",
            ],
            "artifact_operation_failed",
            "path",
        ),
        (
            vec![
                "compare-application-versions",
                text.to_str().unwrap(),
                text.to_str().unwrap(),
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
        (
            vec![
                "compare-application-versions",
                array.to_str().unwrap(),
                array.to_str().unwrap(),
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
        // A trace of a file that is not there, of text that is not JSON, of JSON that is not
        // Evidence, and with a seed out of bounds.
        (
            vec![
                "trace-application-feature",
                "/definitely/missing.json",
                "--seed-kind",
                "api",
                "--seed",
                "x",
                "--json",
            ],
            "artifact_operation_failed",
            "path",
        ),
        (
            vec![
                "trace-application-feature",
                text.to_str().unwrap(),
                "--seed-kind",
                "api",
                "--seed",
                "x",
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
        (
            vec![
                "trace-application-feature",
                array.to_str().unwrap(),
                "--seed-kind",
                "channel",
                "--seed",
                "x",
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
        (
            vec![
                "trace-application-feature",
                array.to_str().unwrap(),
                "--seed-kind",
                "string",
                "--seed",
                "",
                "--json",
            ],
            "invalid_request",
            "invalid_input",
        ),
    ] {
        let output = run(&args);
        no_panic(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let error: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let error = &error["error"];
        for key in [
            "code",
            "category",
            "message",
            "retryable",
            "remediation",
            "details",
        ] {
            assert!(!error[key].is_null(), "{args:?}: {key} missing in {error}");
        }
        assert_eq!(
            (error["code"].as_str(), error["details"]["reason"].as_str()),
            (Some(code), Some(reason)),
            "{args:?}"
        );
    }
    for args in [
        vec!["trace-application-feature", "a.json", "--seed", "x"],
        vec![
            "trace-application-feature",
            "a.json",
            "--seed-kind",
            "regex",
            "--seed",
            "x",
        ],
        vec![
            "trace-application-feature",
            "a.json",
            "--seed-kind",
            "api",
            "--seed",
            "x",
            "--max-depth",
            "65",
        ],
        vec!["analyze-javascript-application"],
        vec!["analyze-javascript-application", ".", "--format", "rar"],
        vec![
            "analyze-javascript-application",
            ".",
            "--source-maps",
            "all",
        ],
    ] {
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn a_reader_that_closes_early_does_not_crash_the_summary() {
    let mut child = rea()
        .args(["analyze-javascript-application", sample().to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close our end before rea prints: its writes then fail with a broken pipe.
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0));
}

/// Transmissions that reach no handler are listed, with the main process's registration of
/// their channel in the other mode when it has one.
#[test]
fn the_summary_lists_unpaired_channels_and_a_mode_that_does_not_answer() {
    let summary = summary_of(&[
        ("package.json", r#"{"name":"u","main":"main.js"}"#),
        (
            "main.js",
            r#"const { ipcMain } = require("electron"); ipcMain.on("log", () => {});"#,
        ),
        (
            "page.js",
            r#"const { ipcRenderer } = require("electron"); ipcRenderer.invoke("log"); ipcRenderer.send("gone");"#,
        ),
    ]);
    assert_eq!(
        line_of(&summary, "unpaired          log"),
        "unpaired          log: invoke (main registers it with on only)"
    );
    assert_eq!(
        line_of(&summary, "unpaired          gone"),
        "unpaired          gone: send (no main-side registration seen)"
    );
}

#[test]
fn the_summary_lists_the_main_entrypoint_first_and_counts_the_roles_past_twelve() {
    // A page that loads fourteen scripts: sixteen roles, more than the summary lists (the
    // main entrypoint's other file has no role).
    let scripts: Vec<String> = (0..14).map(|i| format!("js/s{i:02}.js")).collect();
    let page: String = scripts
        .iter()
        .map(|s| format!("<script src=\"{s}\"></script>\n"))
        .collect();
    let mut files: Vec<(&str, &str)> = vec![
        ("package.json", r#"{"name":"roles","main":"z-main.js"}"#),
        (
            "z-main.js",
            r#"const { BrowserWindow } = require("electron");
require("./a-other.js");
new BrowserWindow({ width: 800 }).loadFile("a-page.html");
"#,
        ),
        (
            "a-other.js",
            r#"const { BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { sandbox: false } });
"#,
        ),
        ("a-page.html", &page),
    ];
    files.extend(scripts.iter().map(|s| (s.as_str(), "void 0;\n")));
    let text = summary_of(&files);
    let roles: Vec<&str> = lines_of(&text, "electron-");
    assert_eq!(roles.len(), 12, "{text}");
    // The main entrypoint first, though its path sorts last; then the page before its scripts.
    assert!(
        roles[0].starts_with("electron-main     z-main.js"),
        "{text}"
    );
    assert!(
        roles[1].starts_with("electron-renderer a-page.html"),
        "{text}"
    );
    assert!(
        roles[2].starts_with("electron-renderer js/s00.js"),
        "{text}"
    );
    assert_eq!(
        line_of(&text, "roles"),
        "roles             4 more: 4 electron-renderer"
    );
    // The main entrypoint's own window first; one whose options write no `webPreferences`
    // says so.
    let windows: Vec<&str> = lines_of(&text, "window ");
    assert_eq!(
        windows,
        [
            "window            BrowserWindow in z-main.js preload=- loads=a-page.html webPreferences=missing",
            "window            BrowserWindow in a-other.js preload=- sandbox=false",
        ]
    );
}

#[test]
fn a_window_line_says_what_the_window_loads() {
    let text = summary_of(&[
        ("package.json", r#"{"name":"loads","main":"main.js"}"#),
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
function open() {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true } });
  win.loadURL("https://app.example.com/login?session=s3cret");
  win.loadFile("offline.html");
}
function help() {
  const win = new BrowserWindow({ webPreferences: { sandbox: true } });
  win.loadFile("help.html");
  win.loadURL("https://docs.example.com/");
}
const unmatched = new BrowserWindow({});
open();
help();
"#,
        ),
        ("offline.html", "<p>offline</p>"),
        ("help.html", "<p>help</p>"),
    ]);
    let windows: Vec<&str> = lines_of(&text, "window ");
    // In source order; the page first, then the web URL, redacted.
    assert_eq!(
        windows,
        [
            "window            BrowserWindow in main.js preload=- loads=offline.html(+1) nodeIntegration=true",
            "window            BrowserWindow in main.js preload=- loads=help.html(+1) sandbox=true",
            "window            BrowserWindow in main.js preload=- webPreferences=missing",
        ],
        "{text}"
    );
    // The web page in a window with Node.js, not the one in the sandboxed window.
    assert_eq!(
        line_of(&text, "remote content"),
        "remote content    https://app.example.com/login?session=%5BREDACTED%5D in BrowserWindow at main.js:3 with nodeIntegration=true"
    );
    assert_eq!(lines_of(&text, "remote content").len(), 1, "{text}");
}

#[test]
fn the_summary_says_what_the_main_process_sends_pages_and_what_no_page_hears() {
    let text = summary_of(&[
        ("package.json", r#"{"name":"push","main":"main.js"}"#),
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
const win = new BrowserWindow({});
win.loadFile("index.html");
win.webContents.send("menu:open");
win.webContents.send("update-ready");
"#,
        ),
        ("index.html", r#"<script src="page.js"></script>"#),
        (
            "page.js",
            r#"require("electron").ipcRenderer.on("menu:open", () => {});"#,
        ),
    ]);
    assert_eq!(
        line_of(&text, "to pages"),
        "to pages          the main process sends 2 messages on 2 literal channels, 1 of which a page listens on; no page listens on update-ready"
    );
}
