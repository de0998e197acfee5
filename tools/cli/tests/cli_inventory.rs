//! `rea inventory-artifact` as a user runs it: exit codes, determinism, errors, Ctrl-C.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{rea, run, sample};

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is json")
}

fn assert_no_panic(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn version_prints_the_package_version() {
    let output = run(&["--version"]);
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("rea {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn json_output_is_byte_identical_across_thread_counts_and_runs() {
    let path = sample();
    let path = path.to_str().unwrap();
    let one = run(&[
        "inventory-artifact",
        path,
        "--json",
        "--all",
        "--threads",
        "1",
    ]);
    let two = run(&[
        "inventory-artifact",
        path,
        "--json",
        "--all",
        "--threads",
        "2",
    ]);
    let again = rea()
        .args(["inventory-artifact", path, "--json", "--all"])
        .env("REA_THREADS", "2")
        .output()
        .unwrap();
    assert!(one.status.success() && two.status.success() && again.status.success());
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(two.stdout, again.stdout);
    let value = json(&one);
    assert_eq!(value["evidence"]["normalized_result"], value["result"]);
    assert_eq!(value["evidence"]["evidence_id"], value["evidence_id"]);
    let id = value["evidence_id"].as_str().unwrap();
    assert!(id.starts_with("ev_") && id.len() == 67);
}

#[test]
fn the_same_tree_at_another_path_has_the_same_ids() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("elsewhere");
    let status = Command::new("cp")
        .arg("-a")
        .arg(sample())
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    let a = json(&run(&[
        "inventory-artifact",
        sample().to_str().unwrap(),
        "--json",
    ]));
    let b = json(&run(&[
        "inventory-artifact",
        copy.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(a["evidence_id"], b["evidence_id"]);
    assert_eq!(a["result"], b["result"]);
    assert_ne!(
        a["evidence"]["subject"]["local_path"],
        b["evidence"]["subject"]["local_path"]
    );
}

#[test]
fn pages_default_to_100_and_walk_with_offset() {
    let path = sample();
    let first = json(&run(&[
        "inventory-artifact",
        path.to_str().unwrap(),
        "--json",
        "--limit",
        "5",
    ]));
    let occurrences = &first["result"]["occurrences"];
    assert_eq!(occurrences["items"].as_array().unwrap().len(), 5);
    assert_eq!(occurrences["next_offset"], 5);
    let total = occurrences["total"].as_u64().unwrap();
    let mut seen = Vec::new();
    let mut offset = 0;
    while offset < total {
        let page = json(&run(&[
            "inventory-artifact",
            path.to_str().unwrap(),
            "--json",
            "--limit",
            "5",
            "--offset",
            &offset.to_string(),
        ]));
        assert_eq!(
            page["result"]["manifest"], first["result"]["manifest"],
            "every page carries one manifest"
        );
        for item in page["result"]["occurrences"]["items"].as_array().unwrap() {
            seen.push(item["logical_path"].as_str().unwrap().to_owned());
        }
        offset += 5;
    }
    let all = json(&run(&[
        "inventory-artifact",
        path.to_str().unwrap(),
        "--json",
        "--all",
    ]));
    let every: Vec<_> = all["result"]["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["logical_path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(seen, every);
    assert_eq!(
        run(&[
            "inventory-artifact",
            path.to_str().unwrap(),
            "--limit",
            "501"
        ])
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn human_summary_names_counts_and_ids() {
    let output = run(&["inventory-artifact", sample().to_str().unwrap()]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let all = json(&run(&[
        "inventory-artifact",
        sample().to_str().unwrap(),
        "--json",
    ]));
    assert!(
        text.contains(all["result"]["manifest"]["manifest_id"].as_str().unwrap()),
        "{text}"
    );
    assert!(
        text.contains(all["evidence_id"].as_str().unwrap()),
        "{text}"
    );
    let entries = all["result"]["summary"]["entries"].as_u64().unwrap();
    assert!(
        text.contains(&format!("entries      {entries} (")),
        "{text}"
    );
}

#[test]
fn out_writes_the_json_file_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("inventory.json");
    let output = run(&[
        "inventory-artifact",
        sample().to_str().unwrap(),
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    let stdout = run(&["inventory-artifact", sample().to_str().unwrap(), "--json"]).stdout;
    let mut written = std::fs::read(&out).unwrap();
    written.push(b'\n');
    assert_eq!(written, stdout);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("inventory.json")]);
}

/// Runs a bad input and returns the error object.
fn failing(args: &[&str]) -> serde_json::Value {
    let output = run(args);
    assert_no_panic(&output);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !output.stderr.is_empty(),
        "a one-line message goes to stderr"
    );
    let value = json(&output);
    let error = &value["error"];
    for key in [
        "code",
        "category",
        "message",
        "retryable",
        "remediation",
        "details",
    ] {
        assert!(!error[key].is_null(), "{key} missing in {error}");
    }
    error.clone()
}

#[test]
fn bad_inputs_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let error = failing(&["inventory-artifact", "/definitely/missing", "--json"]);
    assert_eq!(error["message"], "input path does not exist");
    assert_eq!(error["details"]["reason"], "path");

    let error = failing(&["inventory-artifact", "/dev/null", "--json"]);
    assert_eq!(error["details"]["file_type"], "character device");

    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let error = failing(&["inventory-artifact", fifo.to_str().unwrap(), "--json"]);
    assert_eq!(error["details"]["file_type"], "fifo");

    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let error = failing(&["inventory-artifact", a.to_str().unwrap(), "--json"]);
    assert_eq!(error["message"], "input path is a symlink loop");

    // A regular file that fails on read: /proc/self/mem has no readable page at offset 0.
    let error = failing(&["inventory-artifact", "/proc/self/mem", "--json"]);
    assert_eq!(error["message"], "input file could not be read");
    assert_eq!(error["details"]["reason"], "io");

    let error = failing(&[
        "inventory-artifact",
        sample().to_str().unwrap(),
        "--json",
        "--max-entries",
        "3",
    ]);
    assert_eq!(error["code"], "truncated");
    assert_eq!(error["details"]["limit"], "max_entries");
}

#[test]
fn a_path_that_is_not_utf8_fails_clearly() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"bad-\xff"));
    std::fs::create_dir(&bad).unwrap();
    let output = rea()
        .arg("inventory-artifact")
        .arg(&bad)
        .arg("--json")
        .output()
        .unwrap();
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        json(&output)["error"]["message"],
        "input path is not valid UTF-8"
    );
}

#[test]
fn odd_entries_inside_a_tree_are_limitations_not_failures() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.js"), b"1").unwrap();
    std::fs::write(
        dir.path().join(std::ffi::OsStr::from_bytes(b"bad-\xff.js")),
        b"2",
    )
    .unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(dir.path().join("pipe"))
            .status()
            .unwrap()
            .success()
    );
    let output = run(&[
        "inventory-artifact",
        dir.path().to_str().unwrap(),
        "--json",
        "--all",
    ]);
    assert!(output.status.success());
    let result = &json(&output)["result"];
    assert_eq!(result["summary"]["skipped"], 2);
    let root = &result["occurrences"]["items"][0];
    assert_eq!(root["logical_path"], ".");
    assert_eq!(root["limitations"].as_array().unwrap().len(), 2);
    assert!(
        result["limitations"][0]
            .as_str()
            .unwrap()
            .contains("2 entries were skipped")
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["inventory-artifact"]).status.code(), Some(2));
    assert_eq!(run(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(
        run(&["inventory-artifact", ".", "--threads", "many"])
            .status
            .code(),
        Some(2)
    );
}

/// A tree of sparse files: large to hash, free to create.
fn sparse_tree(dir: &Path, files: usize, size: u64) {
    for i in 0..files {
        let file = std::fs::File::create(dir.join(format!("blob{i}.bin"))).unwrap();
        file.set_len(size).unwrap();
    }
}

fn wait_with_deadline(
    child: &mut std::process::Child,
    deadline: Duration,
) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            panic!("rea did not stop within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_cancels_with_exit_130_and_leaves_nothing() {
    let input = tempfile::tempdir().unwrap();
    sparse_tree(input.path(), 4, 3 << 30);
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("inventory.json");
    let mut child = rea()
        .args([
            "inventory-artifact",
            input.path().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        child.try_wait().unwrap().is_none(),
        "12 GiB should take longer than 400 ms to hash"
    );
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = wait_with_deadline(&mut child, Duration::from_secs(10));
    let output = child.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(String::from_utf8_lossy(&output.stderr).trim(), "cancelled");
    assert_eq!(
        std::fs::read_dir(out_dir.path()).unwrap().count(),
        0,
        "no output, no partial file"
    );
}

#[test]
fn timeout_is_reported_as_timeout_not_cancelled() {
    let input = tempfile::tempdir().unwrap();
    sparse_tree(input.path(), 4, 3 << 30);
    let output = run(&[
        "inventory-artifact",
        input.path().to_str().unwrap(),
        "--json",
        "--timeout",
        "0.2",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let error = &json(&output)["error"];
    assert_eq!(error["code"], "timeout");
    assert_eq!(error["category"], "timeout");
}

#[test]
fn extract_artifact_writes_the_selection_and_reports_where() {
    let output = run(&[
        "extract-artifact",
        sample().to_str().unwrap(),
        "--glob",
        "src/*.js",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value = json(&output);
    let root = std::path::PathBuf::from(value["result"]["output_root"].as_str().unwrap());
    let files: Vec<&str> = value["result"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["relative_path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        vec![
            "src/main.js",
            "src/preload.js",
            "src/renderer.copy.js",
            "src/renderer.js"
        ]
    );
    for rel in files {
        assert_eq!(
            std::fs::read(root.join(rel)).unwrap(),
            std::fs::read(sample().join(rel)).unwrap()
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
    let human = run(&[
        "extract-artifact",
        sample().to_str().unwrap(),
        "--glob",
        "package.json",
    ]);
    let text = String::from_utf8_lossy(&human.stdout).into_owned();
    assert!(
        text.starts_with("extract_artifact: 1 files written to /"),
        "{text}"
    );
    let written = text.lines().next().unwrap().rsplit(' ').next().unwrap();
    std::fs::remove_dir_all(written).unwrap();
    let missing = run(&["extract-artifact", sample().to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1), "a selection is required");
}

#[test]
fn extracting_everything_writes_nested_archive_contents_below_the_archive_path() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    let status = Command::new("cp")
        .arg("-a")
        .arg(sample())
        .arg(&app)
        .status()
        .unwrap();
    assert!(status.success());
    // An archive with one nested file, packed by hand: a 16-byte pickle header, then JSON, then data.
    let header = br#"{"files":{"main.js":{"size":2,"offset":"0"}}}"#;
    let padded = header.len().div_ceil(4) * 4;
    let mut asar = Vec::new();
    for word in [
        4u32,
        8 + padded as u32,
        4 + padded as u32,
        header.len() as u32,
    ] {
        asar.extend_from_slice(&word.to_le_bytes());
    }
    asar.extend_from_slice(header);
    asar.resize(16 + padded, 0);
    asar.extend_from_slice(b"42");
    std::fs::write(app.join("resources/app.asar"), &asar).unwrap();
    let output = run(&[
        "extract-artifact",
        app.to_str().unwrap(),
        "--glob",
        "**",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value = json(&output);
    let root = std::path::PathBuf::from(value["result"]["output_root"].as_str().unwrap());
    assert_eq!(
        std::fs::read(root.join("resources/app.asar/main.js")).unwrap(),
        b"42"
    );
    assert!(
        value["result"]["limitations"]
            .to_string()
            .contains("resources/app.asar was not written as a file")
    );
    std::fs::remove_dir_all(&root).unwrap();
}
