//! The pipeline's cost estimate reads an archive's index only: an ASAR's header length, a
//! zip's central directory (written here by CPython's zipfile), nothing for other files.

use rea_tests::asar_writer::{file, pack};
use serde_json::json;

#[test]
fn entry_estimates_grow_with_entries_and_never_fail() {
    let dir = tempfile::tempdir().unwrap();
    let asar = |n: usize| {
        let files: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| (format!("module-{i:05}.js"), file(b"x", 0)))
            .collect();
        let path = dir.path().join(format!("app-{n}.asar"));
        std::fs::write(&path, pack(&json!({"files": files}), b"x")).unwrap();
        rea_traverse::entry_estimate(&path)
    };
    let (small, large) = (asar(10), asar(5000));
    // Header bytes over 128 a entry: proportional to the entries, within a small factor.
    assert!((5..=40).contains(&small), "{small}");
    assert!((2500..=20_000).contains(&large), "{large}");
    assert!(large / small >= 250, "{small} {large}");

    let zip = dir.path().join("many.zip");
    let script = "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w')\nfor i in range(321): z.writestr(f'f{i}.js','x')\nz.close()";
    let status = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&zip)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(rea_traverse::entry_estimate(&zip), 321);

    let plain = dir.path().join("plain.js");
    std::fs::write(&plain, b"console.log(1)").unwrap();
    assert_eq!(rea_traverse::entry_estimate(&plain), 0);
    assert_eq!(rea_traverse::entry_estimate(&dir.path().join("missing")), 0);
    assert_eq!(rea_traverse::entry_estimate(dir.path()), 0);
    let truncated = dir.path().join("truncated.asar");
    std::fs::write(&truncated, &pack(&json!({"files": {}}), b"")[..10]).unwrap();
    assert_eq!(rea_traverse::entry_estimate(&truncated), 0);
}
