//! Electron security facts judged by a third-party tool: Doyensec's Electronegativity 1.10.3
//! (installed by `corpora/scripts/electronegativity-corpus.sh`) reads
//! `corpora/javascript/security-app` with its own parsers (Babel, cheerio), and its atomic
//! checks locate what REA must find too:
//!
//! - `AUXCLICK_JS_CHECK`: every `new BrowserWindow`/`new BrowserView` (none of the app's sets
//!   `disableBlinkFeatures`), so every window REA finds, at the same line and column;
//! - `LIMIT_NAVIGATION_JS_CHECK`: `.on("will-navigate" | "new-window", …)` and
//!   `.setWindowOpenHandler(…)` calls, REA's security handlers of those kinds;
//! - `PERMISSION_REQUEST_HANDLER_JS_CHECK`: `.setPermissionRequestHandler(…)`;
//! - `OPEN_EXTERNAL_JS_CHECK`: `.openExternal(x)` where `x` is not a string literal, REA's
//!   open-external targets that are not static;
//! - `CSP_HTML_CHECK`: each `<meta http-equiv="Content-Security-Policy">`, REA's meta
//!   policies, at the same line;
//! - `PROTOCOL_HANDLER_JS_CHECK`: calls that register a URL scheme (`register*Protocol`,
//!   `setAsDefaultProtocolClient`, …), REA's URL scheme registrations of those methods;
//! - `CERTIFICATE_ERROR_EVENT_JS_CHECK` and `CERTIFICATE_VERIFY_PROC_JS_CHECK`: listeners for
//!   `certificate-error`, and `setCertificateVerifyProc`/`importCertificate` calls, REA's
//!   certificate handlers;
//! - `SANDBOX_JS_CHECK`, `WEB_SECURITY_JS_CHECK`, `INSECURE_CONTENT_JS_CHECK` and
//!   `EXPERIMENTAL_FEATURES_JS_CHECK`: windows whose `webPreferences` leave the sandbox off
//!   (not `sandbox: true`), turn `webSecurity` off, or turn `allowRunningInsecureContent` or
//!   the experimental features on, read off REA's explicit web preferences. The tool locates
//!   a preference at its key, and an absent `sandbox` at the window: each is compared by the
//!   window whose range holds it;
//! - `CUSTOM_ARGUMENTS_JS_CHECK`: `appendSwitch`/`appendArgument` calls whose first argument,
//!   a string literal, holds one of the switches the tool's check lists, REA's command-line
//!   switches whose name holds one (the list is the tool's own, [`DANGEROUS_SWITCHES`]);
//! - `HTTP_RESOURCES_JS_CHECK`: `loadURL` of a string starting `http://`, REA's `loadURL`
//!   endpoints over plain HTTP;
//! - `NODE_INTEGRATION_HTML_CHECK`, `WEB_SECURITY_HTML_CHECK` and `ALLOWPOPUPS_HTML_CHECK`:
//!   `<webview>` tags that give their guest Node.js, turn its web security off (an attribute,
//!   or `webSecurity=no` in `webpreferences`) or let it open windows, REA's webview tags, at
//!   the tag's line.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

type Located = BTreeSet<(String, String, u64, u64)>;

/// Electronegativity's findings of the checks above: (check, file, line, column).
fn electronegativity(app: &Path) -> Located {
    let tool = support::corpus("electronegativity-corpus.sh", "electronegativity");
    let out = tempfile::tempdir().unwrap();
    // SARIF, written in one piece: its CSV output is two unordered asynchronous writes (the
    // header truncates the file while the rows are appended), which now and then lose rows.
    let sarif_path = out.path().join("findings.sarif");
    let output = Command::new(tool.join("node_modules/.bin/electronegativity"))
        .arg("-i")
        .arg(app)
        .arg("-o")
        .arg(&sarif_path)
        // Relative paths, no descriptions, and an Electron version given, so that it does
        // not look one up online.
        .args(["-r", "-v", "false", "-e", "30.0.0", "-l"])
        .arg("CSPHTMLCheck,LimitNavigationJSCheck,PermissionRequestHandlerJSCheck,OpenExternalJSCheck,AuxclickJSCheck,ProtocolHandlerJSCheck,CertificateErrorEventJSCheck,CertificateVerifyProcJSCheck,SandboxJSCheck,WebSecurityJSCheck,InsecureContentJSCheck,ExperimentalFeaturesJSCheck,CustomArgumentsJSCheck,HTTPResourcesJavascriptCheck,NodeIntegrationHTMLCheck,WebSecurityHTMLCheck,AllowPopupsHTMLCheck")
        .output()
        .expect("electronegativity runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sarif: Value = serde_json::from_slice(&std::fs::read(&sarif_path).unwrap()).unwrap();
    sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            let region = &location["region"];
            (
                result["ruleId"].as_str().unwrap().to_owned(),
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                region["startLine"].as_u64().unwrap(),
                // SARIF counts columns from 1.
                region["startColumn"].as_u64().unwrap() - 1,
            )
        })
        .collect()
}

/// The switches Electronegativity 1.10.3's `CUSTOM_ARGUMENTS_JS_CHECK` calls dangerous, as its
/// source lists them (`src/finder/checks/AtomicChecks/CustomArgumentsJSCheck.js`); a call is
/// flagged when its first argument holds one.
const DANGEROUS_SWITCHES: &[&str] = &[
    "ignore-certificate-errors",
    "ignore-certificate-errors-spki-list",
    "ignore-urlfetcher-cert-requests",
    "disable-web-security",
    "host-rules",
    "host-resolver-rules",
    "auth-server-whitelist",
    "auth-negotiate-delegate-whitelist",
    "js-flags",
    "allow-file-access-from-files",
    "allow-no-sandbox-job",
    "allow-running-insecure-content",
    "cipher-suite-blacklist",
    "debug-packed-apps",
    "disable-features",
    "disable-kill-after-bad-ipc",
    "disable-webrtc-encryption",
    "disable-xss-auditor",
    "enable-local-file-accesses",
    "enable-nacl-debug",
    "remote-debugging-address",
    "remote-debugging-port",
    "inspect",
    "inspect-brk",
    "explicitly-allowed-ports",
    "expose-internals-for-testing",
    "gpu-launcher",
    "nacl-dangerous-no-sandbox-nonsfi",
    "nacl-gdb-script",
    "net-log-capture-mode",
    "no-sandbox",
    "reduce-security-for-testing",
    "unsafely-treat-insecure-origin-as-secure",
];

/// The same findings, read off REA's application graph.
fn ours(result: &Value) -> Located {
    let mut found = Located::new();
    for node in result["graph"]["nodes"].as_array().unwrap() {
        let observation = &node["observations"][0];
        let props = &observation["properties"];
        let location = &observation["evidence"]["location"];
        let at = |check: &str| {
            (
                check.to_owned(),
                location["source"].as_str().unwrap().to_owned(),
                location["start"]["line"].as_u64().unwrap(),
                location["start"]["column"].as_u64().unwrap(),
            )
        };
        match node["kind"].as_str().unwrap() {
            "browser-window" => {
                found.insert(at("AUXCLICK_JS_CHECK"));
                let literal = |name: &str| {
                    props["web_preferences"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|p| p["name"] == name && p["value"]["kind"] == "literal")
                        .map(|p| p["value"]["value"].clone())
                };
                let yes = Some(Value::Bool(true));
                let risky = [
                    ("SANDBOX_JS_CHECK", literal("sandbox") != yes),
                    (
                        "WEB_SECURITY_JS_CHECK",
                        literal("webSecurity") == Some(Value::Bool(false)),
                    ),
                    (
                        "INSECURE_CONTENT_JS_CHECK",
                        literal("allowRunningInsecureContent") == yes,
                    ),
                    (
                        "EXPERIMENTAL_FEATURES_JS_CHECK",
                        literal("experimentalFeatures") == yes
                            || literal("experimentalCanvasFeatures") == yes,
                    ),
                ];
                for (check, flagged) in risky {
                    if flagged {
                        found.insert(at(check));
                    }
                }
            }
            "target" if props["kind"] == "open-external" && props["static"] == false => {
                found.insert(at("OPEN_EXTERNAL_JS_CHECK"));
            }
            "endpoint"
                if props["mechanism"] == "loadURL"
                    && props["value"]
                        .as_str()
                        .is_some_and(|url| url.starts_with("http://")) =>
            {
                found.insert(at("HTTP_RESOURCES_JS_CHECK"));
            }
            _ => {}
        }
        let path = props["path"].as_str().unwrap_or_default();
        for handler in props["electron_security_handlers"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let check = match handler["api"].as_str().unwrap() {
                "will-navigate" | "new-window" | "setWindowOpenHandler" => {
                    "LIMIT_NAVIGATION_JS_CHECK"
                }
                "setPermissionRequestHandler" => "PERMISSION_REQUEST_HANDLER_JS_CHECK",
                "certificate-error" => "CERTIFICATE_ERROR_EVENT_JS_CHECK",
                "setCertificateVerifyProc" | "importCertificate" => {
                    "CERTIFICATE_VERIFY_PROC_JS_CHECK"
                }
                _ => continue,
            };
            found.insert((
                check.to_owned(),
                path.to_owned(),
                handler["line"].as_u64().unwrap(),
                handler["column"].as_u64().unwrap(),
            ));
        }
        // The methods the tool's check names (not `handle`, nor the privileges' methods of
        // Electron 5 and later).
        for scheme in props["url_schemes"].as_array().into_iter().flatten() {
            let api = scheme["api"].as_str().unwrap();
            if api.starts_with("register") && api.ends_with("Protocol")
                || matches!(
                    api,
                    "setAsDefaultProtocolClient"
                        | "registerStandardSchemes"
                        | "registerServiceWorkerSchemes"
                )
            {
                found.insert((
                    "PROTOCOL_HANDLER_JS_CHECK".to_owned(),
                    path.to_owned(),
                    scheme["line"].as_u64().unwrap(),
                    scheme["column"].as_u64().unwrap(),
                ));
            }
        }
        for switch in props["electron_command_line_switches"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let name = switch["switch"].as_str().unwrap_or_default();
            if DANGEROUS_SWITCHES.iter().any(|d| name.contains(d)) {
                found.insert((
                    "CUSTOM_ARGUMENTS_JS_CHECK".to_owned(),
                    path.to_owned(),
                    switch["line"].as_u64().unwrap(),
                    switch["column"].as_u64().unwrap(),
                ));
            }
        }
        // The tool reads the tags of pages (its HTML checks), not those code writes.
        for webview in props["webview_tags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|w| w["written"] == "html")
        {
            let flagged = [
                (
                    "NODE_INTEGRATION_HTML_CHECK",
                    webview["node_integration"] == true,
                ),
                (
                    "WEB_SECURITY_HTML_CHECK",
                    webview["web_security_disabled"] == true,
                ),
                (
                    "ALLOWPOPUPS_HTML_CHECK",
                    webview["attributes"]
                        .as_array()
                        .unwrap()
                        .contains(&Value::from("allowpopups")),
                ),
            ];
            for (check, _) in flagged.into_iter().filter(|(_, flagged)| *flagged) {
                // Electronegativity locates a tag by its line only.
                found.insert((
                    check.to_owned(),
                    path.to_owned(),
                    webview["line"].as_u64().unwrap(),
                    0,
                ));
            }
        }
        for policy in props["content_security_policy"]["policies"]
            .as_array()
            .into_iter()
            .flatten()
        {
            // Electronegativity locates a meta tag by its line only.
            found.insert((
                "CSP_HTML_CHECK".to_owned(),
                path.to_owned(),
                policy["line"].as_u64().unwrap(),
                0,
            ));
        }
    }
    found
}

/// The checks that locate a window's preference at its key, each moved to the start of the
/// window whose range (in REA's graph) holds it.
const PREFERENCE_CHECKS: [&str; 4] = [
    "SANDBOX_JS_CHECK",
    "WEB_SECURITY_JS_CHECK",
    "INSECURE_CONTENT_JS_CHECK",
    "EXPERIMENTAL_FEATURES_JS_CHECK",
];

/// `judged` with each preference finding placed at the window that holds it.
fn by_window(judged: Located, result: &Value) -> Located {
    type Point = (u64, u64);
    let windows: Vec<(String, Point, Point)> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "browser-window")
        .map(|n| {
            let location = &n["observations"][0]["evidence"]["location"];
            let point = |p: &Value| (p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap());
            (
                location["source"].as_str().unwrap().to_owned(),
                point(&location["start"]),
                point(&location["end"]),
            )
        })
        .collect();
    judged
        .into_iter()
        .map(|(check, file, line, column)| {
            if !PREFERENCE_CHECKS.contains(&check.as_str()) {
                return (check, file, line, column);
            }
            let (_, (line, column), _) = windows
                .iter()
                .find(|(source, start, end)| {
                    *source == file && *start <= (line, column) && (line, column) <= *end
                })
                .unwrap_or_else(|| panic!("{check} at {file}:{line}:{column} is in no window"));
            (check, file, *line, *column)
        })
        .collect()
}

#[test]
fn windows_handlers_open_external_and_policies_match_electronegativity() {
    let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/javascript/security-app");
    let result = support::tool_json("analyze-javascript-application", &app, &[]);
    let judged = by_window(electronegativity(&app), &result["result"]);
    let found = ours(&result["result"]);
    assert_eq!(found, judged);
    // Every check found something, so the comparison covered each of them.
    let checks: BTreeSet<&str> = judged.iter().map(|(check, ..)| check.as_str()).collect();
    assert_eq!(checks.len(), 17, "{checks:?}");
    // REA also reads what the tool's checks do not: the listeners guarding webviews and
    // redirects, the hook that installs them, and the policies' verdicts.
    let handlers = &result["result"]["summary"]["security_handlers"];
    assert_eq!(handlers["webview_attach_listeners"], 1);
    assert_eq!(handlers["web_contents_created_listeners"], 1);
    assert_eq!(handlers["navigation_listeners"], 3);
    assert_eq!(handlers["certificate_handlers"], 2);
    // The schemes by name, with what the tool does not read: the privileges granted.
    let schemes = &result["result"]["summary"]["url_schemes"];
    assert_eq!(
        schemes["schemes"],
        serde_json::json!([
            {"scheme": "app", "apis": ["registerFileProtocol", "registerSchemesAsPrivileged"],
             "privileges": ["secure", "standard", "supportFetchAPI"]},
            {"scheme": "legacy", "apis": ["registerHttpProtocol"], "privileges": []},
            {"scheme": "security-app", "apis": ["setAsDefaultProtocolClient"], "privileges": []},
        ])
    );
    assert_eq!(schemes["dynamic_registrations"], 0);
    // The web pages the windows load, and the one over plain HTTP.
    let pages = &result["result"]["summary"]["renderer_pages"];
    assert_eq!(pages["web_urls_loaded"], 2);
    assert_eq!(
        pages["plain_http_urls"],
        serde_json::json!(["http://legacy.example.invalid/status"])
    );
    // Of the switches, those that turn a defence off by REA's account: not `js-flags`, which
    // the tool flags for review, nor the two it does not flag.
    let switches = &result["result"]["summary"]["command_line_switches"];
    assert_eq!(switches["calls"], 7);
    assert_eq!(
        switches["weakening_switches"],
        serde_json::json!([
            "disable-web-security",
            "host-resolver-rules",
            "ignore-certificate-errors",
            "remote-debugging-port"
        ])
    );
    // The webview tags, counted; their sources keep no secret.
    let mut webviews = result["result"]["summary"]["webview_tags"].clone();
    let items = webviews.as_object_mut().unwrap().remove("items").unwrap();
    assert_eq!(
        webviews,
        serde_json::json!({"tags": 5, "written_by_code": 0, "computed": 0, "node_integration": 2, "web_security_disabled": 2, "allow_popups": 1, "omitted": 0})
    );
    // Each listed where the pages write it, as the nodes list them.
    assert_eq!(items.as_array().unwrap().len(), 5);
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["written"] == "html" && t["path"].as_str().unwrap().ends_with(".html"))
    );
    let text = result.to_string();
    assert!(
        !text.contains("secret") && !text.contains("token=abc"),
        "a secret kept"
    );
}
