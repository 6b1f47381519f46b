//! `ontoly graph [--focus] <id> [--depth N] [--format mermaid|dot|json]`.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{Neighbourhood, Report};
use ontoly_capabilities::walk::{
    are_members_of, candidate, neighbourhood, neighbourhood_of, resolve_or_candidates,
    CANDIDATES_SHOWN,
};

/// The formats `ontoly graph` renders.
pub const FORMATS: &[Format] = &[Format::Mermaid, Format::Dot, Format::Json];

/// Arguments of `ontoly graph`.
#[derive(clap::Args)]
pub struct Args {
    /// The same node as an option (`--focus ID`).
    #[arg(long, value_name = "ID", conflicts_with = "id")]
    focus: Option<String>,
    /// The node at the centre: an id from an Evidence Pack's `stableIds`, or one its text
    /// prints, such as `section:guides/payments.md#backoff`; a section also as
    /// `guides/payments.md#backoff`, an article as its page path, a cited file as its
    /// repository path or the end of one (`retry.py`), a cited range as `PATH:START-END` or
    /// the label `cites` prints, a symbol by its name (`Parser::parse_ast`); a class whose
    /// methods are cited but not the class itself, by its name: its cited members together.
    #[arg(value_name = "ID")]
    id: Option<String>,
    /// Hops around the focus (1-3).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    depth: u8,
    /// Output format.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// The `--format` given to this command.
pub fn format(a: &Args) -> Option<Format> {
    a.format
}

/// The neighbourhood of the focus.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    // Not a clap requirement: its message would name only `--focus`, the rarer form.
    let Some(focus) = a.focus.as_deref().or(a.id.as_deref()) else {
        return Err(CliError {
            message: "which node? give its id: `ontoly graph ID`".into(),
            hint: Some("ids are in an Evidence Pack's stableIds; a page path, a cited file's path or a symbol's name work too".into()),
            ..Default::default()
        });
    };
    let session = ctx.session()?;
    let g = session.graph()?;
    let resolved = resolve_or_candidates(g, focus);
    let found = resolved.as_ref().ok().and_then(|n| {
        let (nodes, edges, truncated) = neighbourhood(g, &n.id, a.depth as usize)?;
        Some((n.id.clone(), Vec::new(), nodes, edges, truncated))
    });
    // A class is no node when only ranges inside its methods are cited (the innermost
    // definition behind a range is the graph's symbol), yet `cites --symbol Ky` answers for
    // them: its picture is theirs, together (walk 51, F8: "Ky" named 10 nodes, none of them Ky).
    let found = found.or_else(|| {
        let several = resolved.as_ref().err()?;
        if !are_members_of(several, focus) {
            return None;
        }
        let mut members: Vec<String> = several.iter().map(|n| n.id.clone()).collect();
        members.sort_unstable();
        members.dedup();
        let ids: Vec<&str> = members.iter().map(String::as_str).collect();
        let (nodes, edges, truncated) = neighbourhood_of(g, &ids, a.depth as usize)?;
        Some((focus.to_string(), members, nodes, edges, truncated))
    });
    let Some((focus, members, nodes, edges, truncated)) = found else {
        // A name several nodes have: say which, so one can be given by its id.
        let several = resolved.err().unwrap_or_default();
        if several.len() > 1 {
            let ids: Vec<String> = several.iter().map(|n| candidate(n)).collect();
            return Err(CliError {
                message: format!("{focus:?} names {} nodes", several.len()),
                hint: Some(format!(
                    "give one by its id: {}",
                    ontoly_graph::formats::text::first_of(&ids, CANDIDATES_SHOWN)
                )),
                ..Default::default()
            });
        }
        // Only ids of the same kind (`section:`, `file:`…): a typo keeps its prefix.
        let kind = focus.split(':').next().unwrap_or("");
        let same_kind = g
            .nodes()
            .map(|n| n.id.as_str())
            .filter(|id| id.split(':').next() == Some(kind));
        let near = ontoly_graph::suggest::nearest(focus, same_kind);
        return Err(CliError {
            message: format!("no node {focus:?} in the graph"),
            hint: Some(match near {
                Some(id) => format!("did you mean {id}?"),
                None => "give an id from an Evidence Pack's stableIds (`ontoly evidence QUERY --format json`), a page path, `page.md#section`, a cited file's path, `PATH:START-END` of a cited range, or a symbol's name".to_string(),
            }),
            ..Default::default()
        });
    };
    Ok(Output::ok(Report::Graph(Neighbourhood {
        focus,
        members,
        nodes: nodes.into_iter().cloned().collect(),
        edges: edges.into_iter().cloned().collect(),
        truncated,
    })))
}
