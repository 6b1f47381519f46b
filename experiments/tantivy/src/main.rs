//! Issue 8: tantivy as the ranker over the corpora's sections, beside ontoly's own index.
//!
//! A standalone experiment, not a member of the root workspace (its `Cargo.toml` has its own
//! `[workspace]` table), so CI and the shipped binary never build tantivy. Run it from the
//! repository root:
//!
//! ```sh
//! cargo run --release --manifest-path experiments/tantivy/Cargo.toml -- quality
//! cargo run --release --manifest-path experiments/tantivy/Cargo.toml -- quality -v   # per question
//! cargo run --release --manifest-path experiments/tantivy/Cargo.toml -- cost DIR [ROUNDS]
//! ```
//!
//! `quality` opens each corpus of `testdata/corpora/` (requests = the development set; acme,
//! fd, black = held out) with the library, without the snapshot cache, and indexes one tantivy
//! document per section with the fields ontoly's own index gives a section
//! (`capabilities/src/retrieval/index.rs`, `node_fields`): heading, section id, body, the
//! article's text (title and description), and the names of what the section cites (file paths,
//! symbol names). Each question is asked as typed through tantivy's lenient query parser (OR of
//! terms over every field) under every combination of
//!
//! - analyzer: `en_stem` (tantivy's simple tokenizer, lower-casing, English Snowball stemmer)
//!   or `default` (the same without the stemmer);
//! - field boosts: all 1.0 (tantivy's default) or ontoly's 2.5 / 1.5 / 1.0 / 0.6 / 0.5;
//! - query: as typed (tantivy's query grammar applies: a leading `-` excludes a term, `word:`
//!   names a field) or `plain` (every character but letters and digits replaced by a space).
//!
//! It prints top-1 / top-3 (an expected section first / among the first three, over the
//! answerable questions, as `capabilities/examples/quality.rs` scores the shipped pack) and, with
//! tantivy's top score as the confidence signal, a threshold fit on requests (the lowest that
//! flags at least 90 % of its unanswerable questions) applied to each set: unanswerable flagged,
//! answerable flagged (false alarms), and the AUC of the top score. The shipped Evidence Pack is
//! measured in the same run as the reference. Choose a configuration on requests only. `-v`
//! also prints every question's top section and score per configuration, then one line per
//! question with its rank under each ranker in table order (`-`: not among what the ranker
//! returned, the first three for tantivy, the pack's sections for ontoly).
//!
//! `cost DIR` opens a generated workspace (`testdata/gen/generate.py`) without the snapshot
//! cache (nothing is written into DIR), then in each round builds ontoly's index and the tantivy
//! index (the configuration chosen on requests: `en_stem`, equal boosts, plain queries; once in
//! memory, once in a temporary directory for its size) and times 400 generated queries (the
//! recipe of `capabilities/benches/query.rs`) through tantivy (top 10 with their ids), ontoly's
//! ranking alone and ontoly's whole pack, one after the other for each query.

use ontoly_capabilities::evidence::Level;
use ontoly_capabilities::gate::{self, parse_questions};
use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::rank_with;
use ontoly_capabilities::{pack, Context, Index};
use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::graph::Graph;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tantivy::collector::TopDocs;
use tantivy::query::QueryParser;
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, STORED};
use tantivy::{doc, TantivyDocument};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Field names, in ontoly's order (`F_HEADING`, `F_SLUG`, `F_BODY`, `F_ARTICLE`, `F_CODE`).
const FIELDS: [&str; 5] = ["heading", "slug", "body", "article", "code"];
/// ontoly's field weights (`Params::default().weight`).
const ONTOLY_BOOST: [f32; 5] = [2.5, 1.5, 1.0, 0.6, 0.5];
const SETS: [&str; 4] = ["requests", "acme", "fd", "black"];

/// A section's id and its five field texts.
struct SectionDoc {
    id: String,
    fields: [String; 5],
}

fn heading_of(n: &Node) -> &str {
    n.metadata
        .get("heading")
        .or_else(|| n.metadata.get("title"))
        .unwrap_or(&n.name)
}

fn file_path(n: &Node) -> &str {
    n.span
        .as_ref()
        .map(|s| s.file.as_str())
        .or(n.file.as_deref())
        .unwrap_or(&n.name)
}

/// Every section's fields, as ontoly's index builds a section's document: the article through
/// the `CONTAINS` edge, cited files and symbols through each citation's `IN_FILE` / `OVERLAPS`.
fn section_docs(g: &Graph) -> Vec<SectionDoc> {
    g.prepare_adjacency();
    g.nodes_of(NodeKind::Section)
        .map(|n| {
            let mut linked: BTreeSet<&str> = BTreeSet::new();
            for c in g.out_edges(&n.id, Some(EdgeKind::Cites)) {
                for e in g.out_edges(&c.to, None) {
                    if matches!(e.kind, EdgeKind::InFile | EdgeKind::Overlaps) {
                        linked.insert(&e.to);
                    }
                }
            }
            let mut article = String::new();
            for e in g.in_edges(&n.id, Some(EdgeKind::Contains)) {
                if let Some(a) = g.node(&e.from).filter(|a| a.kind == NodeKind::Article) {
                    article = g.text(&a.id).unwrap_or(heading_of(a)).to_string();
                }
            }
            let mut code = String::new();
            for l in linked.iter().filter_map(|id| g.node(id)) {
                match l.kind {
                    NodeKind::File => code.push_str(file_path(l)),
                    NodeKind::Symbol => code.push_str(&l.name),
                    _ => continue,
                }
                code.push('\n');
            }
            SectionDoc {
                id: n.id.clone(),
                fields: [
                    heading_of(n).to_string(),
                    n.metadata.get("section_id").cloned().unwrap_or_default(),
                    g.text(&n.id).unwrap_or("").to_string(),
                    article,
                    code,
                ],
            }
        })
        .collect()
}

/// A tantivy index of the sections, with its id and text fields.
struct Tantivy {
    index: tantivy::Index,
    reader: tantivy::IndexReader,
    id: Field,
    fields: [Field; 5],
}

fn schema(analyzer: &str) -> (Schema, Field, [Field; 5]) {
    let mut b = Schema::builder();
    let id = b.add_text_field("id", STORED);
    let opts = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = FIELDS.map(|f| b.add_text_field(f, opts.clone()));
    (b.build(), id, fields)
}

/// Indexes `docs` in memory, or in `dir` when given.
fn build(docs: &[SectionDoc], analyzer: &str, dir: Option<&Path>) -> Res<Tantivy> {
    let (schema, id, fields) = schema(analyzer);
    let index = match dir {
        Some(d) => tantivy::Index::create_in_dir(d, schema)?,
        None => tantivy::Index::create_in_ram(schema),
    };
    let mut w: tantivy::IndexWriter<TantivyDocument> = index.writer(100_000_000)?;
    for d in docs {
        w.add_document(doc!(
            id => d.id.as_str(),
            fields[0] => d.fields[0].as_str(),
            fields[1] => d.fields[1].as_str(),
            fields[2] => d.fields[2].as_str(),
            fields[3] => d.fields[3].as_str(),
            fields[4] => d.fields[4].as_str(),
        ))?;
    }
    w.commit()?;
    w.wait_merging_threads()?;
    let reader = index.reader()?;
    Ok(Tantivy {
        index,
        reader,
        id,
        fields,
    })
}

impl Tantivy {
    fn parser(&self, boost: Option<[f32; 5]>) -> QueryParser {
        let mut p = QueryParser::for_index(&self.index, self.fields.to_vec());
        if let Some(b) = boost {
            for (f, w) in self.fields.iter().zip(b) {
                p.set_field_boost(*f, w);
            }
        }
        p
    }

    /// The top `k` section ids with their scores.
    fn search(&self, parser: &QueryParser, q: &str, k: usize) -> Res<Vec<(f32, String)>> {
        let (query, _errors) = parser.parse_query_lenient(q);
        let searcher = self.reader.searcher();
        let top = searcher.search(&query, &TopDocs::with_limit(k).order_by_score())?;
        let mut out = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let d: TantivyDocument = searcher.doc(addr)?;
            let id = d
                .get_first(self.id)
                .and_then(|v| tantivy::schema::Value::as_str(&v))
                .unwrap_or("")
                .to_string();
            out.push((score, id));
        }
        Ok(out)
    }
}

/// Letters and digits only: tantivy's query grammar (`-term`, `field:`, quotes, `AND`) no
/// longer applies to what the user typed.
fn plain(q: &str) -> String {
    q.chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect::<String>()
        .to_lowercase()
}

/// One question's outcome: answerable, 1-based rank of the first expected section among the
/// top three, confidence score, and whether the shipped pack flags it (ontoly only).
#[derive(Clone)]
struct Outcome {
    answerable: bool,
    rank: Option<usize>,
    score: f64,
    flagged: bool,
}

struct Corpus {
    name: String,
    docs: Vec<SectionDoc>,
    /// Question, answerable, expected section ids.
    questions: Vec<(String, bool, Vec<String>)>,
    ontoly: Vec<Outcome>,
}

fn open(ws: &Path) -> Res<Session> {
    let cwd = std::env::current_dir()?;
    Ok(Session::open(
        SessionOptions::new(cwd)
            .workspace(ws)
            .cache(CachePolicy::Off),
    )?)
}

fn load(name: &str) -> Res<Corpus> {
    let base = PathBuf::from("testdata/corpora").join(name);
    let session = open(&base.join("ws"))?;
    let index = Index::open(&session)?;
    let cx = Context::new(&session, &index)?;
    let g = cx.graph;
    let articles = gate::article_ids(g);
    let text = std::fs::read_to_string(base.join("questions.yaml"))?;
    let mut questions = Vec::new();
    let mut ontoly = Vec::new();
    for q in parse_questions(&text)? {
        let expect: Vec<String> = q
            .expect
            .iter()
            .map(|e| gate::resolve_section(g, e, &articles).unwrap_or_else(|| e.clone()))
            .collect();
        let p = pack::evidence_pack(&cx, &q.question, None).pack;
        let top: Vec<&str> = p.top_sections().map(|t| t.node.id.as_str()).collect();
        ontoly.push(Outcome {
            answerable: q.answerable,
            rank: rank_of(&top, &expect),
            score: p.confidence.score,
            flagged: matches!(p.confidence.level, Level::Low | Level::None),
        });
        questions.push((q.question, q.answerable, expect));
    }
    Ok(Corpus {
        name: name.to_string(),
        docs: section_docs(g),
        questions,
        ontoly,
    })
}

fn rank_of(top: &[&str], expect: &[String]) -> Option<usize> {
    top.iter()
        .position(|s| expect.iter().any(|e| e == s))
        .map(|i| i + 1)
}

fn rate(n: usize, d: usize) -> f64 {
    if d == 0 {
        0.0
    } else {
        n as f64 / d as f64
    }
}

fn top_rates(o: &[Outcome]) -> (f64, f64) {
    let ans: Vec<&Outcome> = o.iter().filter(|a| a.answerable).collect();
    let t1 = ans.iter().filter(|a| a.rank == Some(1)).count();
    let t3 = ans
        .iter()
        .filter(|a| a.rank.is_some_and(|r| r <= 3))
        .count();
    (rate(t1, ans.len()), rate(t3, ans.len()))
}

fn auc(o: &[Outcome]) -> f64 {
    let mut wins = 0.0;
    let mut pairs = 0usize;
    for p in o.iter().filter(|a| a.answerable) {
        for n in o.iter().filter(|a| !a.answerable) {
            pairs += 1;
            wins += if p.score > n.score {
                1.0
            } else if p.score == n.score {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / pairs.max(1) as f64
}

/// The lowest threshold that flags (score < t) at least 90 % of the unanswerable questions,
/// halfway to the next score above (as `quality.rs` fits it).
fn threshold_90(o: &[Outcome]) -> f64 {
    let mut un: Vec<f64> = o
        .iter()
        .filter(|a| !a.answerable)
        .map(|a| a.score)
        .collect();
    un.sort_by(f64::total_cmp);
    let Some(&at) = un.get((un.len() * 9).div_ceil(10).saturating_sub(1)) else {
        return 0.0;
    };
    let next = o
        .iter()
        .map(|a| a.score)
        .filter(|s| *s > at)
        .fold(f64::INFINITY, f64::min);
    if next.is_finite() {
        (at + next) / 2.0
    } else {
        at + 1e-6
    }
}

/// (unanswerable flagged, answerable flagged) at threshold `t`.
fn flagged_at(o: &[Outcome], t: f64) -> (f64, f64) {
    let un = o.iter().filter(|a| !a.answerable).count();
    let an = o.len() - un;
    let unf = o.iter().filter(|a| !a.answerable && a.score < t).count();
    let anf = o.iter().filter(|a| a.answerable && a.score < t).count();
    (rate(unf, un), rate(anf, an))
}

/// A tantivy configuration.
#[derive(Clone, Copy)]
struct Config {
    analyzer: &'static str,
    boost: Option<[f32; 5]>,
    plain: bool,
}

impl Config {
    fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.analyzer,
            if self.boost.is_some() {
                "ontoly-boosts"
            } else {
                "equal-boosts"
            },
            if self.plain { "plain" } else { "as-typed" }
        )
    }
}

fn run_config(c: &Corpus, t: &Tantivy, cfg: Config, verbose: bool) -> Res<Vec<Outcome>> {
    let parser = t.parser(cfg.boost);
    let mut out = Vec::new();
    for (q, answerable, expect) in &c.questions {
        let asked = if cfg.plain { plain(q) } else { q.clone() };
        let hits = t.search(&parser, &asked, 3)?;
        let top: Vec<&str> = hits.iter().map(|h| h.1.as_str()).collect();
        let o = Outcome {
            answerable: *answerable,
            rank: rank_of(&top, expect),
            score: hits.first().map_or(0.0, |h| f64::from(h.0)),
            flagged: false,
        };
        if verbose {
            let mark = match (o.answerable, o.rank) {
                (true, Some(1)) => "top1",
                (true, Some(_)) => "top3",
                (true, None) => "MISS",
                (false, _) => "unan",
            };
            println!(
                "  {:<9} {mark} {:>7.3} {:<60} -> {}",
                c.name,
                o.score,
                q,
                top.first().unwrap_or(&"-")
            );
        }
        out.push(o);
    }
    Ok(out)
}

fn quality(verbose: bool) -> Res<()> {
    let corpora: Vec<Corpus> = SETS.iter().map(|s| load(s)).collect::<Res<_>>()?;
    let mut configs = Vec::new();
    for analyzer in ["en_stem", "default"] {
        for boost in [None, Some(ONTOLY_BOOST)] {
            for plain in [false, true] {
                configs.push(Config {
                    analyzer,
                    boost,
                    plain,
                });
            }
        }
    }
    // Per config, per corpus: outcomes. The tantivy index depends on the analyzer only.
    let mut results: Vec<(String, Vec<Vec<Outcome>>)> = Vec::new();
    results.push((
        "ontoly (shipped pack)".into(),
        corpora.iter().map(|c| c.ontoly.clone()).collect(),
    ));
    for analyzer in ["en_stem", "default"] {
        let indexes: Vec<Tantivy> = corpora
            .iter()
            .map(|c| build(&c.docs, analyzer, None))
            .collect::<Res<_>>()?;
        for cfg in configs.iter().filter(|c| c.analyzer == analyzer) {
            if verbose {
                println!("{}", cfg.label());
            }
            let per: Vec<Vec<Outcome>> = corpora
                .iter()
                .zip(&indexes)
                .map(|(c, t)| run_config(c, t, *cfg, verbose))
                .collect::<Res<_>>()?;
            results.push((format!("tantivy {}", cfg.label()), per));
        }
    }

    if verbose {
        // One line per question: its rank under each ranker, in the order of the tables below
        // (`-` = not returned), to see which questions each ranker alone answers.
        println!("\nrank of the first expected section per ranker (table order):");
        for (ci, c) in corpora.iter().enumerate() {
            for (qi, (q, answerable, _)) in c.questions.iter().enumerate() {
                let ranks: Vec<String> = results
                    .iter()
                    .map(|(_, per)| per[ci][qi].rank.map_or("-".into(), |r| r.to_string()))
                    .collect();
                let kind = if *answerable { "ans" } else { "un " };
                println!("  {:<9} {kind} {} {q}", c.name, ranks.join(" "));
            }
        }
    }
    println!(
        "sections: {}",
        corpora
            .iter()
            .map(|c| format!("{} {}", c.name, c.docs.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("\ntop-1 / top-3 (answerable questions):");
    print!("{:<46}", "ranker");
    for c in &corpora {
        print!(" {:>11}", c.name);
    }
    println!();
    for (label, per) in &results {
        print!("{label:<46}");
        for o in per {
            let (t1, t3) = top_rates(o);
            print!(" {:>11}", format!("{t1:.2}/{t3:.2}"));
        }
        println!();
    }
    println!(
        "\nconfidence: threshold fit on requests (>= 90 % of its unanswerable flagged), applied to \
         each set: flagged / false alarms / AUC (ontoly: its shipped levels, AUC of its score)"
    );
    print!("{:<46} {:>9}", "ranker", "threshold");
    for c in &corpora {
        print!(" {:>16}", c.name);
    }
    println!();
    for (i, (label, per)) in results.iter().enumerate() {
        let t = threshold_90(&per[0]);
        if i == 0 {
            print!("{label:<46} {:>9}", "levels");
        } else {
            print!("{label:<46} {t:>9.3}");
        }
        for o in per {
            let (fl, fa) = if i == 0 {
                let un = o.iter().filter(|a| !a.answerable).count();
                let an = o.len() - un;
                (
                    rate(o.iter().filter(|a| !a.answerable && a.flagged).count(), un),
                    rate(o.iter().filter(|a| a.answerable && a.flagged).count(), an),
                )
            } else {
                flagged_at(o, t)
            };
            print!(" {:>16}", format!("{fl:.2}/{fa:.2}/{:.3}", auc(o)));
        }
        println!();
    }
    Ok(())
}

/// The bench's queries (`capabilities/benches/query.rs`): 4 from section names and body words,
/// 1 with words the generator never uses; 400 at most.
fn bench_queries(g: &Graph) -> Vec<String> {
    const QUERIES: usize = 400;
    let sections: Vec<&Node> = g.nodes_of(NodeKind::Section).collect();
    let step = (sections.len() / (QUERIES * 4 / 5)).max(1);
    let mut out = Vec::new();
    for (i, s) in sections.iter().step_by(step).enumerate() {
        let body = g.text(&s.id).unwrap_or("");
        let words: Vec<&str> = body
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| w.len() > 4)
            .skip(i % 3)
            .take(2)
            .collect();
        out.push(format!("How does {} handle {}?", s.name, words.join(" ")));
        if i % 4 == 3 {
            out.push(format!("How do I configure zeppelin quasar {i} tokens?"));
        }
        if out.len() >= QUERIES {
            break;
        }
    }
    out
}

fn p50(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[(v.len() - 1) / 2]
}

fn dir_bytes(d: &Path) -> std::io::Result<u64> {
    let mut n = 0;
    for e in std::fs::read_dir(d)? {
        let m = e?.metadata()?;
        if m.is_file() {
            n += m.len();
        }
    }
    Ok(n)
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn cost(ws: &Path, rounds: usize) -> Res<()> {
    let t = Instant::now();
    let session = open(ws)?;
    let g = session.graph()?;
    let indexed = g
        .nodes()
        .filter(|n| {
            matches!(
                n.kind,
                NodeKind::Section | NodeKind::Article | NodeKind::File | NodeKind::Symbol
            )
        })
        .count();
    println!(
        "graph: {} sections ({indexed} documents in ontoly's index), built in {:.2} s (no cache)",
        g.nodes_of(NodeKind::Section).count(),
        t.elapsed().as_secs_f64()
    );
    let queries = bench_queries(g);
    let tmp = std::env::temp_dir().join(format!("ontoly-tantivy-{}", std::process::id()));
    for round in 1..=rounds {
        let t = Instant::now();
        let docs = section_docs(g);
        let fields = t.elapsed();
        let t = Instant::now();
        let index = Index::build(g);
        let ontoly_build = t.elapsed();
        let ontoly_bytes = index.to_bytes().len();
        let t = Instant::now();
        let tv = build(&docs, "en_stem", None)?;
        let tantivy_build = t.elapsed();
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp)?;
        let t = Instant::now();
        drop(build(&docs, "en_stem", Some(&tmp))?);
        let tantivy_disk_build = t.elapsed();
        let tantivy_bytes = dir_bytes(&tmp)?;
        std::fs::remove_dir_all(&tmp)?;

        let cx = Context::new(&session, &index)?;
        // The configuration chosen on requests: equal boosts, queries as plain words.
        let parser = tv.parser(None);
        let params = Params::default();
        let (mut tq, mut rq, mut pq) = (Vec::new(), Vec::new(), Vec::new());
        for q in &queries {
            let t = Instant::now();
            std::hint::black_box(tv.search(&parser, &plain(q), 10)?);
            tq.push(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(rank_with(&index, q, &params));
            rq.push(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(pack::evidence_pack(&cx, q, None));
            pq.push(t.elapsed());
        }
        println!(
            "round {round}: section fields {} | ontoly index build {}, {} bytes | tantivy build \
             in memory {}, on disk {}, {} bytes | query p50 ({} queries): tantivy top-10 {}, \
             ontoly ranking {}, ontoly pack {}",
            ms(fields),
            ms(ontoly_build),
            ontoly_bytes,
            ms(tantivy_build),
            ms(tantivy_disk_build),
            tantivy_bytes,
            queries.len(),
            ms(p50(tq)),
            ms(p50(rq)),
            ms(p50(pq)),
        );
    }
    Ok(())
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("quality") => quality(args.iter().any(|a| a == "-v")),
        Some("cost") => {
            let ws = args.get(1).ok_or("cost: which workspace directory?")?;
            let rounds = args.get(2).map_or(Ok(3), |r| r.parse())?;
            cost(Path::new(ws), rounds)
        }
        _ => Err("usage: ontoly-tantivy-experiment quality [-v] | cost DIR [ROUNDS]".into()),
    }
}
