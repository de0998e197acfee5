//! 7z archives and Windows installers against 7-Zip: archives packed by `7zz` with every
//! method and filter REA reads (electron-builder's app package among them), listed and hashed
//! from what `7zz x` extracts (`corpora/scripts/sevenz_tool.py`); an NSIS installer built by
//! `makensis` as electron-builder's templates embed the app package, and a Squirrel.Windows
//! `Setup.exe` (its bundle zip written as a `DATA` resource by resedit), each read down to the
//! ASAR inside and checked against what 7-Zip extracts from the installer; encrypted archives;
//! broken archives.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

mod support;

use support::inventory_json;

fn pack(src: &Path, dest: &Path, mode: &str) {
    support::python_script(
        "sevenz_tool.py",
        &[
            "pack".as_ref(),
            src.as_os_str(),
            dest.as_os_str(),
            OsStr::new(mode),
        ],
    );
}

/// coreutils' `sha256sum` of a file.
fn sha256_file(path: &Path) -> String {
    let output = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()[..64].to_owned()
}

/// Our occurrences below `prefix`, outside the archives nested there (ASARs, 7z and zip
/// archives), equal what `7zz x` extracts from `archive`.
fn check(archive: &Path, result: &Value, prefix: &str) -> usize {
    let oracle = support::python_lines("sevenz_tool.py", &["list".as_ref(), archive.as_os_str()]);
    let outside: std::collections::BTreeMap<String, Value> =
        support::occurrences_under(result, prefix)
            .into_iter()
            .filter(|(path, _)| ![".asar/", ".7z/", ".zip/"].iter().any(|c| path.contains(c)))
            .collect();
    support::assert_listing(&oracle, &outside)
}

#[test]
fn archives_by_every_method_match_7zip() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for mode in [
        "electron-builder",
        "lzma2",
        "non-solid",
        "bcj2",
        "lzma",
        "ppmd",
        "bzip2",
        "deflate",
        "copy",
    ] {
        let archive = dir.path().join(format!("fixture-{mode}.7z"));
        pack(&tree, &archive, mode);
        let value = inventory_json(&archive, &[]);
        let result = &value["result"];
        assert_eq!(result["limitations"], serde_json::json!([]), "{mode}");
        let members = check(&archive, result, "");
        assert!(members > 1500, "{mode}: {members}");
        assert_eq!(support::root_format(result), "7z", "{mode}");
    }
}

#[test]
fn an_nsis_installer_is_read_down_to_its_asar() {
    let win = support::corpus("win-corpus.sh", "win");
    let dir = tempfile::tempdir().unwrap();
    // The unpacked application as electron-builder packs it: a program, its resources.
    let app = support::app_tree(dir.path(), "app");
    std::fs::copy(
        win.join("node_modules/7zip-bin/win/x64/7za.exe"),
        app.join("Fixture.exe"),
    )
    .unwrap();
    std::fs::write(app.join("LICENSE.electron.txt"), "MIT\n").unwrap();
    let package = dir.path().join("app-64.7z");
    pack(&app, &package, "electron-builder");
    let setup = dir.path().join("Fixture Setup 1.0.0.exe");
    support::python_script(
        "sevenz_tool.py",
        &["nsis".as_ref(), package.as_os_str(), setup.as_os_str()],
    );

    let value = inventory_json(&setup, &[]);
    let result = &value["result"];
    assert_eq!(support::root_format(result), "pe");
    // The installer's files, named by its script, as 7-Zip's NSIS reader lists them.
    check(&setup, result, "");
    let payload = "$PLUGINSDIR/app-64.7z";
    let ours = support::occurrences_under(result, "");
    // Stored by NSIS, so byte for byte the package electron-builder packed.
    assert_eq!(ours[payload]["sha256"], sha256_file(&package));
    // Its members, as 7-Zip extracts them; the program inside holds no payload of its own.
    let extracted = dir.path().join("extracted.7z");
    support::python_script(
        "sevenz_tool.py",
        &[
            "extract".as_ref(),
            setup.as_os_str(),
            OsStr::new(payload),
            extracted.as_os_str(),
        ],
    );
    check(&extracted, result, &format!("{payload}/"));
    assert!(
        !ours
            .keys()
            .any(|p| p.starts_with(&format!("{payload}/Fixture.exe/")))
    );
    // The ASAR inside is expanded, entry for entry as when it is the input.
    support::assert_plain_asar_at(result, &format!("{payload}/resources/app.asar"));

    // The application analysis reads the installer as it reads the archive alone.
    support::assert_analyzed_like_plain_asar(&setup);

    // electron-builder's `useZip`: the package is a zip; and a package NSIS compressed itself.
    let zipped = dir.path().join("app-64.zip");
    support::python_script(
        "zip_tool.py",
        &["pack".as_ref(), app.as_os_str(), zipped.as_os_str()],
    );
    for compression in ["stored", "compressed"] {
        let zip_setup = dir
            .path()
            .join(format!("Fixture Setup zip {compression}.exe"));
        support::python_script(
            "sevenz_tool.py",
            &[
                "nsis".as_ref(),
                zipped.as_os_str(),
                zip_setup.as_os_str(),
                OsStr::new(compression),
            ],
        );
        let result = &inventory_json(&zip_setup, &[])["result"];
        check(&zip_setup, result, "");
        let ours = support::occurrences_under(result, "");
        assert_eq!(
            ours["$PLUGINSDIR/app-64.zip"]["sha256"],
            sha256_file(&zipped)
        );
        support::assert_plain_asar_at(result, "$PLUGINSDIR/app-64.zip/resources/app.asar");
    }

    // A program with no payload is a file like any other, and its analysis says it found none.
    let plain = inventory_json(&app.join("Fixture.exe"), &[]);
    assert!(
        plain["result"]["limitations"]
            .to_string()
            .contains("holds no archive"),
        "{}",
        plain["result"]["limitations"]
    );
    assert_eq!(
        plain["result"]["occurrences"]["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let analysis = support::tool_json(
        "analyze-javascript-application",
        &app.join("Fixture.exe"),
        &[],
    );
    assert!(
        analysis["result"]["limitations"]
            .to_string()
            .contains("holds no archive"),
        "{}",
        analysis["result"]["limitations"]
    );
}

#[test]
fn nsis_installers_by_every_compressor_match_7zip() {
    // What electron-builder's portable target builds: the app's files in the installer, each
    // compressed by NSIS (or all in one solid stream).
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for mode in ["lzma", "solid-lzma", "zlib"] {
        let setup = dir.path().join(format!("fixture-{mode}.exe"));
        support::python_script(
            "sevenz_tool.py",
            &[
                "nsis-tree".as_ref(),
                tree.as_os_str(),
                setup.as_os_str(),
                OsStr::new(mode),
            ],
        );
        let value = inventory_json(&setup, &[]);
        let result = &value["result"];
        assert_eq!(result["limitations"], serde_json::json!([]), "{mode}");
        let members = check(&setup, result, "");
        assert!(members > 1500, "{mode}: {members}");
    }
    // A script that extracts no file (it only writes its uninstaller) holds nothing to list,
    // and that is no failure to read it.
    let maker = dir.path().join("uninstaller-maker.exe");
    support::python_script(
        "sevenz_tool.py",
        &["nsis-uninstaller".as_ref(), maker.as_os_str()],
    );
    let result = &inventory_json(&maker, &[])["result"];
    assert_eq!(result["occurrences"]["items"].as_array().unwrap().len(), 1);
    assert!(
        result["limitations"]
            .to_string()
            .contains("holds no archive")
    );
    assert_eq!(
        result["occurrences"]["items"][0]["limitations"],
        serde_json::json!([])
    );
}

#[test]
fn an_archive_appended_to_a_program_is_found_in_its_overlay() {
    // A self-extractor: a program, then the archive it carries.
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let win = support::corpus("win-corpus.sh", "win");
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("fixture.7z");
    pack(&tree, &archive, "lzma2");
    let mut bytes = std::fs::read(win.join("node_modules/7zip-bin/win/x64/7za.exe")).unwrap();
    let at = bytes.len();
    bytes.extend_from_slice(&std::fs::read(&archive).unwrap());
    let sfx = dir.path().join("fixture-sfx.exe");
    std::fs::write(&sfx, &bytes).unwrap();
    let value = inventory_json(&sfx, &[]);
    let result = &value["result"];
    let payload = format!("payload-{at}.7z");
    let ours = support::occurrences_under(result, "");
    assert_eq!(ours[&payload]["sha256"], sha256_file(&archive));
    assert!(
        ours[&payload]["limitations"]
            .to_string()
            .contains("overlay"),
        "{}",
        ours[&payload]
    );
    check(&archive, result, &format!("{payload}/"));
}

#[test]
fn a_squirrel_setup_is_read_from_its_resource_down_to_its_asar() {
    let corpus = support::corpus("asar-corpus.sh", "asar");
    let win = support::corpus("win-corpus.sh", "win");
    let program = win.join("node_modules/7zip-bin/win/x64/7za.exe");
    let dir = tempfile::tempdir().unwrap();
    // What Squirrel's releasify packs: the app in a .nupkg under lib/net45, and a bundle zip of
    // Update.exe and that package, written into Setup.exe as resource DATA/131.
    let package = dir.path().join("package");
    std::fs::create_dir_all(package.join("lib/net45/resources")).unwrap();
    std::fs::copy(
        corpus.join("plain.asar"),
        package.join("lib/net45/resources/app.asar"),
    )
    .unwrap();
    std::fs::copy(&program, package.join("lib/net45/fixture.exe")).unwrap();
    std::fs::write(package.join("fixture.nuspec"), "<package/>\n").unwrap();
    let bundle = dir.path().join("bundle");
    std::fs::create_dir_all(&bundle).unwrap();
    support::python_script(
        "zip_tool.py",
        &[
            "pack".as_ref(),
            package.as_os_str(),
            bundle.join("fixture-1.0.0-full.nupkg").as_os_str(),
        ],
    );
    std::fs::copy(&program, bundle.join("Update.exe")).unwrap();
    let bundle_zip = dir.path().join("bundle.zip");
    support::python_script(
        "zip_tool.py",
        &["pack".as_ref(), bundle.as_os_str(), bundle_zip.as_os_str()],
    );
    let setup = dir.path().join("FixtureSetup.exe");
    let output = std::process::Command::new("node")
        .arg(support::scripts().join("squirrel_setup.mjs"))
        .args([
            win.as_os_str(),
            program.as_os_str(),
            setup.as_os_str(),
            bundle_zip.as_os_str(),
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");

    let value = inventory_json(&setup, &[]);
    let result = &value["result"];
    let ours = support::occurrences_under(result, "");
    let payloads: Vec<&String> = ours
        .keys()
        .filter(|path| !path.contains('/') && path.ends_with(".zip"))
        .collect();
    assert_eq!(
        payloads.len(),
        1,
        "{:?}",
        ours.keys().take(5).collect::<Vec<_>>()
    );
    let payload = payloads[0].clone();
    // Byte for byte what 7-Zip's PE reader extracts as the resource.
    let extracted = dir.path().join("resource.zip");
    support::python_script(
        "sevenz_tool.py",
        &[
            "extract".as_ref(),
            setup.as_os_str(),
            OsStr::new(".rsrc/DATA/131"),
            extracted.as_os_str(),
            OsStr::new("PE"),
        ],
    );
    assert_eq!(ours[&payload]["sha256"], sha256_file(&extracted));
    assert!(
        ours[&payload]["limitations"]
            .to_string()
            .contains("resources"),
        "{}",
        ours[&payload]
    );
    let nupkg = format!("{payload}/fixture-1.0.0-full.nupkg");
    assert_eq!(
        ours[&format!("{nupkg}/lib/net45/fixture.exe")]["sha256"],
        sha256_file(&program)
    );
    support::assert_plain_asar_at(result, &format!("{nupkg}/lib/net45/resources/app.asar"));
    support::assert_analyzed_like_plain_asar(&setup);
}

#[test]
fn encrypted_members_are_never_read_and_an_encrypted_header_is_a_typed_error() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("encrypted.7z");
    pack(&tree, &archive, "encrypted");
    let value = inventory_json(&archive, &[]);
    let ours = support::occurrences_under(&value["result"], "");
    let files: Vec<&Value> = ours
        .values()
        .filter(|o| o["entry_kind"] == "file")
        .collect();
    assert!(files.len() > 1000);
    for o in &files {
        if o["size"] == 0 {
            continue;
        }
        assert_eq!(o["hash_status"], "unavailable", "{o}");
        assert!(o["limitations"].to_string().contains("encrypted"), "{o}");
    }
    // Directories and names are still listed, as 7-Zip lists them without the password.
    assert!(ours.contains_key("node_modules/express/package.json"));

    let hidden = dir.path().join("hidden.7z");
    pack(&tree, &hidden, "encrypted-header");
    let stderr = support::inventory_fails(&hidden);
    assert!(stderr.contains("encrypted"), "{stderr}");
}

#[test]
fn broken_archives_are_noted_where_they_sit_and_typed_errors_at_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let (src, inputs) = support::text_tree(dir.path(), 100_000);
    // Not solid and stored: one byte of one file's data changes, and only its CRC-32 can tell.
    let good = inputs.join("good.7z");
    pack(&src, &good, "copy");
    let bytes = std::fs::read(&good).unwrap();
    let mut flipped = bytes.clone();
    let at = flipped
        .windows(11)
        .position(|w| w == b"line 50000\n")
        .expect("stored text");
    flipped[at] = b'L';
    std::fs::write(inputs.join("flipped.7z"), &flipped).unwrap();
    std::fs::write(inputs.join("cut.7z"), &bytes[..bytes.len() - 20]).unwrap();
    std::fs::write(inputs.join("text.7z"), "not an archive").unwrap();

    let value = inventory_json(&inputs, &[]);
    let ours = support::occurrences_under(&value["result"], "");
    let note = |name: &str| ours[name]["limitations"].to_string();
    support::assert_noted(&ours, &["cut.7z", "text.7z"], "not a readable 7z archive");
    assert_eq!(ours["good.7z/text.txt"]["hash_status"], "hashed");
    // The file whose bytes fail their CRC-32 is unavailable; the run goes on.
    let broken = &ours["flipped.7z/text.txt"];
    assert_eq!(broken["hash_status"], "unavailable", "{broken}");
    assert!(
        broken["limitations"].to_string().contains("CRC"),
        "{broken}"
    );
    assert!(
        note("flipped.7z").contains("could not be decoded"),
        "{}",
        note("flipped.7z")
    );
    assert_eq!(
        ours["good.7z/small.txt"]["sha256"],
        ours["flipped.7z/small.txt"]["sha256"]
    );

    for name in ["cut.7z", "text.7z"] {
        support::inventory_fails(&inputs.join(name));
    }
}
