// A CLI whose main returns anyhow::Result, and one that prints errors with Display.
use anyhow::Context;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Server { host: String, port: u16 }

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Manifest { package: Package }
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Package { name: String, version: String, edition: Option<String> }

fn load(path: &str, text: &str) -> anyhow::Result<Server> {
    toml::from_str(text).with_context(|| format!("failed to load server config from `{}`", path))
}

fn main() -> anyhow::Result<()> {
    let case = std::env::args().nth(1).expect("case name");
    match case.as_str() {
        "anyhow_chain" => { load("config/server.toml", "host = 'localhost'\nport = 80800\n")?; }
        "anyhow_missing_table" => {
            let _m: Manifest = toml::from_str("[project]\nname = \"demo\"\nversion = \"0.1.0\"\n")
                .context("invalid manifest Cargo.toml")?;
        }
        "display_wrong_type" => {
            match toml::from_str::<Manifest>("[package]\nname = \"demo\"\nversion = 0.1\n") {
                Ok(_) => {}
                Err(e) => { eprintln!("error: could not parse manifest\n{e}"); std::process::exit(1); }
            }
        }
        "display_dup_table" => {
            match toml::from_str::<toml::Table>("[package]\nname = \"a\"\n\n[dependencies]\nserde = \"1\"\n\n[package]\nversion = \"0.2\"\n") {
                Ok(_) => {}
                Err(e) => { eprintln!("error: {e}"); std::process::exit(1); }
            }
        }
        "io_missing_file" => {
            let text = std::fs::read_to_string("config/app.toml").context("failed to read `config/app.toml`")?;
            let _s: Server = toml::from_str(&text)?;
        }
        other => anyhow::bail!("unknown case {other}"),
    }
    Ok(())
}
