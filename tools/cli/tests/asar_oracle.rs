//! The inventory of real ASAR archives, packed by the official `@electron/asar` 3.4.1, equals
//! what third-party tools say about them: `asar list` (paths), `asar extract` hashed by Python
//! (bytes), and the raw header read by Python (unpacked flags and integrity digests).
//! The corpus is built once by `corpora/scripts/asar-corpus.sh` under Cargo's target tmp dir.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod support;

use support::{inventory_json as rea_all, python_lines};

fn corpus() -> PathBuf {
    support::corpus("asar-corpus.sh", "asar")
}

/// Occurrences by logical path, with a prefix stripped and the root left out.
fn occurrences(result: &Value, prefix: &str) -> BTreeMap<String, Value> {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| {
            let path = o["logical_path"].as_str()?;
            let inner = if prefix.is_empty() {
                Some(path)
            } else {
                path.strip_prefix(prefix)
            };
            inner
                .filter(|p| !p.is_empty() && *p != ".")
                .map(|p| (p.to_owned(), o.clone()))
        })
        .collect()
}

/// `name` is the corpus archive the listing oracle was made from.
fn check_against_oracles(
    archive: &Path,
    name: &str,
    ours: &BTreeMap<String, Value>,
    corpus: &Path,
) {
    // 1. `asar list`: every path, nothing more.
    let listed: Vec<String> = std::fs::read_to_string(corpus.join(format!("{name}.list")))
        .unwrap()
        .lines()
        .map(|l| l.trim_start_matches('/').to_owned())
        .collect();
    assert_eq!(ours.keys().cloned().collect::<Vec<_>>(), {
        let mut sorted = listed.clone();
        sorted.sort();
        sorted
    });
    // 2. The raw header: kinds, sizes, unpacked flags, integrity digests and verdicts.
    let header = python_lines("asar_header.py", &[archive.as_os_str()]);
    assert_eq!(header.len(), ours.len());
    for row in &header {
        let o = &ours[row["logical_path"].as_str().unwrap()];
        assert_eq!(o["entry_kind"], row["entry_kind"], "{row}");
        assert_eq!(o["unpacked"], row["unpacked"], "{row}");
        if row["entry_kind"] == "file" {
            assert_eq!(o["size"], row["size"], "{row}");
            assert_eq!(o["sha256"], row["integrity_hash"], "{row}");
            assert_eq!(o["hash_status"], "verified", "{row}");
        }
        if row["entry_kind"] == "symlink" {
            assert_eq!(o["link_target"], row["link"], "{row}");
        }
    }
    // 3. `asar extract`, hashed by Python: the bytes.
    let out = tempfile::tempdir().unwrap();
    let extracted = out.path().join("x");
    let asar_bin = corpus.join("tools/node_modules/@electron/asar/bin/asar.js");
    let status = Command::new("node")
        .arg(asar_bin)
        .arg("extract")
        .arg(archive)
        .arg(&extracted)
        .status()
        .unwrap();
    assert!(status.success());
    let files = python_lines("list_tree.py", &[extracted.as_os_str()]);
    let mut n_files = 0;
    for row in files.iter().filter(|r| r["entry_kind"] == "file") {
        let o = &ours[row["logical_path"].as_str().unwrap()];
        assert_eq!(o["sha256"], row["sha256"], "{row}");
        assert_eq!(o["size"], row["size"], "{row}");
        n_files += 1;
    }
    assert_eq!(
        n_files,
        ours.values().filter(|o| o["entry_kind"] == "file").count()
    );
}

#[test]
fn asar_archives_packed_three_ways_match_the_official_tools() {
    let corpus = corpus();
    for name in ["plain", "unpack-node", "unpack-dir"] {
        let archive = corpus.join(format!("{name}.asar"));
        let value = rea_all(&archive, &[]);
        let result = &value["result"];
        assert_eq!(result["manifest"]["root_format"], "asar");
        let ours = occurrences(result, "");
        check_against_oracles(&archive, name, &ours, &corpus);
        let unpacked = ours.values().filter(|o| o["unpacked"] == true).count();
        match name {
            "plain" => assert_eq!(unpacked, 0),
            "unpack-node" => assert_eq!(unpacked, 1),
            _ => assert!(unpacked > 100, "lodash is unpacked: {unpacked}"),
        }
        // The root is the archive file itself.
        let bytes = std::fs::read(&archive).unwrap();
        assert_eq!(result["manifest"]["root_sha256"], rea_hash_hex(&bytes));
    }
}

#[test]
fn an_asar_inside_an_application_directory_is_expanded_in_place() {
    let corpus = corpus();
    let app = tempfile::tempdir().unwrap();
    let resources = app.path().join("resources");
    std::fs::create_dir(&resources).unwrap();
    std::fs::copy(corpus.join("unpack-node.asar"), resources.join("app.asar")).unwrap();
    let status = Command::new("cp")
        .arg("-a")
        .arg(corpus.join("unpack-node.asar.unpacked"))
        .arg(resources.join("app.asar.unpacked"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::create_dir(app.path().join("not-an-archive.asar")).unwrap();
    std::fs::write(
        app.path().join("not-an-archive.asar/readme.txt"),
        b"a directory",
    )
    .unwrap();
    let value = rea_all(app.path(), &[]);
    let result = &value["result"];
    let nested = occurrences(result, "resources/app.asar/");
    check_against_oracles(&resources.join("app.asar"), "unpack-node", &nested, &corpus);
    let all = occurrences(result, "");
    let container = &all["resources/app.asar"];
    assert_eq!(container["entry_kind"], "file");
    // Top-level entries of the archive hang from the archive's occurrence.
    assert_eq!(
        nested["node_modules"]["parent_occurrence_id"],
        container["occurrence_id"]
    );
    // The companion folder is listed as an ordinary directory too.
    assert!(all.contains_key("resources/app.asar.unpacked/node_modules/@node-rs/crc32-linux-x64-gnu/crc32.linux-x64-gnu.node"));
    // A directory named like an archive is a directory.
    assert_eq!(all["not-an-archive.asar"]["entry_kind"], "directory");
    assert_eq!(all["not-an-archive.asar/readme.txt"]["entry_kind"], "file");
}

fn rea_hash_hex(bytes: &[u8]) -> String {
    let output = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut child = output;
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned()
}

/// The header integrity `@electron/asar` computes for `archive`, as Electron's packagers
/// declare it: SHA-256 of `getRawHeader(archive).headerString`.
fn packager_header_hash(corpus: &Path, archive: &Path) -> String {
    let output = Command::new("node")
        .arg(support::scripts().join("asar_header_integrity.cjs"))
        .arg(corpus.join("tools/node_modules/@electron/asar"))
        .arg(archive)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    value["hash"].as_str().unwrap().to_owned()
}

/// A macOS bundle `Fixture.app` holding `archive` as `Contents/Resources/app.asar`, with an
/// `Info.plist` written by CPython's plistlib in `format` declaring `declarations`.
fn mac_bundle(
    corpus: &Path,
    archive: &str,
    format: &str,
    declarations: &[(&str, &str)],
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let contents = dir.path().join("Fixture.app/Contents");
    std::fs::create_dir_all(contents.join("Resources")).unwrap();
    std::fs::copy(
        corpus.join(format!("{archive}.asar")),
        contents.join("Resources/app.asar"),
    )
    .unwrap();
    let mut plist = Command::new("python3");
    plist
        .arg(support::scripts().join("mac_plist.py"))
        .arg(contents.join("Info.plist"))
        .arg(format);
    for (key, hash) in declarations {
        plist.args([key, "SHA256", hash]);
    }
    assert!(plist.status().unwrap().success());
    dir
}

fn asar_headers(result: &Value) -> BTreeMap<String, Value> {
    result["asar_headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["logical_path"].as_str().unwrap().to_owned(), h.clone()))
        .collect()
}

#[test]
fn electron_asar_integrity_declared_by_a_mac_bundle_is_checked_against_the_header() {
    let corpus = corpus();
    let plain = packager_header_hash(&corpus, &corpus.join("plain.asar"));
    let unpack_node = packager_header_hash(&corpus, &corpus.join("unpack-node.asar"));
    assert_ne!(plain, unpack_node);
    let archive_path = "Fixture.app/Contents/Resources/app.asar";

    // An archive given alone: its header digest is the packager's, and nothing declares it.
    let alone = rea_all(&corpus.join("plain.asar"), &[]);
    let headers = asar_headers(&alone["result"]);
    assert_eq!(headers["."]["header_sha256"], plain.as_str());
    assert_eq!(headers["."]["status"], "undeclared");

    // The declaration the packager would write, as XML and as a binary property list, in a
    // directory and in a zip of it: verified.
    for format in ["xml", "binary"] {
        let bundle = mac_bundle(&corpus, "plain", format, &[("Resources/app.asar", &plain)]);
        let packed = bundle.path().join("Fixture.zip");
        let status = Command::new("python3")
            .arg(support::scripts().join("zip_tool.py"))
            .arg("pack")
            .arg(bundle.path().join("Fixture.app"))
            .arg(&packed)
            .status()
            .unwrap();
        assert!(status.success());
        for (input, at) in [
            (
                bundle.path().join("Fixture.app/.."),
                archive_path.to_owned(),
            ),
            (packed.clone(), "Contents/Resources/app.asar".to_owned()),
        ] {
            let value = rea_all(&input, &[]);
            let result = &value["result"];
            let headers = asar_headers(result);
            let header = &headers[at.as_str()];
            assert_eq!(header["header_sha256"], plain.as_str(), "{format} {at}");
            assert_eq!(header["status"], "verified", "{format} {at}");
            let declaration = &header["declarations"][0];
            assert_eq!(declaration["key"], "Resources/app.asar");
            assert_eq!(declaration["status"], "verified");
            assert!(
                declaration["declared_by"]
                    .as_str()
                    .unwrap()
                    .ends_with("Contents/Info.plist")
            );
            let occurrence = occurrences(result, "")
                .into_values()
                .find(|o| o["logical_path"] == at.as_str())
                .unwrap();
            assert_eq!(header["occurrence_id"], occurrence["occurrence_id"]);
            assert_eq!(result["integrity_contradictions"], serde_json::json!([]));
        }
        std::fs::remove_file(&packed).unwrap();
    }

    // The header of another archive declared: the inventory fails closed by default, and
    // records the contradiction under record-and-continue. A declaration naming an archive
    // that is not there is a limitation.
    let bundle = mac_bundle(
        &corpus,
        "unpack-node",
        "xml",
        &[
            ("Resources/app.asar", &plain),
            ("Resources/other.asar", &plain),
        ],
    );
    let output = support::run(&[
        "inventory-artifact",
        bundle.path().to_str().unwrap(),
        "--json",
    ]);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("ASAR header contradicts"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value = rea_all(
        bundle.path(),
        &["--integrity-policy", "record-and-continue"],
    );
    let result = &value["result"];
    let header = &asar_headers(result)[archive_path];
    assert_eq!(header["status"], "mismatched");
    assert_eq!(header["header_sha256"], unpack_node.as_str());
    let contradictions = result["integrity_contradictions"].as_array().unwrap();
    assert_eq!(contradictions.len(), 1);
    assert_eq!(contradictions[0]["logical_path"], archive_path);
    assert_eq!(contradictions[0]["declared_sha256"], plain.as_str());
    assert_eq!(contradictions[0]["observed_sha256"], unpack_node.as_str());
    assert_eq!(contradictions[0]["occurrence_id"], header["occurrence_id"]);
    let limitations = result["limitations"].to_string();
    assert!(
        limitations.contains("Resources/other.asar"),
        "{limitations}"
    );

    // Once the second archive is there too, two contradicted headers: more than a budget of
    // one mismatch allows, and exactly what a budget of two records.
    std::fs::copy(
        corpus.join("unpack-node.asar"),
        bundle
            .path()
            .join("Fixture.app/Contents/Resources/other.asar"),
    )
    .unwrap();
    let path = bundle.path().to_str().unwrap();
    let output = support::run(&[
        "inventory-artifact",
        path,
        "--integrity-policy",
        "record-and-continue",
        "--max-integrity-mismatches",
        "1",
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("max_integrity_mismatches"));
    let value = rea_all(
        bundle.path(),
        &[
            "--integrity-policy",
            "record-and-continue",
            "--max-integrity-mismatches",
            "2",
        ],
    );
    assert_eq!(
        value["result"]["integrity_contradictions"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// A Windows application directory: `App.exe` (a copy of 7-Zip's `7za.exe` for `arch`, with the
/// integrity resource written by resedit as Electron's packagers write it, listing `list`),
/// `helper.exe` (the same executable without the resource) and `resources/app.asar`.
fn windows_app(corpus: &Path, archive: &str, arch: &str, list: &Value) -> tempfile::TempDir {
    let tools = support::corpus("win-corpus.sh", "win");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("resources")).unwrap();
    std::fs::copy(
        corpus.join(format!("{archive}.asar")),
        dir.path().join("resources/app.asar"),
    )
    .unwrap();
    let exe = tools.join(format!("node_modules/7zip-bin/win/{arch}/7za.exe"));
    std::fs::copy(&exe, dir.path().join("helper.exe")).unwrap();
    let status = Command::new("node")
        .arg(support::scripts().join("win_integrity.mjs"))
        .arg(&tools)
        .arg(&exe)
        .arg(dir.path().join("App.exe"))
        .arg(list.to_string())
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

#[test]
fn electron_asar_integrity_in_a_windows_executable_resource_is_checked_against_the_header() {
    let corpus = corpus();
    let plain = packager_header_hash(&corpus, &corpus.join("plain.asar"));
    let declare = |file: &str, hash: &str| serde_json::json!([{"file": file, "alg": "SHA256", "value": hash}]);
    // PE32+ and PE32, as a directory (read in place) and deflated in a zip (inflated).
    for arch in ["x64", "ia32"] {
        let app = windows_app(
            &corpus,
            "plain",
            arch,
            &declare("resources\\app.asar", &plain),
        );
        let packed = tempfile::tempdir().unwrap();
        let zip = packed.path().join("App-win32.zip");
        let status = Command::new("python3")
            .arg(support::scripts().join("zip_tool.py"))
            .arg("pack")
            .arg(app.path())
            .arg(&zip)
            .status()
            .unwrap();
        assert!(status.success());
        for input in [app.path(), zip.as_path()] {
            let value = rea_all(input, &[]);
            let result = &value["result"];
            let headers = asar_headers(result);
            assert_eq!(headers.len(), 1, "{arch} {input:?}: {headers:?}");
            let header = &headers["resources/app.asar"];
            assert_eq!(header["header_sha256"], plain.as_str());
            assert_eq!(header["status"], "verified", "{arch} {input:?}");
            let declarations = header["declarations"].as_array().unwrap();
            assert_eq!(declarations.len(), 1, "helper.exe declares nothing");
            assert_eq!(declarations[0]["declared_by"], "App.exe");
            assert_eq!(declarations[0]["mechanism"], "pe-resource");
            assert_eq!(declarations[0]["key"], "resources\\app.asar");
            assert_eq!(declarations[0]["limitations"], serde_json::json!([]));
            assert_eq!(result["limitations"], serde_json::json!([]));
        }
    }

    // Another archive's header declared: fails closed, or a contradiction when recorded.
    let app = windows_app(
        &corpus,
        "unpack-node",
        "x64",
        &declare("RESOURCES\\APP.ASAR", &plain),
    );
    let output = support::run(&["inventory-artifact", app.path().to_str().unwrap(), "--json"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("ASAR header contradicts"));
    let value = rea_all(app.path(), &["--integrity-policy", "record-and-continue"]);
    let result = &value["result"];
    assert_eq!(
        asar_headers(result)["resources/app.asar"]["status"],
        "mismatched"
    );
    let contradictions = result["integrity_contradictions"].as_array().unwrap();
    assert_eq!(contradictions.len(), 1);
    assert_eq!(contradictions[0]["declared_sha256"], plain.as_str());

    // A list written with '/' (as packagers running on Linux once wrote it): the digest is
    // checked, and the declaration says Electron would not find it.
    let app = windows_app(
        &corpus,
        "plain",
        "x64",
        &declare("resources/app.asar", &plain),
    );
    let value = rea_all(app.path(), &[]);
    let header = &asar_headers(&value["result"])["resources/app.asar"];
    assert_eq!(header["status"], "verified");
    assert!(
        header["declarations"][0]["limitations"]
            .to_string()
            .contains("backslash"),
        "{header}"
    );
}

#[test]
fn electron_fuses_read_like_the_official_reader_reads_them() {
    let corpus = corpus();
    let plain = packager_header_hash(&corpus, &corpus.join("plain.asar"));
    let list =
        serde_json::json!([{"file": "resources\\app.asar", "alg": "SHA256", "value": plain}]);
    // Windows: the executable beside resources/, flipped the way an integrity-hardened app is.
    let app = windows_app(&corpus, "plain", "x64", &list);
    let exe = app.path().join("App.exe");
    // Electron's Windows and Linux distributions name their version in a file beside the binary.
    std::fs::write(app.path().join("version"), "28.1.0").unwrap();
    support::fuses_tool("seed", &[exe.as_os_str()]);
    support::fuses_tool(
        "flip",
        &[
            exe.as_os_str(),
            r#"{"0": false, "4": true, "5": true}"#.as_ref(),
        ],
    );
    let value = rea_all(app.path(), &[]);
    let binaries = value["result"]["electron_fuses"].as_array().unwrap();
    assert_eq!(
        binaries.len(),
        1,
        "helper.exe carries no wire: {binaries:?}"
    );
    assert_eq!(binaries[0]["logical_path"], "App.exe");
    assert_eq!(binaries[0]["electron_version"], "28.1.0");
    assert_eq!(binaries[0]["electron_version_source"], "version");
    support::assert_fuses_match_the_official_reader(&binaries[0], &exe);
    let names: Vec<&str> = binaries[0]["fuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "RunAsNode");
    assert_eq!(names[4], "EnableEmbeddedAsarIntegrityValidation");
    assert_eq!(binaries[0]["fuses"][0]["state"], "disabled");
    assert_eq!(binaries[0]["fuses"][4]["state"], "enabled");
    assert!(
        !value["result"]["limitations"]
            .to_string()
            .contains("would refuse")
    );
    // The application analysis carries the same packaging facts.
    let analysis = support::tool_json("analyze-javascript-application", app.path(), &[]);
    let packaging = &analysis["result"]["electron_packaging"];
    assert_eq!(
        packaging["electron_fuses"],
        value["result"]["electron_fuses"]
    );
    assert_eq!(packaging["asar_headers"], value["result"]["asar_headers"]);

    // The integrity fuse on, and an integrity list that names no archive: Electron would not
    // open the application's archive, and the inventory says so.
    let app = windows_app(&corpus, "plain", "x64", &serde_json::json!([]));
    let exe = app.path().join("App.exe");
    support::fuses_tool("seed", &[exe.as_os_str()]);
    support::fuses_tool("flip", &[exe.as_os_str(), r#"{"4": true}"#.as_ref()]);
    let value = rea_all(app.path(), &[]);
    assert_eq!(
        asar_headers(&value["result"])["resources/app.asar"]["status"],
        "undeclared"
    );
    let limitations = value["result"]["limitations"].to_string();
    assert!(
        limitations.contains("nothing declares the integrity of resources/app.asar"),
        "{limitations}"
    );

    // macOS: the framework binary, found through the bundle's symlinks by the official tool.
    let bundle = mac_bundle(&corpus, "plain", "xml", &[("Resources/app.asar", &plain)]);
    let framework = bundle
        .path()
        .join("Fixture.app/Contents/Frameworks/Electron Framework.framework");
    std::fs::create_dir_all(framework.join("Versions/A")).unwrap();
    let binary = framework.join("Versions/A/Electron Framework");
    let tools = support::corpus("win-corpus.sh", "win");
    std::fs::copy(
        tools.join("node_modules/7zip-bin/win/ia32/7za.exe"),
        &binary,
    )
    .unwrap();
    std::os::unix::fs::symlink("A", framework.join("Versions/Current")).unwrap();
    std::os::unix::fs::symlink(
        "Versions/Current/Electron Framework",
        framework.join("Electron Framework"),
    )
    .unwrap();
    // The framework's own property list names the Electron version (binary, as shipped).
    std::fs::create_dir_all(framework.join("Versions/A/Resources")).unwrap();
    let status = Command::new("python3")
        .arg("-c")
        .arg(
            "import plistlib,sys; plistlib.dump({'CFBundleIdentifier': 'com.github.Electron.framework', \
             'CFBundleVersion': '33.2.1'}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)",
        )
        .arg(framework.join("Versions/A/Resources/Info.plist"))
        .status()
        .unwrap();
    assert!(status.success());
    support::fuses_tool("seed", &[binary.as_os_str()]);
    let app = bundle.path().join("Fixture.app");
    support::fuses_tool(
        "flip",
        &[app.as_os_str(), r#"{"0": false, "3": false}"#.as_ref()],
    );
    let value = rea_all(bundle.path(), &[]);
    let binaries = value["result"]["electron_fuses"].as_array().unwrap();
    assert_eq!(binaries.len(), 1, "{binaries:?}");
    assert_eq!(
        binaries[0]["logical_path"],
        "Fixture.app/Contents/Frameworks/Electron Framework.framework/Versions/A/Electron Framework"
    );
    support::assert_fuses_match_the_official_reader(&binaries[0], &app);
    assert_eq!(binaries[0]["electron_version"], "33.2.1");
    assert_eq!(
        binaries[0]["electron_version_source"],
        "Fixture.app/Contents/Frameworks/Electron Framework.framework/Versions/A/Resources/Info.plist"
    );
    assert_eq!(binaries[0]["fuses"][3]["state"], "disabled");
}

#[test]
fn a_comparison_of_two_versions_names_the_fuses_versions_and_headers_that_changed() {
    let corpus = corpus();
    let plain = packager_header_hash(&corpus, &corpus.join("plain.asar"));
    let list =
        serde_json::json!([{"file": "resources\\app.asar", "alg": "SHA256", "value": plain}]);
    // Version 1: RunAsNode off, the header declared; version 2: RunAsNode back on, a newer
    // Electron, and an archive whose header no longer matches its declaration.
    let v1 = windows_app(&corpus, "plain", "x64", &list);
    let v2 = windows_app(&corpus, "unpack-node", "x64", &list);
    for (app, run_as_node, version) in [(&v1, "false", "28.1.0"), (&v2, "true", "29.0.0")] {
        let exe = app.path().join("App.exe");
        std::fs::write(app.path().join("version"), version).unwrap();
        support::fuses_tool("seed", &[exe.as_os_str()]);
        let config = format!(r#"{{"0": {run_as_node}}}"#);
        support::fuses_tool("flip", &[exe.as_os_str(), config.as_ref()]);
    }
    let records = tempfile::tempdir().unwrap();
    let mut sides = Vec::new();
    for (name, app, extra) in [
        ("v1.json", &v1, &[][..]),
        (
            "v2.json",
            &v2,
            &["--integrity-policy", "record-and-continue"][..],
        ),
    ] {
        let path = records.path().join(name);
        std::fs::write(&path, support::inventory_all(app.path(), extra)).unwrap();
        sides.push(path);
    }
    let output = support::run(&[
        "compare-artifacts",
        sides[0].to_str().unwrap(),
        sides[1].to_str().unwrap(),
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let packaging = &value["result"]["electron_packaging"];
    assert_eq!(
        packaging["electron_fuses"],
        serde_json::json!([{"logical_path": "App.exe", "fuse": "RunAsNode", "left": "disabled", "right": "enabled"}])
    );
    assert_eq!(
        packaging["electron_versions"],
        serde_json::json!([{"logical_path": "App.exe", "left": "28.1.0", "right": "29.0.0"}])
    );
    let headers = packaging["asar_headers"].as_array().unwrap();
    assert_eq!(headers.len(), 1);
    assert_eq!(headers[0]["left"]["status"], "verified");
    assert_eq!(headers[0]["right"]["status"], "mismatched");
    // The human summary says the same.
    let output = support::run(&[
        "compare-artifacts",
        sides[0].to_str().unwrap(),
        sides[1].to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("App.exe RunAsNode: disabled -> enabled"),
        "{text}"
    );
    assert!(
        text.contains("resources/app.asar: verified -> mismatched"),
        "{text}"
    );
}
