//! Windows Installer packages and cabinets against msitools and 7-Zip: packages built by
//! `wixl` from the corpus tree (`corpora/scripts/msi_tool.py`), per machine and per user, with
//! a custom action binary, listed and hashed from what `msiextract` extracts and what
//! `msiinfo extract` reads of their streams; an application packed as electron-builder's MSI
//! installs it, read down to its ASAR; a package whose cabinet is beside it, and that cabinet
//! alone against what `7zz x` extracts; broken cabinets and packages.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

mod support;

use support::inventory_json;

/// `msi_tool.py pack SRC DEST LAYOUT CABINET [BINARY]`.
fn pack(src: &Path, dest: &Path, layout: &str, cabinet: &str, binary: Option<&Path>) {
    let mut args: Vec<&OsStr> = vec![
        "pack".as_ref(),
        src.as_os_str(),
        dest.as_os_str(),
        layout.as_ref(),
        cabinet.as_ref(),
    ];
    if let Some(binary) = binary {
        args.push(binary.as_os_str());
    }
    support::python_script("msi_tool.py", &args);
}

/// Our occurrences below `prefix`, outside the streams and the archives nested in the files,
/// equal what `msiextract` extracts from `msi`.
fn check_files(msi: &Path, result: &Value, prefix: &str) -> usize {
    let oracle = support::python_lines("msi_tool.py", &["list".as_ref(), msi.as_os_str()]);
    let ours: std::collections::BTreeMap<String, Value> =
        support::occurrences_under(result, prefix)
            .into_iter()
            .filter(|(path, _)| !path.starts_with("[streams]") && !path.contains(".asar/"))
            .collect();
    support::assert_listing(&oracle, &ours)
}

#[test]
fn packages_match_msiextract_per_machine_and_per_user() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("CustomAction.dll");
    std::fs::write(&binary, b"MZ not really a DLL, a custom action's bytes").unwrap();
    // Where each layout installs, as REA names it; `msiextract` names ProgramFilesFolder as REA
    // does and leaves LocalAppDataFolder out of the path.
    for (layout, ours_below, oracle_below) in [
        (
            "program-files",
            "Program Files/Demo App/",
            "Program Files/Demo App/",
        ),
        (
            "per-user",
            "AppData/Local/Programs/Demo App/",
            "Programs/Demo App/",
        ),
    ] {
        let msi = dir.path().join(format!("Demo App {layout}.msi"));
        pack(&tree, &msi, layout, "embedded", Some(&binary));
        let value = inventory_json(&msi, &[]);
        let result = &value["result"];
        assert_eq!(support::root_format(result), "msi", "{layout}");
        // Every file msiextract installs, at the same place, with the same bytes.
        let oracle = support::python_lines("msi_tool.py", &["list".as_ref(), msi.as_os_str()]);
        assert!(
            oracle.iter().all(|row| row["logical_path"]
                .as_str()
                .unwrap()
                .starts_with(oracle_below.split('/').next().unwrap())),
            "{layout}"
        );
        let installed: Vec<Value> = oracle
            .iter()
            .filter_map(|row| {
                let path = row["logical_path"].as_str()?.strip_prefix(oracle_below)?;
                let mut row = row.clone();
                row["logical_path"] = path.into();
                Some(row)
            })
            .collect();
        let ours: std::collections::BTreeMap<String, Value> =
            support::occurrences_under(result, ours_below)
                .into_iter()
                .filter(|(path, _)| !path.contains(".asar/"))
                .collect();
        let members = support::assert_listing(&installed, &ours);
        assert!(members > 1500, "{layout}: {members}");
        // The package's own streams: the custom action's binary, byte for byte.
        let streams = support::python_lines("msi_tool.py", &["streams".as_ref(), msi.as_os_str()]);
        assert_eq!(streams.len(), 1, "{streams:?}");
        let listed = support::occurrences_under(result, "")
            .into_iter()
            .filter(|(path, _)| path.starts_with("[streams]/"))
            .collect();
        support::assert_listing(&streams, &listed);
        assert_eq!(
            result["summary"]["unavailable"], 0,
            "{layout}: {}",
            result["limitations"]
        );
    }
}

#[test]
fn an_msi_installer_is_read_down_to_its_asar() {
    let dir = tempfile::tempdir().unwrap();
    let app = support::app_tree(dir.path(), "app");
    std::fs::write(app.join("LICENSE.electron.txt"), "MIT\n").unwrap();
    let msi = dir.path().join("Fixture 1.0.0.msi");
    pack(&app, &msi, "program-files", "embedded", None);
    let result = &inventory_json(&msi, &[])["result"];
    check_files(&msi, result, "");
    support::assert_plain_asar_at(result, "Program Files/Demo App/resources/app.asar");
    support::assert_analyzed_like_plain_asar(&msi);
}

#[test]
fn an_external_cabinet_is_read_beside_the_package_and_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (src, _) = support::text_tree(dir.path(), 40_000);
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let msi = out.join("external.msi");
    pack(&src, &msi, "program-files", "external", None);
    let cabinet = out.join("app.cab");
    assert!(cabinet.is_file());

    // The package alone lists what it installs; the bytes are not in it.
    let result = &inventory_json(&msi, &[])["result"];
    let ours = support::occurrences_under(result, "");
    for name in [
        "Program Files/Demo App/text.txt",
        "Program Files/Demo App/small.txt",
    ] {
        assert_eq!(ours[name]["hash_status"], "unavailable", "{name}");
    }
    support::assert_noted(
        &ours,
        &["Program Files/Demo App/text.txt"],
        "in no cabinet the package holds",
    );
    let root = &result["occurrences"]["items"][0];
    assert!(
        root["limitations"]
            .to_string()
            .contains("external cabinet app.cab"),
        "{root}"
    );

    // The cabinet alone: its files by their names in it, as 7-Zip extracts them, and the
    // same bytes msiextract installs from the package and its cabinet together.
    let alone = inventory_json(&cabinet, &[]);
    let alone = &alone["result"];
    assert_eq!(support::root_format(alone), "cab");
    let oracle = support::python_lines("sevenz_tool.py", &["list".as_ref(), cabinet.as_os_str()]);
    support::assert_listing(&oracle, &support::occurrences_under(alone, ""));
    let installed = support::python_lines("msi_tool.py", &["list".as_ref(), msi.as_os_str()]);
    let digests = |rows: Vec<&Value>| {
        let mut d: Vec<String> = rows
            .into_iter()
            .filter(|r| r["entry_kind"] == "file")
            .map(|r| r["sha256"].to_string())
            .collect();
        d.sort();
        d
    };
    assert_eq!(
        digests(installed.iter().collect()),
        digests(oracle.iter().collect())
    );

    // In a directory, the package and its cabinet are both expanded.
    let walked = inventory_json(&out, &[]);
    let walked = support::occurrences_under(&walked["result"], "");
    assert!(walked.keys().any(|p| p.starts_with("app.cab/")));
    assert!(walked.contains_key("external.msi/Program Files/Demo App/text.txt"));
}

#[test]
fn a_cabinet_appended_to_a_program_is_found_in_its_overlay() {
    // A cabinet self-extractor (as IExpress and WiX bundles carry theirs): a program, then the
    // cabinet, which holds an MSI installer holding the application.
    let win = support::corpus("win-corpus.sh", "win");
    let dir = tempfile::tempdir().unwrap();
    let app = support::app_tree(dir.path(), "app");
    let inner = dir.path().join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    pack(
        &app,
        &inner.join("Fixture.msi"),
        "per-user",
        "embedded",
        None,
    );
    let outer = dir.path().join("outer.msi");
    pack(&inner, &outer, "program-files", "embedded", None);
    let cabinet = dir.path().join("payload.cab");
    support::python_script(
        "msi_tool.py",
        &[
            "cabinet".as_ref(),
            outer.as_os_str(),
            "app.cab".as_ref(),
            cabinet.as_os_str(),
        ],
    );
    let mut bytes = std::fs::read(win.join("node_modules/7zip-bin/win/x64/7za.exe")).unwrap();
    let at = bytes.len();
    bytes.extend_from_slice(&std::fs::read(&cabinet).unwrap());
    let sfx = dir.path().join("fixture-sfx.exe");
    std::fs::write(&sfx, &bytes).unwrap();

    let result = &inventory_json(&sfx, &[])["result"];
    let payload = format!("payload-{at}.cab");
    let ours = support::occurrences_under(result, "");
    assert!(
        ours[&payload]["limitations"]
            .to_string()
            .contains("overlay"),
        "{}",
        ours[&payload]
    );
    let oracle = support::python_lines("sevenz_tool.py", &["list".as_ref(), cabinet.as_os_str()]);
    let members: std::collections::BTreeMap<String, Value> =
        support::occurrences_under(result, &format!("{payload}/"))
            .into_iter()
            .filter(|(path, _)| !path.contains('/'))
            .collect();
    support::assert_listing(&oracle, &members);
    // The cabinet names the package by its key, not as an .msi: it is listed, not expanded.
    // Named as the package it is, the same bytes expand down to the ASAR.
    let key = members.keys().next().unwrap();
    let renamed = dir.path().join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    support::python_script(
        "sevenz_tool.py",
        &[
            "extract".as_ref(),
            cabinet.as_os_str(),
            key.as_ref(),
            renamed.join("Fixture.msi").as_os_str(),
        ],
    );
    let nested = &inventory_json(&renamed, &[])["result"];
    support::assert_plain_asar_at(
        nested,
        "Fixture.msi/AppData/Local/Programs/Demo App/resources/app.asar",
    );
}

#[test]
fn broken_cabinets_and_packages_are_noted_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (src, inputs) = support::text_tree(dir.path(), 40_000);
    let msi = inputs.join("good.msi");
    pack(&src, &msi, "program-files", "embedded", None);
    let cabinet = inputs.join("app.cab");
    support::python_script(
        "msi_tool.py",
        &[
            "cabinet".as_ref(),
            msi.as_os_str(),
            "app.cab".as_ref(),
            cabinet.as_os_str(),
        ],
    );
    let bytes = std::fs::read(&cabinet).unwrap();

    // A byte flipped in the compressed data: the block's checksum fails, the files of its
    // folder are unavailable with the reason, and the run completes.
    let flipped =
        support::inventory_flipped(&bytes, bytes.len() - 100, &inputs.join("flipped.cab"));
    support::assert_unavailable_saying(&flipped, "could not be decoded");

    // A cabinet cut inside its file table, and a package cut in half: typed failures.
    let cut = inputs.join("cut.cab");
    std::fs::write(&cut, &bytes[..50]).unwrap();
    let stderr = support::inventory_fails(&cut);
    assert!(stderr.contains("cabinet"), "{stderr}");
    let package = std::fs::read(&msi).unwrap();
    let half = inputs.join("half.msi");
    std::fs::write(&half, &package[..package.len() / 2]).unwrap();
    let stderr = support::inventory_fails(&half);
    assert!(stderr.contains("Windows Installer package"), "{stderr}");

    // Nested, a broken package is a note on its occurrence, not the run's failure.
    let outer = dir.path().join("outer");
    std::fs::create_dir_all(&outer).unwrap();
    std::fs::copy(&half, outer.join("half.msi")).unwrap();
    let result = &inventory_json(&outer, &[])["result"];
    let ours = support::occurrences_under(result, "");
    assert!(
        ours["half.msi"]["limitations"]
            .to_string()
            .contains("Windows Installer package"),
        "{}",
        ours["half.msi"]
    );
}
