//! `inspect_artifact` on the committed sample application: what an agent reads first.

use rea_core::{CancelToken, IntegrityPolicy, Limits, ProgressReporter};
use rea_jobs::inspect::InspectRequest;
use rea_jobs::{Engine, JobControl};
use serde_json::{Value, json};

fn inspect(max_observations: u32) -> Value {
    let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
    let ctl = JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    };
    let request = InspectRequest {
        input_path: rea_tests::corpora().join("inventory/sample-app"),
        limits: Limits::default(),
        integrity: IntegrityPolicy::Fail,
        max_observations,
    };
    let published = Engine::new(2)
        .unwrap()
        .inspect_artifact(&request, &ctl)
        .unwrap();
    serde_json::from_slice::<Value>(&published.envelope_bytes()).unwrap()["result"].clone()
}

#[test]
fn entrypoints_counts_and_next_tools_of_the_sample() {
    let result = inspect(20);
    let entrypoints = result["entrypoints"].as_array().unwrap();
    let has = |path: &str, role: &str| {
        entrypoints
            .iter()
            .any(|e| e["logical_path"] == path && e["role"] == role && e["present"] == true)
    };
    assert!(has("src/main.js", "package-main"), "{entrypoints:?}");
    assert!(has("src/index.html", "html"));
    assert!(has("resources/native/addon.node", "native-addon"));
    // package.json files under node_modules name dependencies, not the application.
    assert!(
        !entrypoints
            .iter()
            .any(|e| e["logical_path"].as_str().unwrap().contains("node_modules"))
    );
    let kinds = &result["counts"]["by_kind"];
    assert_eq!(kinds["javascript"], 5);
    assert_eq!(kinds["package-metadata"], 2);
    let counted: u64 = kinds
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(counted, result["summary"]["files"].as_u64().unwrap());
    let sizes: Vec<u64> = result["largest_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["size"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(result["largest_files"][0]["logical_path"], "src/main.js");
    let tools: Vec<&str> = result["suggested_next_tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        vec![
            "analyze_javascript_application",
            "extract_artifact",
            "inventory_artifact"
        ]
    );
    assert_eq!(
        result["integrity"],
        json!({"verified": 0, "mismatched": 0, "unverifiable": 0, "unavailable": 0, "contradictions": 0, "asar_headers": [], "electron_fuses": []})
    );
}

#[test]
fn lists_are_bounded_by_max_observations_and_say_so() {
    let result = inspect(2);
    for key in ["largest_files", "entrypoints"] {
        assert_eq!(result[key].as_array().unwrap().len(), 2, "{key}");
    }
    assert!(
        result["limitations"]
            .to_string()
            .contains("cut at max_observations 2")
    );
}
