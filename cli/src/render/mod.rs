//! The output layer: one renderer per format, each over the typed [`Report`] of a command.
//!
//! Every command declares the formats it renders (`FORMATS` in its module); `--help` lists
//! only those and any other is a usage error (exit 2), so no renderer is ever asked for a
//! report it does not draw. The MCP server's text content comes from the same text renderer.

pub mod dot;
pub mod github;
pub mod json;
pub mod junit;
pub mod mermaid;
pub mod sarif;
pub mod summary;
pub mod text;
pub mod yaml;

use crate::report::Report;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// Pretty JSON with sorted keys.
    Json,
    /// YAML of the JSON rendering.
    Yaml,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// A Mermaid flowchart.
    Mermaid,
    /// A Graphviz DOT digraph.
    Dot,
    /// A SARIF 2.1.0 log (code scanning).
    Sarif,
    /// JUnit XML (test reports).
    Junit,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 8] = [
        Format::Text,
        Format::Json,
        Format::Yaml,
        Format::Github,
        Format::Mermaid,
        Format::Dot,
        Format::Sarif,
        Format::Junit,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Github => "github",
            Format::Mermaid => "mermaid",
            Format::Dot => "dot",
            Format::Sarif => "sarif",
            Format::Junit => "junit",
        }
    }

    /// The format named `name`.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

/// A clap value parser that accepts exactly `formats`, in any case (`--format JSON`), and
/// lists only them in `--help`.
pub fn parser(formats: &'static [Format]) -> impl clap::builder::TypedValueParser<Value = Format> {
    FormatParser(formats)
}

#[derive(Clone)]
struct FormatParser(&'static [Format]);

impl clap::builder::TypedValueParser for FormatParser {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let names = clap::builder::PossibleValuesParser::new(self.0.iter().map(|f| f.name()));
        let lower = value.to_string_lossy().to_ascii_lowercase();
        // An error names the value as typed: parse that for it.
        names
            .parse_ref(cmd, arg, std::ffi::OsStr::new(&lower))
            .or_else(|_| names.parse_ref(cmd, arg, value))
            .map(|s| Format::parse(&s).unwrap_or(Format::Text))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.0
                .iter()
                .map(|f| clap::builder::PossibleValue::new(f.name())),
        ))
    }
}

/// What a renderer writes: standard output, and a note for standard error (a read's
/// position, a search's totals) that must not mix with piped content.
pub struct Rendered {
    /// Standard output.
    pub stdout: String,
    /// Standard error, when there is something to say there.
    pub stderr: Option<String>,
}

/// Renders `report` in `format`; `color` only affects text. `None` when the report has no
/// rendering in that format (commands declare their formats, so this is a bug, not a user
/// error).
pub fn render(report: &Report, format: Format, color: bool) -> Option<Rendered> {
    // A capability that could not run says so on standard error in every format (the
    // machine formats keep the result, with its diagnostics, on standard output).
    if let Report::Capability(r) = report {
        if let Some(d) = r.is_error().then(|| r.diagnostics.first()).flatten() {
            let stderr = Some(format!("error: {}: {}\n", d.code, d.message));
            let stdout = match format {
                Format::Text => String::new(),
                Format::Json => json::render(report)?,
                Format::Yaml => yaml::render(report)?,
                _ => return None,
            };
            return Some(Rendered { stdout, stderr });
        }
    }
    let stdout = match format {
        Format::Text => {
            // A read prints the file's bytes as they are, as `cat` and `rg` do: it is
            // content asked for, to be piped, not a report quoting it.
            let content = matches!(
                report,
                Report::Read(_) | Report::ReadMany(_) | Report::Search(_)
            );
            let clean = |s: String| {
                if content {
                    s
                } else {
                    text::for_terminal(s, color)
                }
            };
            return text::render(report, color).map(|stdout| Rendered {
                stdout: clean(stdout),
                stderr: text::note(report).map(|s| text::for_terminal(s, color)),
            });
        }
        Format::Json => json::render(report)?,
        Format::Yaml => yaml::render(report)?,
        Format::Github => github::render(report)?,
        Format::Mermaid => mermaid::render(report)?,
        Format::Dot => dot::render(report)?,
        Format::Sarif => sarif::render(report)?,
        Format::Junit => junit::render(report)?,
    };
    Some(Rendered {
        stdout,
        stderr: None,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use ontoly_capabilities::pack::{self, PackAnswer};
    use ontoly_capabilities::{Context, Index};
    use ontoly_graph::{CachePolicy, Session, SessionOptions};

    /// The demo workspace, opened as the CLI opens it (no cache written).
    pub(crate) fn demo() -> Session {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/demo");
        Session::open(
            SessionOptions::new(&root)
                .workspace(&root)
                .cache(CachePolicy::Off),
        )
        .expect("the demo opens")
    }

    /// The pack the demo gives for `query`.
    pub(crate) fn demo_pack(query: &str) -> PackAnswer {
        let session = demo();
        let index = Index::build(session.graph().expect("the demo builds"));
        let cx = Context::new(&session, &index).expect("context");
        pack::evidence_pack(&cx, query, None)
    }
}
