//! Tar-family inventories against independent tools: a real npm tree packed by CPython's
//! `tarfile` as a tar, gzip and xz, and by the `zstd` tool, each listed and hashed by
//! `tarfile`; and a Debian package built by `dpkg-deb` holding an Electron-style application
//! (`resources/app.asar` packed by `@electron/asar`), listed through `dpkg-deb --fsys-tarfile`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod support;

use support::inventory_json;

fn tar_tool(args: &[&std::ffi::OsStr]) -> Vec<u8> {
    support::python_script("tar_tool.py", args)
}

fn by_path(result: &Value, prefix: &str) -> BTreeMap<String, Value> {
    support::occurrences_under(result, prefix)
}

/// Our occurrences equal `tarfile`'s listing of `archive`, member for member.
fn check(archive: &Path, ours: &BTreeMap<String, Value>) -> usize {
    let oracle = support::python_lines("tar_tool.py", &["list".as_ref(), archive.as_os_str()]);
    support::assert_listing(&oracle, ours)
}

#[test]
fn tars_plain_and_compressed_match_python_tarfile() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for name in ["tree.tar", "tree.tar.gz", "tree.tar.xz", "tree.tar.zst"] {
        let archive = dir.path().join(name);
        tar_tool(&["pack".as_ref(), tree.as_os_str(), archive.as_os_str()]);
        let value = inventory_json(&archive, &[]);
        let result = &value["result"];
        assert_eq!(result["limitations"], serde_json::json!([]), "{name}");
        let members = check(&archive, &by_path(result, ""));
        assert!(members > 1500, "{name}: {members}");
    }
}

#[test]
fn a_debian_package_is_expanded_down_to_its_asar() {
    let corpus = support::corpus("asar-corpus.sh", "asar");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("pkg");
    let app = root.join("opt/Fixture/resources");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(root.join("DEBIAN")).unwrap();
    std::fs::copy(corpus.join("plain.asar"), app.join("app.asar")).unwrap();
    std::fs::write(
        root.join("DEBIAN/control"),
        "Package: fixture\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: rea <rea@example.test>\nDescription: a fixture\n",
    )
    .unwrap();
    for compression in ["xz", "gzip", "zstd"] {
        let deb = dir.path().join(format!("fixture-{compression}.deb"));
        let status = Command::new("dpkg-deb")
            .args(["--build", "--root-owner-group", "-Z", compression])
            .arg(&root)
            .arg(&deb)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let value = inventory_json(&deb, &[]);
        let result = &value["result"];
        let ours = by_path(result, "");
        // The package's own members, as `ar` lists them.
        let listed = Command::new("ar").arg("t").arg(&deb).output().unwrap();
        let members: Vec<String> = String::from_utf8(listed.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        for member in &members {
            assert_eq!(ours[member]["entry_kind"], "file", "{member}");
        }
        let data = members
            .iter()
            .find(|m| m.starts_with("data.tar"))
            .unwrap()
            .clone();
        // The installed files, as dpkg-deb lists them, below the data member.
        let installed = by_path(result, &format!("{data}/"));
        let inside_asar = |path: &String| path.contains("app.asar/");
        let installed_files: BTreeMap<String, Value> = installed
            .into_iter()
            .filter(|(path, _)| !inside_asar(path))
            .collect();
        check(&deb, &installed_files);
        // And the archive inside, expanded in place with its header read.
        let asar = format!("{data}/opt/Fixture/resources/app.asar");
        assert!(ours.contains_key(&format!("{asar}/node_modules/express/package.json")));
        let headers = result["asar_headers"].as_array().unwrap();
        assert_eq!(headers.len(), 1);
        assert_eq!(headers[0]["logical_path"], asar.as_str());
    }
}

#[test]
fn hostile_tars_are_noted_where_they_sit_and_typed_errors_at_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("bash")
        .arg("-c")
        .arg(
            "set -e; cd \"$1\"; head -c 60000000 /dev/zero > zeros; tar czf bomb.tar.gz zeros; \
             rm zeros; head -c 5000 /dev/urandom > garbage.tar.gz; printf 'not a tar' > text.tar; \
             head -c 2000 /dev/urandom > one; tar cf cut.tar one; truncate -s 1000 cut.tar; rm one",
        )
        .arg("-")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let value = inventory_json(dir.path(), &[]);
    let ours = by_path(&value["result"], "");
    let note = |name: &str| ours[name]["limitations"].to_string();
    // A gzip bomb: 60 MB of zeros in 58 KB, over max_compression_ratio's bound.
    assert!(
        note("bomb.tar.gz").contains("decompresses to more than"),
        "{}",
        note("bomb.tar.gz")
    );
    assert!(note("garbage.tar.gz").contains("could not be decompressed"));
    assert!(note("text.tar").contains("not a readable tar archive"));
    // A member cut short by the end of the file is listed, its bytes unreadable.
    assert_eq!(ours["bomb.tar.gz"]["hash_status"], "hashed");
    assert_eq!(ours["cut.tar/one"]["hash_status"], "unavailable");
    assert!(
        ours["cut.tar/one"]["limitations"]
            .to_string()
            .contains("past the end")
    );
    // At the root, the same problems are typed errors.
    for name in ["bomb.tar.gz", "garbage.tar.gz", "text.tar"] {
        support::inventory_fails(&dir.path().join(name));
    }
}
