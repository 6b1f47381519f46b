// Deliberately failing uses of toml 0.8.19 / toml_edit 0.22.22, one per case name.
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Server {
    host: String,
    port: u16,
    #[serde(default)]
    retries: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    name: String,
    color: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Level { Debug, Info, Warn }

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Logging { level: Level }

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
enum Backend { File { path: String }, Memory }

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Storage { backend: Backend }

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Release { date: toml::value::Datetime }

#[derive(Serialize)]
struct WithNone { name: String, tags: Vec<Option<String>> }

#[derive(Serialize)]
struct Limits { by_id: HashMap<u32, String> }

#[derive(Serialize)]
struct Unit { marker: () }

fn load_server(path: &str) -> anyhow::Result<Server> {
    let text = "host = 'localhost'\nport = 80800\n";
    let s: Server = toml::from_str(text)
        .with_context(|| format!("failed to load server config from `{}`", path))?;
    Ok(s)
}

fn read_config_file(path: &str) -> anyhow::Result<Server> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read `{}`", path))?;
    Ok(toml::from_str(&text)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let case = std::env::args().nth(1).expect("case name");
    match case.as_str() {
        // ---- deserialize: panics with unwrap()
        "missing_field" => { let _s: Server = toml::from_str("host = \"db.local\"\n").unwrap(); }
        "wrong_type" => { let _s: Server = toml::from_str("host = \"db.local\"\nport = \"8080\"\n").unwrap(); }
        "int_too_big" => { let _s: Server = toml::from_str("host = \"a\"\nport = 80\nretries = 300\n").unwrap(); }
        "unknown_field" => { let _s: Strict = toml::from_str("name = \"x\"\ncolour = \"red\"\n").unwrap(); }
        "unknown_variant" => { let _l: Logging = toml::from_str("level = \"verbose\"\n").unwrap(); }
        "enum_two_keys" => { let _s: Storage = toml::from_str("[backend]\nFile = { path = 'a' }\nMemory = {}\n").unwrap(); }
        "enum_int" => { let _l: Logging = toml::from_str("level = 3\n").unwrap(); }
        "top_level_seq" => { let _v: Vec<u32> = toml::from_str("a = 1\n").unwrap(); }
        // ---- parse errors
        "duplicate_key" => { let _v: toml::Table = toml::from_str("name = \"a\"\nport = 1\nname = \"b\"\n").unwrap(); }
        "duplicate_table" => { let _v: toml::Table = toml::from_str("[server]\nport = 1\n\n[server]\nhost = \"x\"\n").unwrap(); }
        "dotted_extend" => { let _v: toml::Table = toml::from_str("server = 1\nserver.port = 2\n").unwrap(); }
        "missing_equals" => { let _v: toml::Table = toml::from_str("[package]\nname \"demo\"\n").unwrap(); }
        "unclosed_header" => { let _v: toml::Table = toml::from_str("[dependencies\nserde = \"1\"\n").unwrap(); }
        "bare_string" => { let _v: toml::Table = toml::from_str("title = hello world\n").unwrap(); }
        "invalid_escape" => { let _v: toml::Table = toml::from_str("path = \"C:\\Users\\me\"\n").unwrap(); }
        "unicode_escape" => { let _v: toml::Table = toml::from_str("s = \"\\uD800\"\n").unwrap(); }
        "inline_newline" => { let _v: toml::Table = toml::from_str("dep = { version = \"1\",\n  features = [] }\n").unwrap(); }
        "leading_zero" => { let _v: toml::Table = toml::from_str("port = 08080\n").unwrap(); }
        "bad_date" => { let _r: Release = toml::from_str("date = 2024-13-45\n").unwrap(); }
        "float_trailing_dot" => { let _v: toml::Table = toml::from_str("ratio = 1.\n").unwrap(); }
        // ---- datetime from a string
        "datetime_fromstr" => { let _d: toml::value::Datetime = "2024-1-5".parse().unwrap(); }
        // ---- serialize
        "ser_none_in_array" => { let _s = toml::to_string(&WithNone { name: "a".into(), tags: vec![Some("x".into()), None] }).unwrap(); }
        "ser_key_not_string" => { let mut m = HashMap::new(); m.insert(7u32, "x".to_string()); let _s = toml::to_string(&Limits { by_id: m }).unwrap(); }
        "ser_unit" => { let _s = toml::to_string(&Unit { marker: () }).unwrap(); }
        // ---- errors returned from main with ?
        "main_q_parse" => { let _v: toml::Table = toml::from_str("[server]\nport = 80\n[server\n")?; }
        "main_q_edit" => { let _d: toml_edit::DocumentMut = "a = [1, 2\nb = 3\n".parse()?; }
        "anyhow_chain" => { load_server("config/server.toml").map_err(|e| format!("{:?}", e))?; }
        "invalid_escape_q" => { let _v: toml::Table = toml::from_str("pattern = \"^\\d+\\.\\d+$\"\n").unwrap(); }
        "value_index_missing" => { let v: toml::Value = toml::from_str("[package]\nname = \"demo\"\n").unwrap(); let _ver = &v["package"]["version"]; }
        "edit_index_missing" => { let d: toml_edit::DocumentMut = "[package]\nname = \"demo\"\n".parse().unwrap(); let _e = &d["workspace"]["members"]; }
        // ---- unanswerable (the pages do not cover these)
        "io_missing_file" => { read_config_file("config/app.toml").map_err(|e| format!("{:?}", e))?; }
        "recursion_limit" => { let s = format!("a = {}{}\n", "[".repeat(200), "]".repeat(200)); let _v: toml::Table = toml::from_str(&s).unwrap(); }
        "utf8_config" => { let bytes = b"[owner]\nname = \"Caf\xe9\"\n".to_vec(); let _text = String::from_utf8(bytes).unwrap(); }
        "env_var" => { let _p: u16 = std::env::var("APP_PORT").unwrap().parse().unwrap(); }
        "parse_int" => { let _p: u16 = "80a".parse().unwrap(); }
        "vec_index" => { let v: toml::Table = toml::from_str("ports = [80, 443]\n").unwrap(); let a = v["ports"].as_array().unwrap(); let _x = &a[5]; }
        other => panic!("unknown case {other}"),
    }
    Ok(())
}
