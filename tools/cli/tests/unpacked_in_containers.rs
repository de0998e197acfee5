//! An application packed with its ASAR's `.unpacked` companion beside it (`resources/app.asar`
//! and `resources/app.asar.unpacked/`, as electron-builder and Forge lay out an app with native
//! add-ons) inside a zip, a compressed tar, a 7z archive and a Windows Installer package, each
//! built by a third-party packer (CPython's zipfile and tarfile, 7-Zip, wixl): the ASAR's
//! unpacked entries are read from the container's members, so the nested ASAR inventories
//! exactly as the official `@electron/asar` output does on disk beside its folder.

use std::ffi::OsStr;
use std::path::Path;

mod support;

/// `DIR/app/resources/app.asar` and its companion, copied from the corpus's `name`.
fn app_with_companion(dir: &Path, name: &str) -> std::path::PathBuf {
    let app = dir.join("app");
    support::place_asar(&app.join("resources"), name);
    app
}

#[test]
fn unpacked_entries_are_read_from_the_containers_members() {
    for name in ["unpack-node.asar", "unpack-dir.asar"] {
        let dir = tempfile::tempdir().unwrap();
        let app = app_with_companion(dir.path(), name);
        let packed: [(&str, &str, Vec<&OsStr>); 4] = [
            ("app.zip", "zip_tool.py", vec![]),
            ("app.tar.gz", "tar_tool.py", vec![]),
            ("app.7z", "sevenz_tool.py", vec![OsStr::new("lzma2")]),
            (
                "app.msi",
                "msi_tool.py",
                vec![OsStr::new("per-user"), OsStr::new("embedded")],
            ),
        ];
        for (file, script, extra) in packed {
            let archive = dir.path().join(file);
            let mut args: Vec<&OsStr> = vec!["pack".as_ref(), app.as_os_str(), archive.as_os_str()];
            args.extend(extra);
            support::python_script(script, &args);
            let value = support::inventory_json(&archive, &[]);
            let result = &value["result"];
            let asar = if file.ends_with(".msi") {
                "AppData/Local/Programs/Demo App/resources/app.asar"
            } else {
                "resources/app.asar"
            };
            support::assert_asar_at(result, asar, name);
            let unpacked: Vec<&serde_json::Value> = result["occurrences"]["items"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["unpacked"] == true)
                .collect();
            assert!(!unpacked.is_empty(), "{file} {name}");
            for o in unpacked {
                assert_eq!(o["hash_status"], "verified", "{file} {name}: {o}");
            }
            assert_eq!(result["summary"]["unavailable"], 0, "{file} {name}");
        }
    }
}
