//! The capabilities themselves: each turns a validated input into a [`CapabilityResult`].

use crate::context::Context;
use crate::evidence::{CapabilityResult, Code, Confidence, Diagnostic, Evidence, Level, Severity};
use crate::pack;
use crate::walk::{self, Verification};
use crate::walk::{diagnostic_of_node, graph_diagnostics, title, GraphFacts};
use ontoly_graph::formats::text::quoted;
use ontoly_graph::graph::model::{Edge, EdgeKind, Node, NodeKind};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

mod defined;

/// Nodes a `PathBetween` search may visit at most.
pub const PATH_MAX_VISITS: usize = 100_000;
/// Hops a `PathBetween` path may have at most.
pub const PATH_MAX_DEPTH: usize = 12;
/// Sections a `CitationsOf` result lists at most.
pub const CITATIONS_MAX: usize = 50;
/// Symbols a `SectionEvidence` item names in its description of what a range overlaps (the
/// item's edges hold them all).
pub const OVERLAPS_NAMED: usize = 10;

fn str_field<'a>(input: &'a Map<String, Value>, key: &str) -> &'a str {
    input.get(key).and_then(Value::as_str).unwrap_or("")
}

fn result(
    ctx: &Context<'_>,
    capability: &str,
    summary: String,
    evidence: Vec<Evidence>,
    diagnostics: Vec<Diagnostic>,
    confidence: Confidence,
    data: Value,
) -> CapabilityResult {
    CapabilityResult {
        capability: capability.to_string(),
        version: "1".to_string(),
        summary,
        evidence,
        diagnostics,
        confidence,
        provenance: ctx.provenance(),
        data,
    }
}

fn not_found(
    ctx: &Context<'_>,
    capability: &str,
    message: String,
    fallbacks: Vec<String>,
) -> CapabilityResult {
    let d = Diagnostic::new(Code::CapabilityNotFound, message.clone());
    result(
        ctx,
        capability,
        message.clone(),
        vec![Evidence::diagnostic(d.clone())],
        vec![d],
        Confidence::none(message),
        json!({ "fallbacks": fallbacks }),
    )
}

/// `EvidencePack {query, limit?}`: the pack is the result's `data`.
pub(crate) fn evidence_pack(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let query = str_field(input, "query");
    if query.trim().is_empty() {
        return CapabilityResult::error(
            ctx.provenance(),
            "EvidencePack",
            "1",
            Code::CapabilityInvalidInput,
            "EvidencePack.query must not be empty".into(),
        );
    }
    let limit = match input.get("limit") {
        Some(Value::Number(n)) => {
            Some(
                n.as_i64()
                    .unwrap_or(if n.as_u64().is_some() { i64::MAX } else { 0 }),
            )
        }
        _ => None,
    };
    let pack::PackAnswer {
        pack: p, evidence, ..
    } = pack::evidence_pack(ctx, query, limit);
    let summary = p.answer.clone();
    result(
        ctx,
        "EvidencePack",
        summary,
        evidence,
        p.diagnostics.clone(),
        p.confidence.clone(),
        serde_json::to_value(&p).unwrap_or(Value::Null),
    )
}

/// Parses `path`, `path:START` or `path:START-END`, and the forms other outputs print for a
/// cited range: a line anchor (`path#L10-L20`), a pinned label
/// (`github.com/o/r@46746648b35e:src/main.rs:109-124`) and a web URL of a pinned file
/// (`https://github.com/o/r/blob/<commit>/path#L10-L20`, as the references YAML prints it).
fn parse_target(t: &str) -> (&str, Option<(u64, u64)>) {
    use ontoly_graph::formats::location::{web_path, Location, Pinned};
    let t = web_path(t)
        .or_else(|| Pinned::parse(t).and_then(|p| p.rest))
        .unwrap_or(t);
    let l = Location::parse(t);
    (l.path, l.lines)
}

/// The number of lines of cited file `file` at its commit, read from its repository's clone
/// through the session; `None` without one.
fn file_lines(ctx: &Context<'_>, file: &Node) -> Option<u64> {
    let bytes = defined::file_bytes(ctx, file)?;
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    Some(newlines + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n")))
}

/// A `CITES` edge, the range it cites, and the nodes of the target that reach that range.
type Citing<'g> = (&'g Edge, &'g Node, Vec<&'g Node>);

/// `CitationsOf {target}`: which sections cite a file, a range of it, or a symbol.
pub(crate) fn citations_of(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let g = ctx.graph;
    let target = str_field(input, "target").trim();
    // A frame pasted whole, `at com.x.Y.m(Y.java:12)` as Java and V8 print it: what
    // follows `at ` (Java walk, w52).
    let target = (target.strip_prefix("at ").map(str::trim_start))
        .filter(|t| !t.is_empty())
        .unwrap_or(target);
    if target.is_empty() {
        return CapabilityResult::error(
            ctx.provenance(),
            "CitationsOf",
            "1",
            Code::CapabilityInvalidInput,
            "CitationsOf.target must not be empty".into(),
        );
    }
    // Ranges that answer the target, each with the node that made it match.
    let mut ranges: Vec<(&Node, &Node)> = Vec::new();
    // An id as written, or a range as the text outputs label it (`github.com/o/r@abc123:src/x.rs#L3-L9`).
    let by_id = g.node(target).or_else(|| {
        g.node(&format!("range:{target}"))
            .filter(|n| n.kind == NodeKind::Range)
    });
    let (path, mut span) = parse_target(target);
    if let Some((a, b)) = span.filter(|&(a, b)| a == 0 || a > b) {
        return CapabilityResult::error(
            ctx.provenance(),
            "CitationsOf",
            "1",
            Code::CapabilityInvalidInput,
            format!("CitationsOf.target lines {a}-{b}: lines are 1-based and START <= END (e.g. {path}:10-20)"),
        );
    }
    let mut named: Vec<&Node> = match by_id {
        Some(n) if n.kind == NodeKind::Symbol => vec![n],
        Some(_) => Vec::new(),
        None => walk::symbols_named(g, target),
    };
    // What is inside a named symbol is part of it: a range cited inside one method of a class
    // names that method, not the class.
    let mut symbols = named.clone();
    for s in &named {
        for m in walk::within(g, s) {
            if !symbols.iter().any(|x| x.id == m.id) {
                symbols.push(m);
            }
        }
    }
    let mut files: Vec<&Node> = match by_id {
        Some(n) if n.kind == NodeKind::File => vec![n],
        // A range (its id, or the label a pack prints) is its file's lines: the sections
        // citing any range that overlaps them, as `path:START-END` gives them. Its exact
        // node only answered the one reference that recorded those very lines.
        Some(n) if n.kind == NodeKind::Range => match (
            g.out_edges(&n.id, Some(EdgeKind::InFile))
                .first()
                .and_then(|e| g.node(&e.to)),
            &n.span,
        ) {
            (Some(f), Some(s)) => {
                span = Some((s.start_line, s.end_line));
                vec![f]
            }
            _ => Vec::new(),
        },
        Some(_) => Vec::new(),
        None => walk::files_at(g, path),
    };
    // A path as people type it: `adapters.py` for `requests/adapters.py`, when it names no
    // file and no symbol as written.
    let mut read_as: Vec<&str> = Vec::new();
    if by_id.is_none() && files.is_empty() && symbols.is_empty() && !path.is_empty() {
        files = walk::files_ending(g, path);
        read_as = files.iter().filter_map(|n| walk::source_path(n)).collect();
        read_as.sort_unstable();
        read_as.dedup();
    }
    if let Some(n) = by_id.filter(|n| n.kind == NodeKind::Range && files.is_empty()) {
        ranges.push((n, n));
    }
    // A member named by a class that inherits it (`ZodObject.parse` for `ZodType.parse`).
    let inherited = if by_id.is_none() && files.is_empty() && symbols.is_empty() {
        defined::inherited(ctx, target)
    } else {
        None
    };
    if let Some(i) = &inherited {
        named = i.symbols.clone();
        symbols = named.clone();
        for s in &named {
            for m in walk::within(g, s) {
                if !symbols.iter().any(|x| x.id == m.id) {
                    symbols.push(m);
                }
            }
        }
    }
    // A name no symbol of the graph has may still be defined in a cited file: a struct's
    // field inside a cited struct (`Viper.keyDelim`), or a definition no range covers
    // (`RemoteProvider`), which is not the same answer as a name nothing defines.
    let defined = if by_id.is_none() && files.is_empty() && symbols.is_empty() {
        defined::named(ctx, target)
    } else {
        Vec::new()
    };
    for d in &defined {
        for r in d.citing_ranges(g) {
            ranges.push((r, d.file));
        }
    }
    for f in &files {
        for e in g.in_edges(&f.id, Some(EdgeKind::InFile)) {
            let Some(r) = g.node(&e.from) else { continue };
            let overlaps = match (span, &r.span) {
                (Some((a, b)), Some(s)) => s.start_line <= b && s.end_line >= a,
                _ => true,
            };
            if overlaps {
                ranges.push((r, f));
            }
        }
    }
    for s in &symbols {
        for e in g.in_edges(&s.id, Some(EdgeKind::Overlaps)) {
            if let Some(r) = g.node(&e.from) {
                ranges.push((r, s));
            }
        }
    }
    // One citation per reference, whatever number of the target's nodes reach it: a range
    // over three overloads of a method is cited once, through all three.
    let mut by_section: BTreeMap<String, Vec<Citing<'_>>> = BTreeMap::new();
    for (r, via) in &ranges {
        for e in g.in_edges(&r.id, Some(EdgeKind::Cites)) {
            let cites = by_section.entry(e.from.to_string()).or_default();
            match cites.iter_mut().find(|(c, _, _)| c.id == e.id) {
                Some((_, _, vias)) => vias.push(via),
                None => cites.push((e, r, vec![via])),
            }
        }
    }
    if by_section.is_empty() {
        let what =
            if defined.is_empty() && files.is_empty() && symbols.is_empty() && ranges.is_empty() {
                "no file, range or symbol in the graph matches"
            } else {
                "no section cites"
            };
        // A cited file asked at lines no range covers: the path was right, the lines are not.
        let elsewhere: Vec<String> = match span {
            Some(_) => files
                .iter()
                .flat_map(|f| g.in_edges(&f.id, Some(EdgeKind::InFile)))
                .filter_map(|e| g.node(&e.from)?.span.clone())
                .map(|s| (s.file, s.start_line, s.end_line))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|(f, a, b)| format!("{f}:{a}-{b}"))
                .collect(),
            None => Vec::new(),
        };
        let first = if elsewhere.is_empty() {
            "Check the path is repository-relative (as in the references), or give a symbol's qualified name.".to_string()
        } else {
            format!(
                "The file is cited at other lines: {}; cites of the path alone lists every section citing it.",
                ontoly_graph::formats::text::first_of(&elsewhere, 5)
            )
        };
        // Lines past the file's end are no citing section's: the file is shorter (author
        // walk, stop 51: `Ky.ts:400-410` of a 363-line file only heard of other lines).
        let past_end: Vec<String> = match span {
            Some((a, _)) => (files.iter())
                .filter_map(|f| {
                    let n = file_lines(ctx, f)?;
                    let path = walk::source_path(f)?;
                    (n < a).then(|| format!("{path} ends at line {n}, before line {a}."))
                })
                .collect(),
            None => Vec::new(),
        };
        let mut fallbacks = past_end;
        if !defined.is_empty() {
            let labels: Vec<String> = defined.iter().map(defined::Defined::label).collect();
            fallbacks.push(format!(
                "It is defined in a cited file, but no cited range covers its lines: {}.",
                ontoly_graph::formats::text::first_of(&labels, 5)
            ));
        }
        // A line of a cited file no range covers (a trace's frame, just past a cited
        // range): the definition it is in, and the sections citing part of that.
        if let Some((a, b)) = span {
            for f in files.iter().take(3) {
                if let Some(d) = defined::enclosing(ctx, f, a, b) {
                    let mut citing: Vec<String> = (d.citing_ranges(g).into_iter())
                        .flat_map(|r| g.in_edges(&r.id, Some(EdgeKind::Cites)))
                        .map(|e| {
                            e.from
                                .strip_prefix("section:")
                                .unwrap_or(&e.from)
                                .to_string()
                        })
                        .collect();
                    citing.sort_unstable();
                    citing.dedup();
                    let lines = if a == b {
                        format!("Line {a}")
                    } else {
                        format!("Lines {a}-{b}")
                    };
                    let verb = if a == b { "is" } else { "are" };
                    let what = format!(
                        "{} `{}` ({}:{}-{})",
                        d.kind, d.qualified, d.path, d.lines.0, d.lines.1
                    );
                    fallbacks.push(if citing.is_empty() {
                        format!("{lines} {verb} in {what}; no section cites any of it.")
                    } else {
                        format!(
                            "{lines} {verb} in {what}, which {} in part: {}.",
                            if citing.len() == 1 {
                                "this section cites"
                            } else {
                                "these sections cite"
                            },
                            ontoly_graph::formats::text::first_of(&citing, 5)
                        )
                    });
                }
            }
        }
        // A member no code names may be made by a loop over a list the code computes
        // (`router.get`, when `proto[method]` is made so; express walk, F6).
        let member_name = target.contains(['.', '#'])
            && (target.bytes()).all(|b| b.is_ascii_alphanumeric() || b"_$.#".contains(&b));
        if member_name && files.is_empty() && symbols.is_empty() && defined.is_empty() {
            let member = target.rsplit(['.', '#']).next().unwrap_or(target);
            let loops: Vec<String> = (g.nodes_of(NodeKind::Symbol))
                .filter(|n| walk::is_computed_loop(n))
                .filter_map(walk::loop_note)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            if !loops.is_empty() && !member.is_empty() {
                fallbacks.push(format!(
                    "`{member}` may be made by a loop, under a name the code does not write: {}.",
                    ontoly_graph::formats::text::first_of(&loops, 5)
                ));
            }
        }
        // A name found defined needs no advice on how to write it.
        if defined.is_empty() {
            fallbacks.push(first);
        }
        fallbacks.push("If the code matters, document it in a section that cites it.".to_string());
        if g.count_of(NodeKind::Symbol) == 0 {
            // Symbols are read from the cited files in local clones: without one, a name
            // cannot match, whatever is cited.
            fallbacks.push("The graph has no symbols: they are read from local clones of the cited repositories (ontoly.toml [sources]); `ontoly validate` names mapped clones that are missing.".to_string());
        }
        return not_found(ctx, "CitationsOf", format!("{what} {target:?}"), fallbacks);
    }
    let total = by_section.len();
    // One past `i64` saturates, as the input type reads it: clamped and said, not ignored.
    let limit = input
        .get("limit")
        .and_then(|v| v.as_i64().or_else(|| v.as_u64().map(|_| i64::MAX)));
    let (most, clamped) = match limit {
        None => (CITATIONS_MAX, None),
        Some(n) => {
            let c = n.clamp(1, CITATIONS_MAX as i64) as usize;
            let note = (c as i64 != n).then(|| {
                Diagnostic::new(
                    Code::CapabilityLimitClamped,
                    format!("limit {n} is outside 1..={CITATIONS_MAX}; using {c}"),
                )
            });
            (c, note)
        }
    };
    // A type whose members count as it (Go's methods, written outside the struct; a class's
    // methods) is cited by sections that cite it itself and by sections that cite only its
    // members: those citing it itself first, as `graph --focus` shows them, and each says
    // which (Go walk, w52: `Viper` listed 59 sections, the 2 citing the struct 22nd).
    let itself = |cites: &Vec<Citing<'_>>| {
        cites.iter().any(|(_, _, vias)| {
            vias.iter().any(|v| {
                !symbols.iter().any(|s| s.id == v.id) || named.iter().any(|n| n.id == v.id)
            })
        })
    };
    let has_members = symbols.len() > named.len();
    let mut listed: Vec<(&String, &Vec<Citing<'_>>)> = by_section.iter().collect();
    if has_members {
        listed.sort_by_key(|(_, cites)| !itself(cites));
    }
    let citing_itself = listed.iter().filter(|(_, c)| itself(c)).count();
    let mut evidence = Vec::new();
    let mut sections = Vec::new();
    for (sid, cites) in listed.into_iter().take(most) {
        let Some(sec) = g.node(sid) else { continue };
        let mut labels = Vec::new();
        for (e, r, vias) in cites {
            let c = walk::citation(g, e);
            let label = c
                .as_ref()
                .map(|c| c.label())
                .unwrap_or_else(|| r.id.clone());
            // section -> range, then on to each of the target's nodes the range reaches (its
            // file, or the symbols it overlaps): one path per node, each a chain, as a path is
            // (a range over an impl and its method is two paths, not one star).
            let hops: Vec<(Edge, &Node)> = vias
                .iter()
                .filter(|via| via.id != r.id)
                .filter_map(|via| {
                    g.out_edges(&r.id, None)
                        .into_iter()
                        .find(|x| x.to == via.id)
                        .map(|l| (l.clone(), *via))
                })
                .collect();
            let grounding = c.as_ref().map(|c| c.grounding()).unwrap_or(0.0);
            if hops.is_empty() {
                evidence.push(Evidence::path(
                    vec![sec.clone(), (*r).clone()],
                    vec![(*e).clone()],
                    grounding,
                    format!("{sid} cites {label}"),
                ));
            }
            for (l, via) in &hops {
                let description = if hops.len() == 1 {
                    format!("{sid} cites {label}")
                } else {
                    format!("{sid} cites {label}, which reaches {}", via.name)
                };
                evidence.push(Evidence::path(
                    vec![sec.clone(), (*r).clone(), (*via).clone()],
                    vec![(*e).clone(), l.clone()],
                    grounding,
                    description,
                ));
            }
            labels.push(json!({"range": r.id, "label": label, "url": c.and_then(|c| c.url)}));
        }
        let mut entry = json!({
            "section": sid,
            "title": title(sec),
            "page": walk::page_path(sec),
            "citations": labels,
        });
        if has_members && !itself(cites) {
            let mut members: Vec<&str> = (cites.iter())
                .flat_map(|(_, _, vias)| vias.iter().map(|v| v.name.as_str()))
                .collect();
            members.sort_unstable();
            members.dedup();
            entry["members"] = json!(members);
        }
        sections.push(entry);
    }
    let mut diagnostics: Vec<Diagnostic> = clamped.into_iter().collect();
    if total > most {
        diagnostics.push(Diagnostic::new(
            Code::CapabilityEvidenceTruncated,
            format!("{total} sections cite {target:?}; listing the first {most}"),
        ));
    }
    let mut summary = format!("{total} section(s) cite {target:?}");
    let mut data = json!({ "target": target, "sectionCount": total, "sections": sections });
    if has_members && citing_itself < total {
        summary.push_str(&format!(
            " ({citing_itself} cite it itself, {} only what is defined in it)",
            total - citing_itself
        ));
        data["citingItself"] = json!(citing_itself);
    }
    if !defined.is_empty() {
        let labels: Vec<String> = defined.iter().map(defined::Defined::label).collect();
        summary.push_str(&format!(
            " (read as {}: the cited ranges over its lines)",
            ontoly_graph::formats::text::first_of(&labels, 3)
        ));
        data["defined"] = json!(labels);
    }
    if let Some(i) = &inherited {
        summary.push_str(&format!(" (read as {}: {})", i.form, i.chain.join("; ")));
        data["inherited"] = json!({"readAs": i.form, "extends": i.chain});
    }
    if !read_as.is_empty() {
        summary.push_str(&format!(" (read as {})", read_as.join(", ")));
        data["readAs"] = json!(read_as);
    }
    // A name several symbols have answers for all of them: say which, so that one can be
    // named by its qualified name.
    let mut meant: Vec<String> = named
        .iter()
        .map(|n| {
            // Rust's name for a trait impl or its member: every impl of a type, and their
            // members, share the type's qualified name (indexmap walk: two `index` methods).
            let name = (n.metadata.get("written"))
                .or_else(|| n.metadata.get("qualified"))
                .unwrap_or(&n.name);
            // Its kind and line tell a struct from its impl in one file.
            let kind = n.metadata.get("kind").map_or("symbol", String::as_str);
            match (walk::source_path(n), &n.span) {
                (Some(p), Some(s)) => format!("{name} ({kind}) in {p}:{}", s.start_line),
                (Some(p), None) => format!("{name} ({kind}) in {p}"),
                _ => format!("{name} ({kind})"),
            }
        })
        .collect();
    meant.sort_unstable();
    meant.dedup();
    // A member no code names, made by a loop (`app.get`, made as `app[method]`): how.
    let made: Vec<String> = (named.iter())
        .filter(|n| n.name != target)
        .filter_map(|n| walk::loop_note(n))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !made.is_empty() {
        summary.push_str(&format!(
            " (made by a loop: {})",
            ontoly_graph::formats::text::first_of(&made, 3)
        ));
        data["madeByLoop"] = json!(made);
    }
    // A class, impl or module whose members are what the graph holds is not their name.
    let members = walk::are_members_of(&named, target);
    if by_id.is_none() && meant.len() > 1 {
        let what = if members {
            format!("symbols of {target}")
        } else {
            "symbols have this name".to_string()
        };
        summary.push_str(&format!(
            " ({} {what}: {})",
            meant.len(),
            ontoly_graph::formats::text::first_of(&meant, 5)
        ));
        data["symbols"] = json!(meant);
    }
    result(
        ctx,
        "CitationsOf",
        summary,
        evidence,
        diagnostics,
        Confidence::exact("the citations are recorded edges of the graph"),
        data,
    )
}

/// The section a mistyped id most likely meant: the one whose id ends with it as typed (a page
/// named without its directory, `help-pages.md#x` for `usage/help-pages.md#x`), else the
/// nearest by edit distance (`#the-verify-argument` for `#verify-argument`).
pub(crate) fn nearest_section<'g>(
    g: &'g ontoly_graph::graph::Graph,
    want: &str,
) -> Option<&'g str> {
    let want = want.strip_prefix("section:").unwrap_or(want);
    if want.is_empty() {
        return None;
    }
    let ids: Vec<&str> = g
        .nodes_of(NodeKind::Section)
        .map(|n| n.id.strip_prefix("section:").unwrap_or(&n.id))
        .collect();
    let tail = format!("/{want}");
    let mut ending = ids.iter().filter(|id| id.ends_with(&tail));
    if let (Some(one), None) = (ending.next(), ending.next()) {
        return Some(one);
    }
    ontoly_graph::suggest::nearest(want, ids.iter().copied())
}

/// `SectionEvidence {section}`.
pub(crate) fn section_evidence(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let g = ctx.graph;
    let want = str_field(input, "section");
    let Some(sec) = walk::resolve_node(g, want).filter(|n| n.kind == NodeKind::Section) else {
        let near = nearest_section(g, want)
            .map(|id| format!("; did you mean {id}?"))
            .unwrap_or_default();
        return not_found(
            ctx,
            "SectionEvidence",
            format!("no section {want:?} in the graph{near}"),
            vec!["Find section ids with `ontoly evidence <question>` or the EvidencePack tool (stableIds).".into()],
        );
    };
    let mut evidence = vec![Evidence::node(
        sec,
        1.0,
        format!("section {}", quoted(title(sec))),
    )];
    let mut citations = Vec::new();
    let mut grounding = Vec::new();
    let cites = walk::citations(g, &sec.id);
    let mut overlaps_told: BTreeSet<&str> = BTreeSet::new();
    for c in &cites {
        let mut nodes = vec![sec.clone(), c.target.clone()];
        let mut edges = vec![c.edge.clone()];
        for (e, n) in &c.chain {
            edges.push((*e).clone());
            nodes.push((*n).clone());
        }
        evidence.push(Evidence::path(
            nodes,
            edges,
            c.grounding(),
            format!("cites {}", c.label()),
        ));
        // One item per range for all the symbols it overlaps: an item per symbol said the
        // range's label (and a class its members lie in) again for each. A range the section
        // cites twice is told once.
        if !c.symbols.is_empty() && overlaps_told.insert(c.target.id.as_str()) {
            let mut names: Vec<&str> = Vec::new();
            for (_, s) in &c.symbols {
                if !names.contains(&s.name.as_str()) {
                    names.push(&s.name);
                }
            }
            // Its participants: the range (written in full by the path before) and each
            // symbol.
            let nodes = std::iter::once((*c.target).clone())
                .chain(c.symbols.iter().map(|(_, s)| (*s).clone()))
                .collect();
            evidence.push(Evidence::edges(
                c.symbols.iter().map(|(e, _)| (*e).clone()).collect(),
                nodes,
                c.grounding(),
                format!(
                    "{} overlaps {}",
                    c.label(),
                    ontoly_graph::formats::text::first_of(&names, OVERLAPS_NAMED)
                ),
            ));
        }
        grounding.push(c.grounding());
        citations.push(json!({
            "range": c.target.id,
            "repository": c.repository,
            "commit": c.commit,
            "path": c.path,
            "startLine": c.start,
            "endLine": c.end,
            "url": c.url,
            "contentDigest": c.edge.metadata.get("content_digest"),
            "pinned": c.pinned,
            "verification": match c.verification {
                Verification::Verified => "verified",
                Verification::Mismatch => "mismatch",
                Verification::Unknown => "unknown",
            },
            "grounding": crate::evidence::round4(c.grounding()),
            "symbols": c.symbols.iter().map(|(_, s)| json!({"id": s.id, "name": s.name})).collect::<Vec<_>>(),
        }));
    }
    let mut diagnostics = graph_diagnostics(g, &sec.id);
    for c in &cites {
        for d in graph_diagnostics(g, &c.target.id) {
            // A range cited twice has its diagnostics once.
            if !diagnostics.contains(&d) {
                diagnostics.push(d);
            }
        }
    }
    // The errors of its page (a broken marker, invalid front matter): a page with marker
    // errors contributes no sections, so this one has no text of its own.
    let page_errors: Vec<Diagnostic> = walk::article_of(g, &sec.id)
        .map(|(_, a)| graph_diagnostics(g, &a.id))
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.severity == ontoly_graph::diagnostics::Severity::Error)
        .collect();
    for d in &page_errors {
        if !diagnostics.contains(d) {
            diagnostics.push(d.clone());
        }
    }
    for d in &diagnostics {
        evidence.push(Evidence::diagnostic(d.clone()));
    }
    let article = walk::article_of(g, &sec.id).map(|(_, a)| a.id.clone());
    let mean = if grounding.is_empty() {
        0.0
    } else {
        grounding.iter().sum::<f64>() / grounding.len() as f64
    };
    let mut conf = Confidence::exact("the section is a recorded node of the graph");
    conf.factors.push(crate::evidence::Factor {
        kind: "grounding".into(),
        confidence: crate::evidence::round4(mean),
        description: "mean grounding of the section's citations".into(),
    });
    let unmarked = sec.metadata.get("marked").is_some_and(|m| m == "false");
    if let (true, Some(first)) = (unmarked, page_errors.first()) {
        conf.level = Level::Medium;
        conf.score = 0.6;
        conf.explanation = format!(
            "the section is a recorded node of the graph, but its page has errors and gives it no text: {}",
            first.message
        );
    }
    if citations.is_empty() {
        conf.level = Level::Low;
        conf.score = 0.3;
        conf.explanation =
            "the section cites nothing: its claims are not grounded in source".into();
        diagnostics.push(Diagnostic::new(
            Code::CapabilityLowEvidence,
            format!("{} has no references", sec.id),
        ));
    }
    result(
        ctx,
        "SectionEvidence",
        format!(
            "{} ({}) cites {} range(s)",
            sec.id,
            quoted(title(sec)),
            citations.len()
        ),
        evidence,
        diagnostics,
        conf,
        json!({
            "section": sec,
            "article": article,
            "text": g.text(&sec.id),
            "citations": citations,
        }),
    )
}

/// `PathBetween {from, to}`: breadth-first over edges in either direction, bounded by visits
/// and depth; neighbours in edge-id order so the path found is deterministic.
pub(crate) fn path_between(ctx: &Context<'_>, input: &Map<String, Value>) -> CapabilityResult {
    let g = ctx.graph;
    // The ends as `graph` reads them: an id, `page.md#section`, a page, a file's path or a
    // symbol's name.
    let mut ends = Vec::new();
    for typed in [str_field(input, "from"), str_field(input, "to")] {
        match walk::resolve_or_candidates(g, typed) {
            Ok(n) => ends.push(n.id.as_str()),
            Err(several) if several.len() > 1 => {
                let ids: Vec<String> = several
                    .iter()
                    .take(walk::CANDIDATES_SHOWN)
                    .map(|n| walk::candidate(n))
                    .collect();
                return not_found(
                    ctx,
                    "PathBetween",
                    format!("{typed:?} names {} nodes", several.len()),
                    vec![format!("Give one by its id: {}.", ids.join(", "))],
                );
            }
            Err(_) => {
                return not_found(
                    ctx,
                    "PathBetween",
                    format!("no node {typed:?} in the graph"),
                    vec!["Node ids are in `stableIds` of an Evidence Pack.".into()],
                );
            }
        }
    }
    let (from, to) = (ends[0], ends[1]);
    // A commit, repository, source or the workspace is reached but not crossed (as in
    // `graph`), except to the target: through the workspace every two sections are four
    // hops apart, which says nothing about how they are related.
    let hub = |id: &str| id != from && id != to && g.node(id).is_some_and(walk::is_hub);
    let mut prev: BTreeMap<&str, Option<(&str, &Edge)>> = BTreeMap::new();
    prev.insert(from, None);
    let mut queue = VecDeque::from([(from, 0usize)]);
    let mut found = from == to;
    while let Some((id, depth)) = queue.pop_front() {
        if found || prev.len() >= PATH_MAX_VISITS {
            break;
        }
        if depth >= PATH_MAX_DEPTH {
            continue;
        }
        let mut next: Vec<(&Edge, &str)> = g
            .out_edges(id, None)
            .into_iter()
            .map(|e| (e, e.to.as_str()))
            .chain(
                g.in_edges(id, None)
                    .into_iter()
                    .map(|e| (e, e.from.as_str())),
            )
            .collect();
        next.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        let crossing = hub(id);
        for (e, n) in next {
            // A hub leads only to the target itself (a file's commit to its repository).
            if prev.contains_key(n) || (crossing && n != to) {
                continue;
            }
            prev.insert(n, Some((id, e)));
            if n == to {
                found = true;
                break;
            }
            queue.push_back((n, depth + 1));
        }
    }
    if !found {
        return not_found(
            ctx,
            "PathBetween",
            format!(
                "no path from {from:?} to {to:?} within {PATH_MAX_DEPTH} hops ({} nodes visited)",
                prev.len()
            ),
            vec!["The nodes may belong to unrelated parts of the workspace.".into()],
        );
    }
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut cur = to;
    while let Some(Some((p, e))) = prev.get(cur) {
        if let Some(n) = g.node(cur) {
            nodes.push(n.clone());
        }
        edges.push((*e).clone());
        cur = p;
    }
    if let Some(n) = g.node(from) {
        nodes.push(n.clone());
    }
    nodes.reverse();
    edges.reverse();
    let hops = edges.len();
    // The path as it reads: each node, and each edge in its own direction.
    let mut chain = from.to_string();
    for (e, n) in edges.iter().zip(nodes.iter().skip(1)) {
        if e.to == n.id {
            chain.push_str(&format!(" -{}-> {}", e.kind.as_str(), n.id));
        } else {
            chain.push_str(&format!(" <-{}- {}", e.kind.as_str(), n.id));
        }
    }
    let data = json!({
        "from": from, "to": to, "hops": hops,
        "nodeIds": nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>(),
        "edgeIds": edges.iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
    });
    // A path that joins two nodes at a hub (the workspace, a commit, a repository, a source)
    // says only that both belong to it, as everything of their kind does (two pages in the
    // workspace, two files at one commit): real, but not a relationship to rely on. A hub on
    // the way to another hub (a file's commit to its repository) is how one reaches it.
    let through: Vec<&str> = nodes
        .windows(3)
        .filter(|w| walk::is_hub(&w[1]) && !walk::is_hub(&w[0]) && !walk::is_hub(&w[2]))
        .map(|w| w[1].id.as_str())
        .collect();
    let confidence = match through.as_slice() {
        [] => Confidence::exact("the path follows recorded edges"),
        hubs => {
            let explanation = format!(
                "the two are joined only through {}, which everything of its kind shares: the path says they belong to it, not that they are related",
                hubs.join(", ")
            );
            Confidence {
                score: THROUGH_HUB_SCORE,
                level: Level::Low,
                factors: vec![crate::evidence::Factor {
                    kind: "throughHub".into(),
                    confidence: THROUGH_HUB_SCORE,
                    description: explanation.clone(),
                }],
                explanation,
            }
        }
    };
    let item_confidence = confidence.score;
    result(
        ctx,
        "PathBetween",
        format!("{hops} hop(s): {chain}"),
        vec![Evidence::path(
            nodes,
            edges,
            item_confidence,
            format!("shortest path of {hops} hop(s)"),
        )],
        Vec::new(),
        confidence,
        data,
    )
}

/// The confidence of a path that joins two nodes at a hub (the workspace, a commit, a
/// repository, a source): low, whatever its length.
const THROUGH_HUB_SCORE: f64 = 0.3;

/// `Validate {}`: every diagnostic node of the graph.
pub(crate) fn validate(ctx: &Context<'_>, _: &Map<String, Value>) -> CapabilityResult {
    let diags: Vec<Diagnostic> = ctx
        .graph
        .nodes_of(NodeKind::Diagnostic)
        .map(|n| {
            let mut d = diagnostic_of_node(n);
            if d.subject.is_none() {
                d.subject = ctx
                    .graph
                    .out_edges(&n.id, Some(EdgeKind::Concerns))
                    .first()
                    .map(|e| e.to.to_string());
            }
            d
        })
        .collect();
    let count = |s: Severity| diags.iter().filter(|d| d.severity == s).count();
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    let mut by_code: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &diags {
        *by_code.entry(d.code.as_str()).or_insert(0) += 1;
    }
    let data = json!({
        "valid": errors == 0,
        "errors": errors, "warnings": warnings, "infos": infos,
        "byCode": by_code,
        "diagnostics": diags,
    });
    let evidence = diags.iter().cloned().map(Evidence::diagnostic).collect();
    result(
        ctx,
        "Validate",
        format!("{errors} error(s), {warnings} warning(s), {infos} info(s)"),
        evidence,
        Vec::new(),
        Confidence::exact("validation facts recorded while building the graph"),
        data,
    )
}

/// `GraphStatistics {}`.
pub(crate) fn graph_statistics(ctx: &Context<'_>, _: &Map<String, Value>) -> CapabilityResult {
    let g = ctx.graph;
    let mut nodes = BTreeMap::new();
    for k in NodeKind::ALL {
        nodes.insert(k.as_str(), g.count_of(k));
    }
    let mut edges = BTreeMap::new();
    for k in EdgeKind::ALL {
        edges.insert(k.as_str(), g.edge_count_of(k));
    }
    let facts = GraphFacts::of(g);
    let stats = json!({
        "nodes": nodes, "edges": edges,
        "nodeCount": g.node_count(), "edgeCount": g.edge_count(),
        "indexedDocuments": ctx.index.len(),
        "facts": facts,
    });
    result(
        ctx,
        "GraphStatistics",
        format!(
            "{} nodes, {} edges: {} articles, {} sections, {} references",
            g.node_count(),
            g.edge_count(),
            facts.articles,
            facts.sections,
            facts.references
        ),
        vec![Evidence::statistic(
            stats.clone(),
            "node and edge counts by kind",
        )],
        Vec::new(),
        Confidence::exact("counted from the graph"),
        stats,
    )
}

/// `SectionReferences {path, startLine, endLine, includeDigest?}`: the references of the
/// sections overlapping a returned range of a knowledge page, exactly as Context's plugin
/// renders them (the shared code of `ontoly plugin enrich`). Reads the page and the structure
/// from the workspace root as given.
pub(crate) fn section_references(
    ctx: &Context<'_>,
    input: &Map<String, Value>,
) -> CapabilityResult {
    use ontoly_graph::formats::references::{self, RangeQuery, ReferenceContext};
    use ontoly_graph::formats::source_registry::DirFiles;
    let raw = str_field(input, "path");
    // A page's repository path (`filesToInspect` gives it so when the workspace is a directory
    // of its repository) names the same page as its workspace path.
    let root = ctx
        .session()
        .and_then(|s| s.repositories().ok())
        .and_then(|r| r.workspace().map(|w| w.workspace_root.clone()))
        .unwrap_or_default();
    let raw = match raw.strip_prefix(root.as_str()) {
        Some(rest) if !root.is_empty() && rest.starts_with("/knowledge/") => &rest[1..],
        _ => raw,
    };
    let path = if raw.starts_with("knowledge/") {
        raw.to_string()
    } else {
        format!("knowledge/{raw}")
    };
    let line = |k: &str| input.get(k).and_then(Value::as_u64).unwrap_or(0);
    let (start, end) = (line("startLine"), line("endLine"));
    if start == 0 || end < start {
        return CapabilityResult::error(
            ctx.provenance(),
            "SectionReferences",
            "1",
            Code::CapabilityInvalidInput,
            format!("SectionReferences needs 1 <= startLine <= endLine, got {start}..{end}"),
        );
    }
    let include_digest = input
        .get("includeDigest")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    // A page the graph does not hold has no sections to ask about: that is not an answer
    // with no references (which would be exact, and `high`).
    let page = path.strip_prefix("knowledge/").unwrap_or(&path);
    if ctx
        .graph
        .node(&ontoly_graph::graph::model::ids::article(page))
        .is_none()
    {
        return not_found(
            ctx,
            "SectionReferences",
            format!("{path} is not a page of this workspace"),
            vec![
                "Give a page's path as a pack's section `file` names it (`knowledge/…md`); `ontoly evidence` lists sections with their pages and lines.".into(),
            ],
        );
    }
    // The build's parses of the working tree when the graph was opened from disk; without a
    // session (an in-memory graph) there is no working tree to answer from.
    let Some(session) = ctx.session() else {
        return not_found(
            ctx,
            "SectionReferences",
            "this graph has no workspace on disk to read references from".into(),
            Vec::new(),
        );
    };
    let parsed = match session.parsed() {
        Ok(p) => p,
        Err(e) => {
            return not_found(ctx, "SectionReferences", e.to_string(), Vec::new());
        }
    };
    let files =
        DirFiles::new(&session.workspace().root).with_max_bytes(crate::plugin::MAX_FILE_BYTES);
    let out = ReferenceContext::from_parsed(&files, parsed).references_for_range(&RangeQuery {
        path: &path,
        start_line: start,
        end_line: end,
        include_digest,
    });
    let yaml = out.to_yaml();
    let sections: Vec<&str> = out.sections.iter().map(|s| s.section_id.as_str()).collect();
    // Which section records which reference: the YAML (Context's format) lists them once for
    // the whole range, and a reader checking one claim needs those of its section.
    let by_section: Vec<Value> = out
        .sections
        .iter()
        .map(|sr| {
            let refs: Vec<Value> = sr
                .resolved
                .iter()
                .map(|r| references::render(r, include_digest, ""))
                .collect();
            json!({
                "sectionId": sr.section_id,
                "startLine": sr.span.0,
                "endLine": sr.span.1,
                "references": refs,
            })
        })
        .collect();
    let data = json!({
        "path": path,
        "startLine": start,
        "endLine": end,
        "includeDigest": include_digest,
        "sections": sections,
        "bySection": by_section,
        "references": out.references,
        "diagnostics": out.diagnostics.iter().map(|d| d.to_json()).collect::<Vec<_>>(),
        "yaml": yaml,
    });
    if out.is_empty() {
        return CapabilityResult {
            data,
            ..not_found(
                ctx,
                "SectionReferences",
                format!("no section of {path} overlapping lines {start}-{end} has references"),
                vec![
                    "Check the path and lines; `ontoly evidence` lists sections with their lines."
                        .into(),
                ],
            )
        };
    }
    let mut evidence = Vec::new();
    for sid in &sections {
        let page = path.strip_prefix("knowledge/").unwrap_or(&path);
        if let Some(n) = ctx
            .graph
            .node(&ontoly_graph::graph::model::ids::section(page, sid))
        {
            evidence.push(Evidence::node(
                n,
                1.0,
                format!("section {sid} overlaps the range"),
            ));
        }
    }
    let diagnostics: Vec<Diagnostic> = out
        .diagnostics
        .iter()
        .map(|d| Diagnostic {
            code: d.code,
            severity: d.code.severity(),
            message: d.message.clone(),
            subject: d.section_id.clone(),
            location: Some(d.path.clone()),
        })
        .collect();
    for d in &diagnostics {
        evidence.push(Evidence::diagnostic(d.clone()));
    }
    result(
        ctx,
        "SectionReferences",
        format!(
            "{} reference(s) from {} section(s) of {path}:{start}-{end}",
            out.references.len(),
            sections.len()
        ),
        evidence,
        diagnostics,
        Confidence::exact("the references are read from the workspace's structure"),
        data,
    )
}
