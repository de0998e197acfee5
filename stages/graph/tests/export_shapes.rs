//! `rea_graph::shapes`: each rule of the export shape comparison on exports written for it.

use rea_core::{CancelToken, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_graph::shapes::{self, Limits, Selector, Side};
use serde_json::{Value, json};

fn export(path: &str, name: &str, shapes: Value, status: &str) -> Value {
    json!({"module_path": path, "export_name": name, "kind": "function", "syntax": "esm",
           "async": false, "generator": false, "parameter_arity": 1, "shapes": shapes,
           "status": status, "export_id": format!("jsx_{path}#{name}")})
}

fn side(id: &str, exports: Vec<Value>) -> Side {
    Side {
        evidence_id: id.to_owned(),
        graph_id: format!("jag_{id}"),
        exports: Some(exports),
    }
}

fn select(path: &str, name: &str) -> Selector {
    Selector {
        module_path: path.to_owned(),
        module_key: None,
        export_name: name.to_owned(),
    }
}

fn compare(left: Vec<Value>, right: Vec<Value>) -> Value {
    compare_sides(&side("ev_l", left), &side("ev_r", right), "api.js", "get")
}

fn compare_sides(left: &Side, right: &Side, path: &str, name: &str) -> Value {
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Graph, &cancel, &progress);
    let selector = select(path, name);
    let result = shapes::compare(
        &cx,
        [left, right],
        [&selector, &selector],
        Limits {
            max_changes: 100,
            max_candidates: 10,
        },
        &json!({}),
    )
    .unwrap();
    assert_eq!(
        shapes::comparison_id(&result).unwrap(),
        result["comparison_id"].as_str().unwrap()
    );
    result
}

fn object(fields: Value, complete: bool) -> Value {
    json!({"type": "object", "fields": fields, "complete": complete})
}

fn string(value: &str) -> Value {
    json!({"type": "string", "value": value})
}

/// (pointer, change) of every listed change.
fn changes(result: &Value) -> Vec<(String, String)> {
    result["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["pointer"].as_str().unwrap().to_owned(),
                c["change"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn equal_shapes_are_unchanged_and_fields_are_added_only_between_complete_objects() {
    let v1 = object(
        json!({"type": string("user"), "id": {"type": "number"}}),
        true,
    );
    let same = compare(
        vec![export("api.js", "get", json!([v1]), "complete")],
        vec![export("api.js", "get", json!([v1]), "complete")],
    );
    assert_eq!(same["status"], "unchanged");
    assert_eq!(same["coverage"], "complete");
    assert!(same["recommendation"].is_null());
    let v2 = object(
        json!({"type": string("user"), "id": {"type": "string"}, "a/b~": {"type": "null"}}),
        true,
    );
    let changed = compare(
        vec![export("api.js", "get", json!([v1]), "complete")],
        vec![export("api.js", "get", json!([v2]), "complete")],
    );
    assert_eq!(changed["status"], "changed");
    // Keys in code-point order, the pointer escaped as RFC 6901 says.
    assert_eq!(
        changes(&changed),
        [
            ("/a~1b~0".to_owned(), "added".to_owned()),
            ("/id".to_owned(), "changed".to_owned())
        ]
    );
    // The same field missing from an object that may hold more keys is unknown.
    let open = object(
        json!({"type": string("user"), "id": {"type": "number"}}),
        false,
    );
    let unknown = compare(
        vec![export("api.js", "get", json!([open]), "complete")],
        vec![export("api.js", "get", json!([v2]), "complete")],
    );
    assert_eq!(
        changes(&unknown),
        [
            ("/a~1b~0".to_owned(), "unknown".to_owned()),
            ("/id".to_owned(), "changed".to_owned()),
            (String::new(), "unknown".to_owned())
        ]
    );
    assert_eq!(unknown["status"], "changed");
    assert_eq!(unknown["coverage"], "partial");
    assert_eq!(unknown["recommendation"]["action"], "controlled-replay");
}

#[test]
fn variants_pair_on_a_unique_literal_discriminant() {
    let user = |extra: Value| {
        let mut fields = json!({"type": string("user"), "name": {"type": "string"}});
        fields
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        object(fields, true)
    };
    let error = object(
        json!({"type": string("error"), "code": {"type": "number"}}),
        true,
    );
    let result = compare(
        vec![export(
            "api.js",
            "get",
            json!([user(json!({})), error]),
            "complete",
        )],
        vec![export(
            "api.js",
            "get",
            json!([error, user(json!({"email": {"type": "string"}}))]),
            "complete",
        )],
    );
    let variants = result["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[0]["pairing"], "discriminant");
    assert_eq!(
        variants[0]["discriminant"],
        json!({"pointer": "/type", "value": "user"})
    );
    assert_eq!(
        (&variants[0]["left"], &variants[0]["right"]),
        (&json!(0), &json!(1))
    );
    assert_eq!(variants[1]["pairing"], "identical");
    assert_eq!(
        changes(&result),
        [("/email".to_owned(), "added".to_owned())]
    );
    assert_eq!(result["changes"][0]["variant"], 0);
    // A variant with no counterpart is added, unless the other side has an unknown variant.
    let more = compare(
        vec![export(
            "api.js",
            "get",
            json!([user(json!({}))]),
            "complete",
        )],
        vec![export(
            "api.js",
            "get",
            json!([user(json!({})), error]),
            "complete",
        )],
    );
    assert_eq!(changes(&more), [(String::new(), "added".to_owned())]);
    let call = json!({"type": "unknown", "reason": "call"});
    let undecided = compare(
        vec![export(
            "api.js",
            "get",
            json!([user(json!({})), call]),
            "complete",
        )],
        vec![export(
            "api.js",
            "get",
            json!([user(json!({})), call, error]),
            "complete",
        )],
    );
    assert_eq!(undecided["status"], "unknown");
    assert_eq!(
        changes(&undecided),
        [
            (String::new(), "unknown".to_owned()),
            (String::new(), "unknown".to_owned())
        ]
    );
}

#[test]
fn unknown_parts_are_never_equal_and_partial_exports_never_unchanged() {
    let call = json!({"type": "unknown", "reason": "call"});
    let both = compare(
        vec![export("api.js", "get", json!([call]), "complete")],
        vec![export("api.js", "get", json!([call]), "complete")],
    );
    assert_eq!(both["status"], "unknown");
    assert_eq!(changes(&both), [(String::new(), "unknown".to_owned())]);
    let partial = compare(
        vec![export("api.js", "get", json!([string("x")]), "partial")],
        vec![export("api.js", "get", json!([string("x")]), "complete")],
    );
    assert_eq!(partial["status"], "unknown");
    assert!(changes(&partial).is_empty());
    // A literal against a computed string of the same type is unknown; two literals differ.
    let literal = compare(
        vec![export("api.js", "get", json!([string("x")]), "complete")],
        vec![export(
            "api.js",
            "get",
            json!([{"type": "string"}]),
            "complete",
        )],
    );
    assert_eq!(changes(&literal), [(String::new(), "unknown".to_owned())]);
    let imported = |of: &str| json!({"type": "instance", "of": of, "from": "./model"});
    let renamed = compare(
        vec![export(
            "api.js",
            "get",
            json!([imported("User")]),
            "complete",
        )],
        vec![export(
            "api.js",
            "get",
            json!([imported("Account")]),
            "complete",
        )],
    );
    assert_eq!(changes(&renamed), [(String::new(), "changed".to_owned())]);
    let local = compare(
        vec![export(
            "api.js",
            "get",
            json!([{"type": "instance", "of": "User"}]),
            "complete",
        )],
        vec![export(
            "api.js",
            "get",
            json!([imported("User")]),
            "complete",
        )],
    );
    assert_eq!(changes(&local), [(String::new(), "unknown".to_owned())]);
}

#[test]
fn attributes_change_and_selectors_match_exactly_or_list_candidates() {
    let mut later = export("api.js", "get", json!([string("x")]), "complete");
    later["async"] = json!(true);
    later["syntax"] = json!("commonjs");
    let result = compare(
        vec![export("api.js", "get", json!([string("x")]), "complete")],
        vec![later],
    );
    assert_eq!(result["status"], "changed");
    // The module syntax is shown by each side's record, not compared.
    assert_eq!(
        result["attribute_changes"],
        json!([{"attribute": "async", "left": false, "right": true}])
    );
    let left = side(
        "ev_l",
        vec![
            export("api.js", "get", json!([]), "complete"),
            export("api.js", "put", json!([]), "complete"),
            export("lib/get.js", "fetch", json!([]), "complete"),
            export("other.js", "gets", json!([]), "complete"),
        ],
    );
    let right = side(
        "ev_r",
        vec![export("api.js", "gets", json!([]), "complete")],
    );
    let missing = compare_sides(&left, &right, "api.js", "fetch");
    assert_eq!(missing["status"], "unknown");
    assert_eq!(missing["reason"], "both-missing");
    let names: Vec<(&str, &str)> = missing["left"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["module_path"].as_str().unwrap(),
                c["export_name"].as_str().unwrap(),
            )
        })
        .collect();
    // The module's exports, then the name elsewhere; nothing fuzzy ("gets" is not "get").
    assert_eq!(
        names,
        [
            ("api.js", "get"),
            ("api.js", "put"),
            ("lib/get.js", "fetch")
        ]
    );
    assert!(missing["left"]["export"].is_null());
    let old = Side {
        evidence_id: "ev_old".to_owned(),
        graph_id: "jag_old".to_owned(),
        exports: None,
    };
    let unavailable = compare_sides(&old, &right, "api.js", "gets");
    assert_eq!(unavailable["left"]["selection"], "unavailable");
    assert_eq!(unavailable["reason"], "no-export-shapes");
}
