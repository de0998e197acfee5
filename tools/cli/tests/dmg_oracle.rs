//! Apple disk images against 7-Zip: HFSX volumes of the corpus tree wrapped in UDIF images
//! with zlib (UDZO), bzip2 (UDBZ), LZFSE (ULFO), xz (ULMO) and raw runs, alone on the disk or
//! in a GUID partition map as `hdiutil` lays one out, and with every file compressed by the
//! file system (decmpfs zlib or LZVN, in its attribute or its resource fork)
//! (`corpora/scripts/dmg_tool.py`), listed and
//! hashed from what `7zz x` extracts; a macOS application bundle (its framework symlinks, its
//! `app.asar` and `.unpacked` companion) read down to the ASAR; broken images.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

mod support;

use support::inventory_json;

/// `dmg_tool.py pack SRC DEST METHOD LAYOUT`: LAYOUT `volume` (the volume alone on the disk)
/// or `gpt` (in a GUID partition map, as `hdiutil` lays out a disk).
fn pack(src: &Path, dest: &Path, method: &str, layout: &str) {
    pack_with(src, dest, method, layout, "plain");
}

/// The same, with COMPRESSION `plain` or `decmpfs[-lzvn|-lzfse]` (every regular file
/// compressed by the file system, as `ditto --hfsCompression` stores one). LZFSE and LZVN come
/// from Apple's reference encoder, in the test venv.
fn pack_with(src: &Path, dest: &Path, method: &str, layout: &str, compression: &str) {
    let python = if method == "lzfse" || compression.starts_with("decmpfs-") {
        support::python()
    } else {
        "python3".into()
    };
    support::python_script_with(
        &python,
        "dmg_tool.py",
        &[
            "pack".as_ref(),
            src.as_os_str(),
            dest.as_os_str(),
            OsStr::new(method),
            OsStr::new(layout),
            OsStr::new(compression),
        ],
    );
}

/// Our occurrences below `prefix`, outside the archives nested there, equal what 7-Zip
/// extracts from the image `dmg`.
fn check(dmg: &Path, result: &Value, prefix: &str) -> usize {
    let oracle = support::python_lines("dmg_tool.py", &["list".as_ref(), dmg.as_os_str()]);
    let ours: std::collections::BTreeMap<String, Value> =
        support::occurrences_under(result, prefix)
            .into_iter()
            .filter(|(path, _)| !path.contains(".asar/"))
            .collect();
    support::assert_listing(&oracle, &ours)
}

#[test]
fn images_of_every_run_kind_match_7zip() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for (method, layout, compression) in [
        ("zlib", "gpt", "plain"),
        ("bzip2", "volume", "plain"),
        ("raw", "volume", "plain"),
        ("lzfse", "gpt", "plain"),
        ("xz", "volume", "plain"),
        ("zlib", "volume", "decmpfs"),
        ("zlib", "volume", "decmpfs-lzvn"),
    ] {
        let dmg = dir
            .path()
            .join(format!("fixture-{method}-{compression}.dmg"));
        pack_with(&tree, &dmg, method, layout, compression);
        let value = inventory_json(&dmg, &[]);
        let result = &value["result"];
        assert_eq!(
            support::root_format(result),
            "dmg",
            "{method} {compression}"
        );
        assert_eq!(
            result["summary"]["unavailable"], 0,
            "{method} {compression}"
        );
        let members = check(&dmg, result, "");
        assert!(members > 1500, "{method} {compression}: {members}");
    }
}

#[test]
fn a_mac_application_is_read_down_to_its_asar() {
    let dir = tempfile::tempdir().unwrap();
    // The volume as electron-builder lays it out: the bundle, and a link to /Applications.
    let volume = dir.path().join("volume");
    let contents = volume.join("Fixture.app/Contents");
    let framework = contents.join("Frameworks/Electron Framework.framework");
    support::place_asar(&contents.join("Resources"), "unpack-node.asar");
    std::fs::create_dir_all(framework.join("Versions/A/Resources")).unwrap();
    std::fs::write(
        framework.join("Versions/A/Resources/Info.plist"),
        "<plist/>",
    )
    .unwrap();
    std::os::unix::fs::symlink("A", framework.join("Versions/Current")).unwrap();
    std::os::unix::fs::symlink("Versions/Current/Resources", framework.join("Resources")).unwrap();
    std::os::unix::fs::symlink("/Applications", volume.join("Applications")).unwrap();
    let dmg = dir.path().join("Fixture-1.0.0.dmg");
    pack(&volume, &dmg, "zlib", "gpt");

    let result = &inventory_json(&dmg, &[])["result"];
    check(&dmg, result, "");
    let ours = support::occurrences_under(result, "");
    assert_eq!(ours["Applications"]["link_target"], "/Applications");
    assert_eq!(
        ours["Fixture.app/Contents/Frameworks/Electron Framework.framework/Versions/Current"]["link_target"],
        "A"
    );
    // The ASAR, its unpacked add-on read from the volume beside it.
    support::assert_asar_at(
        result,
        "Fixture.app/Contents/Resources/app.asar",
        "unpack-node.asar",
    );
    support::assert_analyzed_like(&dmg, "unpack-node.asar");
}

#[test]
fn broken_images_are_noted_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (src, inputs) = support::text_tree(dir.path(), 40_000);
    let dmg = inputs.join("good.dmg");
    pack(&src, &dmg, "zlib", "volume");
    let bytes = std::fs::read(&dmg).unwrap();

    // A byte flipped in the compressed runs: the file whose bytes lie there is unavailable,
    // with the reason; the rest of the volume is listed.
    let flipped = support::inventory_flipped(&bytes, bytes.len() / 2, &inputs.join("flipped.dmg"));
    support::assert_unavailable_saying(&flipped, "could not be read");

    // No trailer, and a trailer whose property list is cut: typed failures.
    let cut = inputs.join("cut.dmg");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let stderr = support::inventory_fails(&cut);
    assert!(stderr.contains("disk image"), "{stderr}");
    let not = inputs.join("not.dmg");
    std::fs::write(&not, b"not a disk image at all").unwrap();
    support::inventory_fails(&not);

    // Nested, a broken image is a note on its occurrence, not the run's failure.
    let outer = dir.path().join("outer");
    std::fs::create_dir_all(&outer).unwrap();
    std::fs::copy(&cut, outer.join("cut.dmg")).unwrap();
    let result = &inventory_json(&outer, &[])["result"];
    let ours = support::occurrences_under(result, "");
    assert!(
        ours["cut.dmg"]["limitations"]
            .to_string()
            .contains("disk image"),
        "{}",
        ours["cut.dmg"]
    );
}

#[test]
fn hard_links_read_the_file_they_name() {
    // HFS+ keeps a hard-linked file's bytes once, as `iNode<id>` in its private folder, and
    // each link as a record naming it. 7-Zip lists the links empty and the private folder as a
    // folder; REA reads each link as the file it names and leaves the private folder out, so
    // the judge here is the source tree itself, read by Python's standard library.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::create_dir_all(src.join("b")).unwrap();
    let shared: String = (0..30_000).map(|i| format!("shared {i}\n")).collect();
    std::fs::write(src.join("a/one.txt"), &shared).unwrap();
    std::fs::hard_link(src.join("a/one.txt"), src.join("b/two.txt")).unwrap();
    std::fs::hard_link(src.join("a/one.txt"), src.join("three.txt")).unwrap();
    std::fs::write(src.join("solo.txt"), "solo").unwrap();
    let dmg = dir.path().join("links.dmg");
    pack(&src, &dmg, "zlib", "volume");
    let oracle = support::python_lines("list_tree.py", &[src.as_os_str()]);
    let result = &inventory_json(&dmg, &[])["result"];
    assert_eq!(
        support::assert_listing(&oracle, &support::occurrences_under(result, "")),
        6
    );
}

#[test]
fn files_the_file_system_compresses_with_lzfse_match_their_source() {
    // decmpfs types 11 and 12 (LZFSE in the attribute, or in chunks of the resource fork),
    // from Apple's reference encoder. 7-Zip does not read them ("Unsupported Method"), so the
    // judge is the source tree itself, read by Python's standard library.
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    let dmg = dir.path().join("lzfse-files.dmg");
    pack_with(&tree, &dmg, "zlib", "volume", "decmpfs-lzfse");
    let oracle = support::python_lines("list_tree.py", &[tree.as_os_str()]);
    let result = &inventory_json(&dmg, &[])["result"];
    assert_eq!(result["summary"]["unavailable"], 0);
    let ours: std::collections::BTreeMap<String, Value> = support::occurrences_under(result, "")
        .into_iter()
        .filter(|(path, _)| !path.contains(".asar/"))
        .collect();
    assert!(support::assert_listing(&oracle, &ours) > 1500);
}

#[test]
fn free_space_takes_no_part_of_the_memory_bound() {
    // The disk is decoded into a sparse in-memory file, so the bound weighs the runs that hold
    // data: a volume holding 4 MiB of zeros (zero runs) is read under a bound smaller than its
    // disk, and one holding 4 MiB of text, which inflates past the bound, is not.
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let text: Vec<u8> = (0..400_000)
        .flat_map(|i| format!("line {i}\n").into_bytes())
        .collect();
    for (name, data) in [("sparse", vec![0u8; 4 << 20]), ("dense", text)] {
        let src = dir.path().join(name);
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("data.bin"), data).unwrap();
        std::fs::write(src.join("index.js"), "console.log(1);\n").unwrap();
        pack(&src, &inputs.join(format!("{name}.dmg")), "zlib", "volume");
    }
    // Each image may take its own size in memory, and at least 1 MiB.
    let result = &inventory_json(&inputs, &["--max-compression-ratio", "1"])["result"];
    let ours = support::occurrences_under(result, "");
    assert_eq!(ours["sparse.dmg/data.bin"]["size"], 4 << 20);
    assert_eq!(ours["sparse.dmg/data.bin"]["hash_status"], "hashed");
    assert_eq!(ours["sparse.dmg/index.js"]["hash_status"], "hashed");
    assert!(!ours.contains_key("dense.dmg/data.bin"));
    support::assert_noted(&ours, &["dense.dmg"], "more than the");
}
