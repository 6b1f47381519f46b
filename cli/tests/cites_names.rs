//! `cites` on names as JavaScript, Go and Java developers write them, over small sources
//! in repositories the tests create (express, viper and Jackson walks, w52): every name of a
//! chained assignment, getters, members a loop makes, a bare name several definitions have,
//! a struct's field, a type cited itself or through its methods, a name defined but cited
//! nowhere, a trace's frame as pasted and a line just past a cited range.

mod common;

use common::{one_module, one_page_citing, repo_with_files, run_in, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

/// A workspace citing `files` of one repository at `cited` (section id, range).
fn workspace(dir: &Path, files: &[(&str, &str)], cited: &[(&str, &str)]) -> PathBuf {
    let repo = dir.join("repo");
    let base = repo_with_files(&repo, files);
    let ws = dir.join("ws");
    one_module(&ws, "acme", "lib", "acme/lib", &base, "../repo");
    one_page_citing(&ws, "acme/lib", cited);
    ws
}

/// The sections `cites --symbol name` lists, and its JSON.
fn cites(ws: &Path, name: &str) -> (Vec<String>, Value) {
    let v = json(&run_in(
        ws,
        &["cites", "--symbol", name, "--format", "json"],
    ));
    let sections = (v["data"]["sections"].as_array().into_iter().flatten())
        .filter_map(|s| s["section"].as_str().map(str::to_string))
        .collect();
    (sections, v)
}

const REQUEST_JS: &str = r#"var req = Object.create(null);

/** Header lookup. */
req.get =
req.header = function header(name) {
  return name;
};

defineGetter(req, 'hostname', function hostname() {
  return 'x';
});

Object.defineProperty(req, 'secure', {
  get: function () { return true; }
});

req.handle = function handle(x) {
  return x;
};

function Layer() {}

Layer.prototype.handle_request = function handle(req) {
  return req;
};

var proto = module.exports = function (options) {
  return options;
};
"#;

#[test]
fn javascript_names_of_one_function_and_getters_are_found() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("lib/request.js", REQUEST_JS)],
        &[
            ("get", "lib/request.js:4-7"),
            ("hostname", "lib/request.js:9-11"),
            ("secure", "lib/request.js:13-15"),
            ("handle", "lib/request.js:17-19"),
            ("layer", "lib/request.js:23-25"),
            ("router", "lib/request.js:27-29"),
        ],
    );
    for name in ["req.get", "req.header", "header"] {
        assert_eq!(cites(&ws, name).0, ["section:q.md#get"], "{name}");
    }
    assert_eq!(cites(&ws, "req.hostname").0, ["section:q.md#hostname"]);
    assert_eq!(cites(&ws, "req.secure").0, ["section:q.md#secure"]);
    for name in ["proto", "module.exports"] {
        assert_eq!(cites(&ws, name).0, ["section:q.md#router"], "{name}");
    }
    // `handle` is the method `req.handle` and, by its function's own name, the Layer's
    // `handle_request`: both, and the summary names both.
    let (sections, v) = cites(&ws, "handle");
    assert_eq!(sections, ["section:q.md#handle", "section:q.md#layer"]);
    let summary = v["summary"].as_str().unwrap_or("");
    assert!(
        summary.contains("2 symbols have this name")
            && summary.contains("Layer.handle_request")
            && summary.contains("req.handle"),
        "{summary}"
    );
}

const APP_JS: &str = r#"var methods = require('methods');
var VERBS = ['get', 'post'];

methods.forEach(function(method){
  app[method] = function(path){
    return this;
  };
});

VERBS.forEach(function(verb){
  Route.prototype[verb] = function () {
    return verb;
  };
});

defineGetter(req, 'fresh', function(){
  return true;
});

res.sendfile = deprecate.function(function sendfile(path) {
  return path;
}, 'res.sendfile: Use res.sendFile instead');
"#;

/// express makes `app.get` and `Route#get` in loops over a list of methods, defines getters
/// through a helper and wraps deprecated methods (express walk, F4, F6): each is found by the
/// name a developer writes, a loop-made member with how the loop makes it, and a name no
/// loop can be shown to make hears of the loops that might.
#[test]
fn javascript_members_a_loop_makes_helper_getters_and_wrapped_methods_are_found() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("lib/app.js", APP_JS)],
        &[
            ("verbs", "lib/app.js:5-7"),
            ("route", "lib/app.js:11-13"),
            ("fresh", "lib/app.js:16-18"),
            ("sendfile", "lib/app.js:20-22"),
        ],
    );
    // The list is computed (`require('methods')`): any member of `app` may be one.
    for name in ["app.get", "app.post"] {
        let (sections, v) = cites(&ws, name);
        assert_eq!(sections, ["section:q.md#verbs"], "{name}");
        let summary = v["summary"].as_str().unwrap_or("");
        assert!(
            summary.contains("made by a loop: `app[method]` is made for each item of `methods` (a list the code computes) by the loop at lib/app.js:4-8"),
            "{summary}"
        );
    }
    // The list is written in the file: the names it makes, and only those.
    for name in ["Route#get", "Route.prototype.post", "Route.get"] {
        let (sections, v) = cites(&ws, name);
        assert_eq!(sections, ["section:q.md#route"], "{name}");
        let summary = v["summary"].as_str().unwrap_or("");
        assert!(
            summary.contains("by the loop at lib/app.js:10-14: Route.get, Route.post"),
            "{summary}"
        );
    }
    let (sections, v) = cites(&ws, "Route.put");
    assert!(sections.is_empty(), "{v}");
    // `router` is no owner any loop writes: a hint, no answer.
    let (sections, v) = cites(&ws, "router.get");
    assert!(sections.is_empty(), "{v}");
    assert!(
        v.to_string()
            .contains("`get` may be made by a loop, under a name the code does not write: `app[method]` is made for each item of `methods`"),
        "{v}"
    );
    assert_eq!(cites(&ws, "req.fresh").0, ["section:q.md#fresh"]);
    for name in ["res.sendfile", "sendfile"] {
        assert_eq!(cites(&ws, name).0, ["section:q.md#sendfile"], "{name}");
    }
}

const VIPER_GO: &str = r#"package viper

// Viper is a prioritized configuration registry.
type Viper struct {
	keyDelim string
	config   map[string]interface{}
}

// RemoteProvider stores the configuration of a remote provider.
type RemoteProvider interface {
	Provider() string
}

// Get returns the value of a key.
func (v *Viper) Get(key string) interface{} {
	return v.config[key]
}

// Set sets a key.
func (v *Viper) Set(key string, value interface{}) {
	v.config[key] = value
}
"#;

#[test]
fn go_fields_uncited_definitions_and_a_type_cited_itself_or_by_its_methods() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("viper.go", VIPER_GO)],
        &[
            ("getters", "viper.go:14-17"),
            ("struct", "viper.go:3-7"),
            ("setters", "viper.go:19-22"),
        ],
    );
    // The struct's own section first, then the ones citing only its methods, which say so.
    let (sections, v) = cites(&ws, "Viper");
    assert_eq!(
        sections,
        [
            "section:q.md#struct",
            "section:q.md#getters",
            "section:q.md#setters"
        ]
    );
    assert_eq!(v["data"]["citingItself"], 1, "{v}");
    assert_eq!(v["data"]["sections"][0].get("members"), None, "{v}");
    assert_eq!(
        v["data"]["sections"][1]["members"],
        serde_json::json!(["viper.Viper.Get"]),
        "{v}"
    );
    let text = run_in(&ws, &["cites", "--symbol", "Viper"]);
    assert!(
        text.stdout.contains(
            "3 section(s) cite \"Viper\" (1 cite it itself, 2 only what is defined in it)"
        ) && text
            .stdout
            .contains("(only what is defined in it: viper.Viper.Set)"),
        "{}",
        text.stdout
    );
    // A field of the cited struct: the section citing its line.
    for name in ["Viper.keyDelim", "keyDelim"] {
        let (sections, v) = cites(&ws, name);
        assert_eq!(sections, ["section:q.md#struct"], "{name}");
        assert_eq!(
            v["data"]["defined"],
            serde_json::json!(["field `viper.Viper.keyDelim` at viper.go:5"]),
            "{v}"
        );
    }
    // Defined in a cited file, cited nowhere: not the answer a name nothing defines gets.
    let r = run_in(&ws, &["cites", "--symbol", "RemoteProvider"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("no section cites \"RemoteProvider\"")
            && r.stdout.contains(
                "It is defined in a cited file, but no cited range covers its lines: interface `viper.RemoteProvider` at viper.go:10."
            ),
        "{}",
        r.stdout
    );
    let r = run_in(&ws, &["cites", "--symbol", "Remote"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains("no file, range or symbol in the graph matches \"Remote\""),
        "{}",
        r.stdout
    );
}

const MAPPER_JAVA: &str = r#"package com.acme.json;

public class EnumDeserializer {
    public Object deserialize(String text) {
        Object v = lookup(text);
        if (v == null) {
            v = fallback(text);
        }
        if (v == null) {
            throw new IllegalArgumentException(text);
        }
        return v;
    }

    public static class Reference {
        String field;
    }
}
"#;

#[test]
fn java_frames_as_pasted_and_lines_past_a_cited_range() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[(
            "src/main/java/com/acme/json/EnumDeserializer.java",
            MAPPER_JAVA,
        )],
        &[(
            "bad-enum",
            "src/main/java/com/acme/json/EnumDeserializer.java:4-8",
        )],
    );
    let frame = "at com.acme.json.EnumDeserializer.deserialize(EnumDeserializer.java:10)";
    let r = json(&run_in(&ws, &["cites", frame, "--format", "json"]));
    assert_eq!(
        r["data"]["sections"][0]["section"], "section:q.md#bad-enum",
        "{r}"
    );
    // The frame's line is past the cited range: the method it is in, and who cites part of it.
    let r = run_in(&ws, &["cites", "EnumDeserializer.java:10"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("Line 10 is in method `com.acme.json.EnumDeserializer.deserialize` (src/main/java/com/acme/json/EnumDeserializer.java:4-13), which this section cites in part: q.md#bad-enum."),
        "{}",
        r.stdout
    );
    // A nested class of the cited file outside the cited lines.
    for name in ["EnumDeserializer.Reference", "EnumDeserializer$Reference"] {
        let r = run_in(&ws, &["cites", "--symbol", name]);
        assert!(
            r.stdout.contains("no cited range covers its lines: class `com.acme.json.EnumDeserializer.Reference` at src/main/java/com/acme/json/EnumDeserializer.java:15."),
            "{name}: {}",
            r.stdout
        );
    }
}

const MAP_RS: &str = r#"pub struct IndexMap<K, V, S> {
    core: Vec<(K, V)>,
    hash: S,
}

impl<K, V, S> IndexMap<K, V, S> {
    pub fn len(&self) -> usize {
        self.core.len()
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut V> {
        self.core.get_mut(i).map(|e| &mut e.1)
    }
}

pub fn get_mut() {}
"#;

#[test]
fn rust_names_with_generic_arguments_or_a_module_path_of_an_uncited_method() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("src/map.rs", MAP_RS)],
        &[("len", "src/map.rs:7-9")],
    );
    // As typed, as rustc prints it (generic arguments, spaces) and with its module in front:
    // the method is defined but cited nowhere, which is not "nothing matches".
    for name in [
        "IndexMap::get_mut",
        "IndexMap<K, V, S>::get_mut",
        "map::IndexMap::get_mut",
    ] {
        let r = run_in(&ws, &["cites", "--symbol", name]);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(
            r.stdout.contains(&format!("no section cites \"{name}\""))
                && r.stdout.contains(
                    "no cited range covers its lines: method `IndexMap<K, V, S>::get_mut` at src/map.rs:11."
                ),
            "{name}: {}",
            r.stdout
        );
        // The free function of the same name is not the method asked for.
        assert!(!r.stdout.contains("function `get_mut`"), "{}", r.stdout);
    }
    // The module path names the free function; another type's method, or a module the
    // file is not, names nothing defined.
    let r = run_in(&ws, &["cites", "--symbol", "map::get_mut"]);
    assert!(
        r.stdout
            .contains("its lines: function `get_mut` at src/map.rs:16.")
            && !r.stdout.contains("method"),
        "{}",
        r.stdout
    );
    for name in ["IndexSet::get_mut", "set::IndexMap::get_mut"] {
        let r = run_in(&ws, &["cites", "--symbol", name]);
        assert!(
            r.stdout.contains(&format!(
                "no file, range or symbol in the graph matches \"{name}\""
            )),
            "{}",
            r.stdout
        );
    }
}

const ERROR_RS: &str = r#"use core::fmt;

pub enum ErrorKind {
    CapacityOverflow,
    AllocError { layout: usize },
}

pub struct Error {
    kind: ErrorKind,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("memory allocation failed")
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Error")
    }
}
"#;

#[test]
fn rust_trait_methods_by_the_trait_and_enum_variants_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("src/error.rs", ERROR_RS)],
        &[
            ("kinds", "src/error.rs:3-6"),
            ("display", "src/error.rs:12-16"),
            ("debug", "src/error.rs:18-22"),
        ],
    );
    // A trait's method as Rust users write it: the member of the impl of that trait, not the
    // other trait's `fmt`.
    for name in ["Display::fmt", "fmt::Display::fmt"] {
        let (sections, v) = cites(&ws, name);
        assert_eq!(sections, ["section:q.md#display"], "{name}: {v}");
    }
    let (sections, _) = cites(&ws, "Debug::fmt");
    assert_eq!(sections, ["section:q.md#debug"]);
    let r = run_in(&ws, &["cites", "--symbol", "Write::fmt"]);
    assert!(
        r.stdout
            .contains("no file, range or symbol in the graph matches \"Write::fmt\""),
        "{}",
        r.stdout
    );
    // An enum's variant answers as a field does: the ranges over its line.
    for name in ["ErrorKind::CapacityOverflow", "CapacityOverflow"] {
        let (sections, v) = cites(&ws, name);
        assert_eq!(sections, ["section:q.md#kinds"], "{name}");
        assert_eq!(
            v["data"]["defined"],
            serde_json::json!(["variant `ErrorKind::CapacityOverflow` at src/error.rs:4"]),
            "{v}"
        );
    }
}

const TYPES_TS: &str = r#"export abstract class ZodType<Output, Def> {
  parse(data: unknown): Output {
    return this._parse(data);
  }
}

export class ZodObject<T> extends ZodType<T, ObjectDef> {
  strict(): ZodObject<T> {
    return this;
  }
}

export class ZodStrictObject extends ZodObject<Shape> {}
"#;

#[test]
fn a_method_named_by_a_class_that_inherits_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ws = workspace(
        dir.path(),
        &[("src/types.ts", TYPES_TS)],
        &[
            ("parse", "src/types.ts:2-4"),
            ("strict", "src/types.ts:8-10"),
        ],
    );
    // V8 prints the receiver's class, and users call `parse` on a ZodObject: the method
    // ZodObject inherits, read through the `extends` that says so, two levels up too.
    let (sections, v) = cites(&ws, "ZodObject.parse");
    assert_eq!(sections, ["section:q.md#parse"], "{v}");
    assert_eq!(
        v["data"]["inherited"],
        serde_json::json!({"readAs": "ZodType.parse", "extends": ["ZodObject extends ZodType at src/types.ts:7"]}),
        "{v}"
    );
    let (sections, v) = cites(&ws, "ZodStrictObject.parse");
    assert_eq!(sections, ["section:q.md#parse"], "{v}");
    assert_eq!(
        v["data"]["inherited"]["extends"],
        serde_json::json!([
            "ZodStrictObject extends ZodObject at src/types.ts:13",
            "ZodObject extends ZodType at src/types.ts:7"
        ]),
        "{v}"
    );
    let text = run_in(&ws, &["cites", "--symbol", "ZodStrictObject.strict"]);
    assert!(
        text.stdout.contains(
            "1 section(s) cite \"ZodStrictObject.strict\" (read as ZodObject.strict: ZodStrictObject extends ZodObject at src/types.ts:13)"
        ),
        "{}",
        text.stdout
    );
    // A member no class up the chain has is not found; the class's own member is its own.
    let r = run_in(&ws, &["cites", "--symbol", "ZodObject.omit"]);
    assert!(
        r.stdout
            .contains("no file, range or symbol in the graph matches \"ZodObject.omit\""),
        "{}",
        r.stdout
    );
    let (_, v) = cites(&ws, "ZodObject.strict");
    assert_eq!(v["data"].get("inherited"), None, "{v}");
}
