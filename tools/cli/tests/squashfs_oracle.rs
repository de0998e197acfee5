//! SquashFS inventories (AppImages, snaps) against squashfs-tools: images packed by
//! `mksquashfs` with each compressor and block layout it offers, listed and hashed from what
//! `unsquashfs` extracts (`corpora/scripts/squashfs_tool.py`); an AppImage laid out as
//! appimagetool lays it out, holding an `app.asar` packed by `@electron/asar` and a binary
//! whose fuses `@electron/fuses` flipped; and broken
//! images, which are typed errors at the root and notes where they are nested.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod support;

use support::inventory_json;

fn squashfs_tool(args: &[&OsStr]) -> Vec<u8> {
    support::python_script("squashfs_tool.py", args)
}

fn pack(src: &Path, dest: &Path, comp: &str, extra: &[&str]) {
    let mut args: Vec<&OsStr> = vec![
        "pack".as_ref(),
        src.as_os_str(),
        dest.as_os_str(),
        comp.as_ref(),
    ];
    args.extend(extra.iter().map(|a| OsStr::new(*a)));
    squashfs_tool(&args);
}

/// Our occurrences below `prefix` equal what `unsquashfs -o offset` extracts from `image`.
fn check(image: &Path, offset: u64, result: &Value, prefix: &str) -> usize {
    let offset = offset.to_string();
    let oracle = support::python_lines(
        "squashfs_tool.py",
        &["list".as_ref(), image.as_os_str(), offset.as_ref()],
    );
    let ours: BTreeMap<String, Value> = support::occurrences_under(result, prefix)
        .into_iter()
        .filter(|(path, _)| !path.contains(".asar/"))
        .collect();
    support::assert_listing(&oracle, &ours)
}

#[test]
fn images_by_every_compressor_and_layout_match_unsquashfs() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    // Each compressor once, each with another of mksquashfs's block layouts: fragments (the
    // default), 1 MiB blocks, no fragments, every tail in a fragment with 4 KiB blocks, and
    // nothing compressed at all.
    let layouts: [(&str, &[&str]); 5] = [
        ("gzip", &[]),
        ("xz", &["-b", "1M"]),
        ("zstd", &["-no-fragments"]),
        ("lz4", &["-always-use-fragments", "-b", "4K"]),
        ("gzip", &["-noI", "-noD", "-noF", "-noX"]),
    ];
    for (i, (comp, extra)) in layouts.iter().enumerate() {
        let image = dir.path().join(format!("tree-{i}-{comp}.squashfs"));
        pack(&tree, &image, comp, extra);
        let value = inventory_json(&image, &[]);
        let result = &value["result"];
        assert_eq!(
            result["limitations"],
            serde_json::json!([]),
            "{comp} {extra:?}"
        );
        let members = check(&image, 0, result, "");
        assert!(members > 1500, "{comp}: {members}");
    }
}

#[test]
fn holes_tails_duplicates_and_links_match_unsquashfs() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let status = Command::new("bash")
        .arg("-c")
        .arg(
            "set -e; mkdir -p \"$1/a/b\" \"$1/é\"; cd \"$1\"; \
             truncate -s 5000000 sparse; printf 'middle' | dd of=sparse bs=1 seek=2600000 conv=notrunc status=none; \
             : > empty; head -c 131072 /dev/urandom > a/exact-block; \
             head -c 300000 /dev/urandom > a/b/random; cp a/b/random a/b/copy; ln a/b/random a/hard; \
             seq 1 100000 > é/numbers; ln -s a/b dirlink; ln -s /etc/missing dangling",
        )
        .arg("-")
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    for comp in ["gzip", "xz", "zstd", "lz4"] {
        let image = dir.path().join(format!("odd-{comp}.sqsh"));
        pack(&src, &image, comp, &[]);
        let value = inventory_json(&image, &[]);
        let result = &value["result"];
        assert_eq!(result["limitations"], serde_json::json!([]), "{comp}");
        let members = check(&image, 0, result, "");
        assert_eq!(members, 12, "{comp}");
        // Byte-identical files share one content node.
        let ours = support::occurrences_under(result, "");
        assert_eq!(
            ours["a/b/random"]["artifact_id"],
            ours["a/b/copy"]["artifact_id"]
        );
        assert_eq!(
            ours["a/hard"]["artifact_id"],
            ours["a/b/copy"]["artifact_id"]
        );
    }
}

#[test]
fn an_appimage_is_read_after_its_runtime_down_to_its_asar() {
    let dir = tempfile::tempdir().unwrap();
    let app = support::app_tree(dir.path(), "squashfs-root");
    // The Electron binary beside resources/ (a real ELF standing in), with a fuse wire seeded
    // and flipped by the official @electron/fuses, and the version file Electron ships beside it.
    let binary = app.join("fixture");
    std::fs::copy("/usr/bin/true", &binary).unwrap();
    support::fuses_tool("seed", &[binary.as_os_str()]);
    support::fuses_tool(
        "flip",
        &[binary.as_os_str(), r#"{"0": false, "2": false}"#.as_ref()],
    );
    std::fs::write(app.join("version"), "33.2.1").unwrap();
    std::os::unix::fs::symlink("fixture", app.join("AppRun")).unwrap();
    let image = dir.path().join("app.squashfs");
    pack(&app, &image, "zstd", &[]);
    let appimage = dir.path().join("Fixture-1.0.0.AppImage");
    // A real ELF stands in for the AppImage runtime; the script reads its size from the ELF
    // header, as the runtime does.
    let printed = squashfs_tool(&[
        "appimage".as_ref(),
        "/usr/bin/true".as_ref(),
        image.as_os_str(),
        appimage.as_os_str(),
    ]);
    let offset: u64 = String::from_utf8(printed).unwrap().trim().parse().unwrap();
    assert!(offset > 0);

    let value = inventory_json(&appimage, &[]);
    let result = &value["result"];
    check(&appimage, offset, result, "");
    let root = &result["occurrences"]["items"][0];
    assert_eq!(root["logical_path"], ".");
    let root_node = result["nodes"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["artifact_id"] == root["artifact_id"])
        .unwrap();
    assert_eq!(root_node["format"], "appimage", "{root_node}");

    // The archive inside is expanded in place, entry for entry as when it is the input.
    support::assert_plain_asar_at(result, "resources/app.asar");
    assert_eq!(result["asar_headers"].as_array().unwrap().len(), 1);

    // The fuses of the binary inside the image, as the official reader reads them.
    let binaries = result["electron_fuses"].as_array().unwrap();
    assert_eq!(binaries.len(), 1, "{binaries:?}");
    assert_eq!(binaries[0]["logical_path"], "fixture");
    assert_eq!(binaries[0]["electron_version"], "33.2.1");
    support::assert_fuses_match_the_official_reader(&binaries[0], &binary);
    assert_eq!(binaries[0]["fuses"][0]["state"], "disabled");

    // The application analysis reads the same image.
    support::assert_analyzed_like_plain_asar(&appimage);
}

#[test]
fn broken_images_are_noted_where_they_sit_and_typed_errors_at_the_root() {
    let dir = tempfile::tempdir().unwrap();
    // Compressible text, so that a flipped byte lands in a compressed data block.
    let (src, inputs) = support::text_tree(dir.path(), 200_000);
    let good = inputs.join("good.squashfs");
    pack(&src, &good, "gzip", &["-no-fragments"]);
    let bytes = std::fs::read(&good).unwrap();
    // Cut short: the tables at its end are gone.
    std::fs::write(inputs.join("cut.squashfs"), &bytes[..bytes.len() / 2]).unwrap();
    // A data block corrupted: zlib's checksum catches it.
    let mut flipped = bytes.clone();
    for b in &mut flipped[300..340] {
        *b ^= 0x5a;
    }
    std::fs::write(inputs.join("flipped.squashfs"), &flipped).unwrap();
    // Named like an AppImage: an ELF with no image after it, and text.
    std::fs::copy("/usr/bin/true", inputs.join("runtime-only.AppImage")).unwrap();
    std::fs::write(inputs.join("text.AppImage"), "not an image").unwrap();
    // A compressor REA does not read (lzo): even its tables are unreadable.
    pack(&src, &inputs.join("lzo.snap"), "lzo", &[]);

    let value = inventory_json(&inputs, &[]);
    let ours = support::occurrences_under(&value["result"], "");
    let note = |name: &str| ours[name]["limitations"].to_string();
    for name in [
        "cut.squashfs",
        "runtime-only.AppImage",
        "text.AppImage",
        "lzo.snap",
    ] {
        assert!(
            note(name).contains("not a readable SquashFS image"),
            "{name}: {}",
            note(name)
        );
        assert_eq!(ours[name]["hash_status"], "hashed", "{name}");
    }
    assert!(note("runtime-only.AppImage").contains("no SquashFS image follows the ELF runtime"));
    // The corrupt block spoils its file only.
    assert_eq!(
        ours["flipped.squashfs/text.txt"]["hash_status"],
        "unavailable"
    );
    assert!(
        ours["flipped.squashfs/text.txt"]["limitations"]
            .to_string()
            .contains("could not be read"),
        "{}",
        ours["flipped.squashfs/text.txt"]
    );
    assert_eq!(ours["flipped.squashfs/small.txt"]["hash_status"], "hashed");
    // The intact image, as unsquashfs extracts it.
    let good_rows = support::python_lines("squashfs_tool.py", &["list".as_ref(), good.as_os_str()]);
    let text_row = good_rows
        .iter()
        .find(|r| r["logical_path"] == "text.txt")
        .unwrap();
    assert_eq!(ours["good.squashfs/text.txt"]["hash_status"], "hashed");
    assert_eq!(ours["good.squashfs/text.txt"]["sha256"], text_row["sha256"]);
    assert_eq!(
        ours["flipped.squashfs/small.txt"]["sha256"],
        ours["good.squashfs/small.txt"]["sha256"]
    );

    // At the root, an unreadable image is a typed error.
    for name in [
        "cut.squashfs",
        "runtime-only.AppImage",
        "text.AppImage",
        "lzo.snap",
    ] {
        support::inventory_fails(&inputs.join(name));
    }
}
