//! Helpers the CLI tests share: running `rea` (with a clean environment), the sample app,
//! where the corpus scripts are, building a cached corpus, and running a command that must
//! succeed with JSON on stdout.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The `rea` binary, with `REA_THREADS` unset and stdin closed.
pub fn rea() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rea"));
    command.env_remove("REA_THREADS").stdin(Stdio::null());
    command
}

/// `corpora/inventory/sample-app`, the sample the README runs.
pub fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/inventory/sample-app")
}

/// `rea ARGS…`, whatever its outcome.
pub fn run(args: &[&str]) -> Output {
    rea().args(args).output().expect("rea runs")
}

/// `rea TOOL INPUT --json EXTRA…`, which must succeed; its stdout parsed.
pub fn tool_json(tool: &str, input: &Path, extra: &[&str]) -> Value {
    let output = rea()
        .arg(tool)
        .arg(input)
        .arg("--json")
        .args(extra)
        .output()
        .expect("rea runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is json")
}

/// `corpora/scripts/`.
pub fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/scripts")
}

/// Runs `script DEST` once per target dir and returns DEST (`target/tmp/corpora/<name>`).
pub fn corpus(script: &str, name: &str) -> PathBuf {
    let dest = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("corpora")
        .join(name);
    // Test processes run at once: the first builds the corpus while the others wait, then
    // find it complete. Without the lock, each would build it and replace it under the
    // others' feet.
    std::fs::create_dir_all(dest.parent().unwrap()).expect("the corpora directory");
    let lock = std::fs::File::create(dest.with_extension("lock")).expect("a lock file");
    lock.lock().expect("the corpus lock");
    let status = Command::new("bash")
        .arg(scripts().join(script))
        .arg(&dest)
        .status()
        .expect("bash runs");
    drop(lock);
    assert!(
        status.success(),
        "corpora/scripts/{script} failed: npm and the npm registry are needed"
    );
    dest
}

/// `rea inventory-artifact INPUT --json --all EXTRA…`, which must succeed.
pub fn inventory_all(input: &Path, extra: &[&str]) -> Vec<u8> {
    let output = rea()
        .arg("inventory-artifact")
        .arg(input)
        .args(["--json", "--all"])
        .args(extra)
        .output()
        .expect("rea runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The same, parsed.
pub fn inventory_json(input: &Path, extra: &[&str]) -> Value {
    serde_json::from_slice(&inventory_all(input, extra)).expect("stdout is json")
}

/// What a Python script of `corpora/scripts/` prints for `args`; it must succeed.
pub fn python_script(script: &str, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    python_script_with(Path::new("python3"), script, args)
}

/// The same, run by `python` (the test venv's, for a script that needs its packages).
pub fn python_script_with(python: &Path, script: &str, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let output = Command::new(python)
        .arg(scripts().join(script))
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Lines of JSON a Python script prints for `arg`.
pub fn python_lines(script: &str, args: &[&std::ffi::OsStr]) -> Vec<Value> {
    String::from_utf8(python_script(script, args))
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// A Python with the test requirements (`tests/mcp-e2e/requirements.txt`: the pinned `mcp` SDK,
/// PyYAML, and Apple's reference LZFSE encoder), in a venv under the target directory, created
/// on first use.
pub fn python() -> PathBuf {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-venv");
    let python = venv.join("bin/python");
    // Test processes run in parallel; one installs while the others wait.
    let lock = std::fs::File::create(Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-venv.lock"))
        .expect("lock file");
    lock.lock().expect("lock");
    let ready = python.is_file()
        && Command::new(&python)
            .args(["-c", "import mcp, yaml, lzfse"])
            .status()
            .is_ok_and(|s| s.success());
    if !ready {
        let status = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .expect("python3 runs");
        assert!(status.success(), "python3 -m venv failed");
        let status = Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "-r"])
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mcp-e2e/requirements.txt"))
            .status()
            .expect("pip runs");
        assert!(
            status.success(),
            "pip install -r tests/mcp-e2e/requirements.txt failed"
        );
    }
    python
}

/// Occurrences of an inventory result by logical path, below `prefix` (stripped), the root
/// left out.
pub fn occurrences_under(
    result: &Value,
    prefix: &str,
) -> std::collections::BTreeMap<String, Value> {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| {
            let path = o["logical_path"].as_str()?.strip_prefix(prefix)?;
            (!path.is_empty() && path != ".").then(|| (path.to_owned(), o.clone()))
        })
        .collect()
}

/// Our occurrences equal an independent tool's listing (`{logical_path, entry_kind, size,
/// sha256, link_target}` rows), member for member: every path and nothing more, kinds, and
/// each file's size and digest, each link's target. Returns how many members there were.
pub fn assert_listing(oracle: &[Value], ours: &std::collections::BTreeMap<String, Value>) -> usize {
    let listed: Vec<&str> = oracle
        .iter()
        .map(|r| r["logical_path"].as_str().unwrap())
        .collect();
    assert_eq!(
        ours.keys().map(String::as_str).collect::<Vec<_>>(),
        listed,
        "every member, nothing more"
    );
    for row in oracle {
        let o = &ours[row["logical_path"].as_str().unwrap()];
        assert_eq!(o["entry_kind"], row["entry_kind"], "{row}");
        match row["entry_kind"].as_str().unwrap() {
            "file" => {
                assert_eq!(o["sha256"], row["sha256"], "{row}");
                assert_eq!(o["size"], row["size"], "{row}");
                // "verified" where the container declares digests (an RPM's headers).
                assert!(
                    o["hash_status"] == "hashed" || o["hash_status"] == "verified",
                    "{row}: {o}"
                );
            }
            "symlink" => assert_eq!(o["link_target"], row["link_target"], "{row}"),
            _ => {}
        }
    }
    oracle.len()
}

/// `node electron_fuses.cjs TOOLS COMMAND ARGS…` (the official `@electron/fuses`).
pub fn fuses_tool(command: &str, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let tools = corpus("win-corpus.sh", "win");
    let output = Command::new("node")
        .arg(scripts().join("electron_fuses.cjs"))
        .arg(&tools)
        .arg(command)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    output.stdout
}

/// Our fuses of one binary, against what `getCurrentFuseWire` reads from it (given the binary,
/// or the `.app` bundle it resolves the framework binary from).
pub fn assert_fuses_match_the_official_reader(ours: &Value, binary: &Path) {
    let oracle: Value = serde_json::from_slice(&fuses_tool("read", &[binary.as_os_str()])).unwrap();
    assert_eq!(
        ours["wire_version"].to_string(),
        oracle["version"].as_str().unwrap()
    );
    let fuses = ours["fuses"].as_array().unwrap();
    let count = oracle.as_object().unwrap().len() - 1;
    assert_eq!(fuses.len(), count);
    for (i, fuse) in fuses.iter().enumerate() {
        let expected = match oracle[i.to_string()].as_u64().unwrap() {
            0x31 => "enabled",
            0x30 => "disabled",
            0x72 => "removed",
            other => panic!("unexpected state {other}"),
        };
        assert_eq!(fuse["index"], i);
        assert_eq!(fuse["state"], expected, "{fuse}");
    }
}

/// `rea inventory-artifact INPUT` fails with a typed `artifact_operation_failed`: its stderr.
pub fn inventory_fails(input: &Path) -> String {
    let output = run(&["inventory-artifact", input.to_str().unwrap()]);
    assert!(!output.status.success(), "{}", input.display());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        stderr.contains("[artifact_operation_failed]"),
        "{}: {stderr}",
        input.display()
    );
    stderr
}

/// Each of `names` among `ours` (occurrences by path) carries a limitation that says `text`.
pub fn assert_noted(ours: &std::collections::BTreeMap<String, Value>, names: &[&str], text: &str) {
    for name in names {
        let note = ours[*name]["limitations"].to_string();
        assert!(note.contains(text), "{name}: {note}");
    }
}

/// The ASAR expanded at `archive` inside an inventory `result` is, entry for entry, the corpus's
/// `plain.asar` inventoried alone (digests, verdicts, unpacked flags), and its header is the
/// first one the result reports.
pub fn assert_plain_asar_at(result: &Value, archive: &str) {
    assert_asar_at(result, archive, "plain.asar");
}

/// The ASAR expanded at `archive` inside an inventory `result` is, entry for entry, the
/// corpus's `name` (`plain.asar`, `unpack-node.asar`, `unpack-dir.asar`) inventoried alone on
/// disk beside its `.unpacked` companion (digests, verdicts, unpacked flags), and its header is
/// the first one the result reports.
pub fn assert_asar_at(result: &Value, archive: &str, name: &str) {
    let original = corpus("asar-corpus.sh", "asar").join(name);
    let inside = occurrences_under(result, &format!("{archive}/"));
    let alone = occurrences_under(&inventory_json(&original, &[])["result"], "");
    assert_eq!(inside.len(), alone.len());
    for (path, o) in &alone {
        let ours = &inside[path];
        assert_eq!(ours["sha256"], o["sha256"], "{path}");
        assert_eq!(ours["hash_status"], o["hash_status"], "{path}");
        assert_eq!(ours["unpacked"], o["unpacked"], "{path}");
    }
    assert_eq!(result["asar_headers"][0]["logical_path"], archive);
}

/// A source tree for broken-container tests under `dir`: `src/text.txt` (`lines` numbered
/// lines, compressible) and `src/small.txt`, and an empty `inputs/`. Both paths.
pub fn text_tree(dir: &Path, lines: usize) -> (PathBuf, PathBuf) {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let text: String = (0..lines).map(|i| format!("line {i}\n")).collect();
    std::fs::write(src.join("text.txt"), &text).unwrap();
    std::fs::write(src.join("small.txt"), "small").unwrap();
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    (src, inputs)
}

/// `analyze-javascript-application` reads `input` (an image, a package, an installer holding
/// the corpus's `plain.asar`) as it reads `plain.asar` alone: the same JavaScript files.
pub fn assert_analyzed_like_plain_asar(input: &Path) {
    assert_analyzed_like(input, "plain.asar");
}

/// `analyze-javascript-application` reads `input` as it reads the corpus's ASAR `name` alone.
pub fn assert_analyzed_like(input: &Path, name: &str) {
    let original = corpus("asar-corpus.sh", "asar").join(name);
    let analysis = tool_json("analyze-javascript-application", input, &[]);
    let alone = tool_json("analyze-javascript-application", &original, &[]);
    assert_eq!(
        analysis["result"]["statistics"]["javascript_files"],
        alone["result"]["statistics"]["javascript_files"],
        "{}",
        analysis["result"]["statistics"]
    );
}

/// The format the inventory `result` gives its root (the input itself).
pub fn root_format(result: &Value) -> Value {
    let root = &result["occurrences"]["items"][0];
    assert_eq!(root["logical_path"], ".");
    result["nodes"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["artifact_id"] == root["artifact_id"])
        .unwrap()["format"]
        .clone()
}

/// An unpacked application under `dir/name`, as packagers lay one out: the corpus's
/// `plain.asar` as `resources/app.asar`. Its path.
pub fn app_tree(dir: &Path, name: &str) -> PathBuf {
    let app = dir.join(name);
    std::fs::create_dir_all(app.join("resources")).unwrap();
    std::fs::copy(
        corpus("asar-corpus.sh", "asar").join("plain.asar"),
        app.join("resources/app.asar"),
    )
    .unwrap();
    app
}

/// Writes `bytes` with the byte at `at` flipped to `path`, and inventories it: the result.
pub fn inventory_flipped(bytes: &[u8], at: usize, path: &Path) -> Value {
    let mut flipped = bytes.to_vec();
    flipped[at] ^= 0x55;
    std::fs::write(path, &flipped).unwrap();
    inventory_json(path, &[])["result"].clone()
}

/// Some occurrences of `result` are unavailable, and each says why with `text`.
pub fn assert_unavailable_saying(result: &Value, text: &str) {
    let ours = occurrences_under(result, "");
    let unavailable: Vec<(&String, &Value)> = ours
        .iter()
        .filter(|(_, o)| o["hash_status"] == "unavailable")
        .collect();
    assert!(!unavailable.is_empty(), "{ours:?}");
    for (path, o) in unavailable {
        assert!(o["limitations"].to_string().contains(text), "{path}: {o}");
    }
}

/// Copies the corpus's ASAR `name` into the folder `resources` as `app.asar`, with its
/// `.unpacked` companion beside it when it has one, as packagers lay out an application.
pub fn place_asar(resources: &Path, name: &str) {
    let corpus = corpus("asar-corpus.sh", "asar");
    std::fs::create_dir_all(resources).unwrap();
    std::fs::copy(corpus.join(name), resources.join("app.asar")).unwrap();
    let companion = corpus.join(format!("{name}.unpacked"));
    if companion.is_dir() {
        let status = Command::new("cp")
            .arg("-r")
            .arg(&companion)
            .arg(resources.join("app.asar.unpacked"))
            .status()
            .unwrap();
        assert!(status.success());
    }
}

/// The graph's nodes by id.
pub fn nodes_by_id(result: &Value) -> std::collections::BTreeMap<&str, &Value> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["node_id"].as_str().unwrap(), n))
        .collect()
}

/// The renderer transmissions paired with a main-process handler, as (channel, what the
/// renderer called through, or `""`, the handler's operation).
pub fn paired_transmissions(
    result: &Value,
) -> std::collections::BTreeSet<(String, String, String)> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| !p["pairing_basis"].is_null())
        .map(|p| {
            (
                p["channel"].as_str().unwrap().to_owned(),
                p["via"].as_str().unwrap_or("").to_owned(),
                p["handler_operation"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Sorted in- and out-degrees of a require graph over any names: two graphs over names that
/// do not map one to one (a bundler's module paths, our factory keys) compare by these.
pub fn degrees(edges: &std::collections::BTreeSet<(String, String)>) -> (Vec<usize>, Vec<usize>) {
    let mut outs: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut ins: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (from, to) in edges {
        *outs.entry(from).or_default() += 1;
        *ins.entry(to).or_default() += 1;
    }
    let mut outs: Vec<usize> = outs.into_values().collect();
    let mut ins: Vec<usize> = ins.into_values().collect();
    outs.sort_unstable();
    ins.sort_unstable();
    (outs, ins)
}

/// A truth file's list of `[operation, channel]` pairs.
pub fn string_pairs(v: &Value) -> std::collections::BTreeSet<(String, String)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The IPC operations the graph's edges carry, by side (`main`, `renderer`), as
/// (operation, channel).
pub fn ipc_sides(
    result: &Value,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<(String, String)>> {
    let mut sides: std::collections::BTreeMap<String, std::collections::BTreeSet<_>> =
        std::collections::BTreeMap::new();
    for edge in result["graph"]["edges"].as_array().unwrap() {
        let p = &edge["properties"];
        if let (Some(side), Some(operation), Some(channel)) = (
            p["side"].as_str(),
            p["operation"].as_str(),
            p["channel"].as_str(),
        ) {
            sides
                .entry(side.to_owned())
                .or_default()
                .insert((operation.to_owned(), channel.to_owned()));
        }
    }
    sides
}

/// Each side's IPC operations in `result` are those `truth` lists (`main_ipc`, `renderer_ipc`).
pub fn assert_ipc_sides(result: &Value, truth: &Value, label: &str) {
    let sides = ipc_sides(result);
    assert_eq!(
        sides["main"],
        string_pairs(&truth["main_ipc"]),
        "{label}: main IPC"
    );
    assert_eq!(
        sides["renderer"],
        string_pairs(&truth["renderer_ipc"]),
        "{label}: renderer IPC"
    );
}

/// The process boundaries an analysis's summary says IPC handlers reach, each as
/// `[channel, kind, "static" | "dynamic"]`, in the summary's order: what a `truth.json`'s
/// `ipc_handler_boundaries` states.
pub fn handler_boundaries(result: &Value) -> Value {
    let items = result["summary"]["ipc_handler_boundaries"]["items"]
        .as_array()
        .unwrap();
    Value::Array(
        items
            .iter()
            .map(|b| {
                let dynamic = if b["static"] == true {
                    "static"
                } else {
                    "dynamic"
                };
                serde_json::json!([b["channel"], b["kind"], dynamic])
            })
            .collect(),
    )
}
