//! Answer quality floors on question sets the shipped parameters were not fit on (acme — the
//! demo's pages and questions as they were before the demo was edited to pass its own gate —
//! and the fd corpus; the parameters and the confidence model are fit on three blind sets,
//! commander, jinja and hyperfine): loose floors, so that a
//! change that makes retrieval or confidence clearly worse fails here. The figures themselves
//! come from `scripts/quality.sh` and are recorded in docs/evidence.md.

use ontoly_capabilities::gate::{check, parse_questions, Metrics};
use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::{rank_with, QUOTED_WEIGHT};
use ontoly_capabilities::{Context, Index};
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::path::Path;

fn metrics(ws: &Path, questions: &Path) -> Metrics {
    let session = Session::open(
        SessionOptions::new(ws)
            .workspace(ws)
            .cache(CachePolicy::Off),
    )
    .expect("the workspace opens");
    let index = Index::open(&session).expect("the graph builds");
    let cx = Context::new(&session, &index).expect("context");
    let text = std::fs::read_to_string(questions).expect("questions");
    let q = parse_questions(&text).expect("the questions parse");
    check(&cx, &q).metrics
}

fn testdata() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

fn at_least(name: &str, what: &str, got: Option<f64>, floor: f64) {
    let got = got.unwrap_or(0.0);
    assert!(
        got >= floor,
        "{name}: {what} {got:.2} is below its floor {floor}"
    );
}

fn at_most(name: &str, what: &str, got: Option<f64>, ceiling: f64) {
    let got = got.unwrap_or(1.0);
    assert!(
        got <= ceiling,
        "{name}: {what} {got:.2} is above its ceiling {ceiling}"
    );
}

#[test]
fn held_out_question_sets_stay_above_their_floors() {
    let t = testdata();
    let acme = metrics(
        &t.join("corpora/acme/ws"),
        &t.join("corpora/acme/questions.yaml"),
    );
    let fd = metrics(
        &t.join("corpora/fd/ws"),
        &t.join("corpora/fd/questions.yaml"),
    );
    for (name, m, top1, top3) in [("acme", acme, 0.70, 0.90), ("fd", fd, 0.65, 0.85)] {
        assert!(
            m.with_expected > 40 && m.unanswerable >= 13,
            "{name}: {m:?}"
        );
        at_least(name, "top-1", m.top1_rate, top1);
        at_least(name, "top-3", m.top3_rate, top3);
        at_least(name, "unanswerable flagged", m.flagged_rate, 0.75);
        at_most(name, "false alarms", m.false_alarm_rate, 0.30);
    }
}

#[test]
fn the_go_question_set_stays_above_its_floors() {
    // viper (Go; testdata/corpora/viper): blind when first run at stop 52 (top-1 32, top-3 39
    // of 40, 6 false alarms, 8 of 10 flagged), fit from then on. Its pasted Go errors and
    // `pkg.Func` names are what no other set asks.
    let t = testdata().join("corpora/viper");
    let m = metrics(&t.join("ws"), &t.join("questions.yaml"));
    assert!(
        m.with_expected == 40 && m.unanswerable == 10,
        "viper: {m:?}"
    );
    at_least("viper", "top-1", m.top1_rate, 0.70);
    at_least("viper", "top-3", m.top3_rate, 0.90);
    at_least("viper", "unanswerable flagged", m.flagged_rate, 0.60);
    at_most("viper", "false alarms", m.false_alarm_rate, 0.30);
}

#[test]
fn pasted_traces_are_read_for_their_messages() {
    // Two held-out trace sets (testdata/traces/README.md), one Python, one Node.js. Read as
    // prose, every answerable trace was flagged (12 of 12 and 10 of 10 false alarms) and
    // marshmallow's top-1 was 4 of 12. And the Rust set the panic rules were fit on (toml, 24
    // and 25 of 25 with them): before, an unwrapped error's Debug wrapper won 20 of its 25.
    // And the Java set the Java rules were fit on (jackson, 31 and 31 of 31 with them, no false
    // alarm): before, Jackson's payload tails and the app's wrappers made 1 false alarm.
    let t = testdata();
    for (name, top1, top3) in [
        ("marshmallow", 0.45, 0.6),
        ("ws", 0.5, 0.7),
        ("toml", 0.85, 0.95),
        ("jackson", 0.9, 0.95),
    ] {
        let m = metrics(
            &t.join("corpora").join(name).join("ws"),
            &t.join("corpora").join(name).join("traces.yaml"),
        );
        assert!(
            m.with_expected >= 10 && m.unanswerable >= 4,
            "{name}: {m:?}"
        );
        at_least(name, "traces' top-1", m.top1_rate, top1);
        at_least(name, "traces' top-3", m.top3_rate, top3);
        at_most(name, "traces' false alarms", m.false_alarm_rate, 0.5);
    }
}

#[test]
fn a_long_trace_keeps_its_exception() {
    let ix = corpus_index("requests");
    // 70 frames of the asker's own code, each with its own words, above the exception: read as
    // prose, the exception's words fell past the 64 terms a query keeps.
    let mut trace = String::from("Traceback (most recent call last):\n");
    for i in 0..70 {
        trace.push_str(&format!(
            "  File \"/home/ann/app/step{i}.py\", line {i}, in handler_{i}\n    result_{i} = stage_{i}(payload)\n"
        ));
    }
    trace.push_str("requests.exceptions.TooManyRedirects: Exceeded 30 redirects.\n");
    let r = rank_with(&ix, &trace, &Params::default());
    let terms: Vec<&str> = r.terms.iter().map(|t| t.query.term.as_str()).collect();
    assert!(terms.contains(&"redirect"), "{terms:?}");
    assert!(!terms.iter().any(|t| t.contains("handler")), "{terms:?}");
    assert_eq!(
        r.sections().next().map(|s| s.id.as_str()),
        Some("section:faq/troubleshooting.md#too-many-redirects")
    );
}

/// The search index of the corpus `name`'s workspace, built without the cache.
fn corpus_index(name: &str) -> Index {
    let ws = testdata().join("corpora").join(name).join("ws");
    let session = Session::open(
        SessionOptions::new(&ws)
            .workspace(&ws)
            .cache(CachePolicy::Off),
    )
    .expect("the workspace opens");
    Index::open(&session).expect("the graph builds")
}

/// The first section `rank` gives `question` on the commander corpus, and its query terms with
/// their weights.
fn first_section(ix: &Index, question: &str) -> (String, Vec<(String, f64)>) {
    let r = rank_with(ix, question, &Params::default());
    let first = r
        .sections()
        .next()
        .map(|s| s.id.clone())
        .unwrap_or_default();
    let terms = r
        .terms
        .iter()
        .zip(&r.idf)
        .map(|(t, w)| (t.query.term.clone(), *w))
        .collect();
    (first, terms)
}

#[test]
fn blind_askers_find_a_bare_double_dash_paste_their_own_values_and_mistype() {
    let ix = corpus_index("commander");
    // `--` is a term where the pages document it.
    let (first, terms) = first_section(&ix, "what does a bare -- do on the command line");
    assert_eq!(first, "section:usage/parsing-configuration.md#double-dash");
    assert!(
        terms.iter().any(|(t, w)| t == "--" && *w > 0.0),
        "{terms:?}"
    );
    // The quoted flag is the user's; the message around it is the page's. Without the quotes
    // the flag's word `config` leads to the config-file how-to.
    let pasted = "error: required option '-c, --config <path>' not specified";
    let (first, terms) = first_section(&ix, pasted);
    assert_eq!(first, "section:usage/option-settings.md#required-option");
    let weight = |t: &str| terms.iter().find(|(x, _)| x == t).map(|(_, w)| *w);
    let unquoted = first_section(&ix, &pasted.replace('\'', "")).1;
    let plain = |t: &str| unquoted.iter().find(|(x, _)| x == t).map(|(_, w)| *w);
    for t in ["--config", "config", "path"] {
        let (w, p) = (weight(t).unwrap_or(-1.0), plain(t).unwrap_or(-1.0));
        assert!((w - QUOTED_WEIGHT * p).abs() < 1e-9, "{t}: {w} vs {p}");
    }
    assert_eq!(weight("specifi"), plain("specifi"));
    assert_ne!(
        first_section(&ix, &pasted.replace('\'', "")).0,
        "section:usage/option-settings.md#required-option"
    );
    // A typo that hides a suffix is corrected on the word as typed: `requierd` is one edit
    // from "required" (`requir`) but two from its stem.
    let r = rank_with(&ix, "requierd option detector", &Params::default());
    let fixed: Vec<(&str, Option<&str>)> = r
        .terms
        .iter()
        .map(|t| (t.query.word.as_str(), t.corrected.as_deref()))
        .collect();
    assert_eq!(
        fixed,
        vec![
            ("requierd", Some("requir")),
            ("option", None),
            ("detector", None)
        ]
    );
    // A corrected word pairs with its neighbours as the word it was read as: the heading
    // "Variadic options" holds the pair `variad option` that `varidic option` means.
    for q in ["varidic option", "variadic option"] {
        assert_eq!(
            first_section(&ix, q).0,
            "section:usage/options.md#variadic-options",
            "{q}"
        );
    }
    // `detector` is unknown here and one edit from "detected" (`detect`), but it is a word.
    assert_eq!((r.terms[2].df, ix.df("detect") > 0), (0, true));
    // A question that is mostly one quoted name is about that name.
    assert_eq!(
        first_section(&ix, "the 'passThroughOptions' setting"),
        first_section(&ix, "the passThroughOptions setting")
    );
}

/// The query terms of `question` on the corpus `name` as (word, correction, sections using
/// the term searched).
fn corrections(name: &str, question: &str) -> Vec<(String, Option<String>, usize)> {
    let r = rank_with(&corpus_index(name), question, &Params::default());
    r.terms
        .iter()
        .map(|t| (t.query.word.clone(), t.corrected.clone(), t.df))
        .collect()
}

#[test]
fn a_typed_flag_word_or_release_is_read_as_the_pages_write_it() {
    // A flag one edit from one the pages document; typos one edit from a word whose term the
    // stemmer changes (`directory` → `directori`) or from a word when the typed one's own stem
    // is one edit from nothing (`socre` → `socr`); a release named by its series.
    for (corpus, question, word, read_as) in [
        (
            "just",
            "hide a recipe from --lsit output",
            "--lsit",
            "--list",
        ),
        (
            "ripgrep",
            "exclude a directroy with a glob",
            "directroy",
            "directory",
        ),
        (
            "zoxide",
            "zoxide query --list with the socre",
            "socre",
            "score",
        ),
        (
            "httpx",
            "garbled text since upgrading to 0.23",
            "0.23",
            "0.23.0",
        ),
    ] {
        let r = rank_with(&corpus_index(corpus), question, &Params::default());
        let t = r
            .terms
            .iter()
            .find(|t| t.query.word == word)
            .expect("the word is a term");
        assert_eq!(
            t.read_as.as_deref(),
            Some(read_as),
            "{corpus}: {:?}",
            r.terms
        );
    }
}

#[test]
fn the_numbers_of_an_address_or_a_date_are_no_missing_topic() {
    // The asker's own value: a page that quotes one address does not quote theirs.
    for (corpus, question) in [
        (
            "xh",
            "resolve the host to 10.203.57.91 instead of asking DNS",
        ),
        (
            "click",
            "Invalid value for '--when': '2021-13-31' does not match the formats",
        ),
    ] {
        let terms = corrections(corpus, question);
        let unknown_numbers: Vec<&(String, Option<String>, usize)> = terms
            .iter()
            .filter(|t| t.0.chars().all(|c| c.is_ascii_digit()) && t.2 == 0)
            .collect();
        assert!(unknown_numbers.is_empty(), "{corpus}: {terms:?}");
        assert!(
            terms.iter().any(|t| t.2 > 0),
            "{corpus}: its words are still searched"
        );
    }
}

#[test]
fn a_memory_address_is_no_missing_topic() {
    // A pasted panic's or repr's pointer (Rust walk on bytes, stop 49): no page holds it.
    let terms = corrections(
        "tenacity",
        "tenacity.RetryError: RetryError[<Future at 0x7f3c2a1b4d90 state=finished raised ConnectionError>]",
    );
    assert!(!terms.iter().any(|t| t.0.starts_with("0x")), "{terms:?}");
    assert!(
        terms.iter().any(|t| t.2 > 0),
        "its words are still searched"
    );
    // A number is not an address: `0x10` is short, and `0xZZ…` is no hex.
    let terms = corrections("tenacity", "wait 0x10 then 0xZZZZZZZZ");
    assert!(terms.iter().any(|t| t.0 == "0x10"), "{terms:?}");
}

#[test]
fn an_assignment_is_its_name_and_the_askers_value() {
    // `months=1` was one unknown term, a third of the query's weight "not in this workspace",
    // though the section on `shift(months=…)` was first (quality walk, stop 41).
    let ix = corpus_index("arrow");
    let r = rank_with(&ix, "shift(months=1)", &Params::default());
    assert!(
        r.terms.iter().all(|t| t.df > 0 || !t.searched),
        "{:?}",
        r.terms
    );
    assert_eq!(
        first_section(&ix, "shift(months=1)").0,
        "section:usage/replace-and-shift.md#shift"
    );
    // A value the pages never write is the asker's, not a missing topic.
    let terms = corrections("arrow", "shift(months=1234567)");
    assert!(terms.iter().all(|t| t.0 != "1234567"), "{terms:?}");
}

#[test]
fn a_question_about_an_operator_finds_the_section_that_uses_it() {
    // just's `=~` (a regular-expression match) and `&&` (dependencies run after the recipe):
    // until operators were terms, both questions had no searchable words.
    let ix = corpus_index("just");
    for (question, section) in [
        ("=~", "section:usage/variables-and-strings.md#conditionals"),
        (
            "b: a && c",
            "section:usage/dependencies.md#subsequent-dependencies",
        ),
    ] {
        assert_eq!(first_section(&ix, question).0, section, "{question}");
    }
}

#[test]
fn a_word_is_not_read_as_a_made_up_ending_of_a_known_one() {
    // Each of these is one edit at its end from a word the stemmer shortens to a term of the
    // workspace ("breaked" → `break`, "socketion" → `socket`), and none is a typo of it: the
    // question is about something the pages do not name, which the confidence must see.
    for (corpus, question, word) in [
        ("tenacity", "circuit breaker", "breaker"),
        ("ws", "does ws work with socketio clients", "socketio"),
    ] {
        let terms = corrections(corpus, question);
        let t = terms
            .iter()
            .find(|t| t.0 == word)
            .expect("the word is a term");
        assert_eq!((&t.1, t.2), (&None, 0), "{corpus}: {terms:?}");
    }
}

#[test]
fn a_name_in_snake_case_the_workspace_lacks_is_one_missing_thing() {
    // "what does get_jobs return" in a workspace with no `get_jobs` was answered `high` from
    // the words "get" and "jobs" (adoption walk, stop 47), as "NestedCache" was until stop 39.
    let unknown = |question: &str, name: &str| {
        corrections("arrow", question)
            .iter()
            .any(|(word, _, df)| word == name && *df == 0)
    };
    assert!(unknown("what does humanize_range return", "humanize_range"));
    // So is a qualified name whose own name the workspace lacks (`Scheduler.get_jobs`).
    assert!(unknown("Arrow.humanize_range", "Arrow.humanize_range"));
    assert!(!unknown("Arrow.humanize", "Arrow.humanize"));
    // An assignment is one word typed, not its name and its value (`is_sorted with
    // strict=True` was four words, so `is_sorted` was read as the asker's variable: blind
    // walk on more-itertools, stop 51).
    assert!(unknown("humanize_range with locale=True", "humanize_range"));
    // A known name is searched as written; in a longer question a snake-case name is as
    // often the asker's own variable, searched by its words.
    assert!(!unknown("what does dehumanize return", "dehumanize"));
    assert!(!unknown(
        "isinstance(arrow_obj, datetime) is False, library expects a datetime",
        "arrow_obj"
    ));
    // A name whose words the pages write side by side is the same name written another way.
    let r = rank_with(&corpus_index("arrow"), "time_zone", &Params::default());
    assert!(
        r.terms
            .iter()
            .all(|t| t.query.word != "time_zone" || !t.searched),
        "{:?}",
        r.terms
    );
}

#[test]
fn a_timestamp_a_uuid_or_a_hex_id_is_no_missing_topic() {
    // The asker's values, as an address's numbers are (TypeScript walk, stop 53: an ISO
    // timestamp split into `2024, 05, 01T10` turned a right answer into a low false alarm).
    let terms = corrections(
        "arrow",
        "parse 2024-05-01T10:00:00+02:00 for order 123e4567-e89b-12d3-a456-426614174000 built at 3f2a9c1",
    );
    let unknown: Vec<&(String, Option<String>, usize)> = terms
        .iter()
        .filter(|t| t.2 == 0 && t.0.chars().any(|c| c.is_ascii_digit()))
        .collect();
    assert!(unknown.is_empty(), "{terms:?}");
    assert!(
        terms.iter().any(|t| t.0 == "parse" && t.2 > 0),
        "its words are still searched: {terms:?}"
    );
}

#[test]
fn a_library_frames_name_is_not_read_as_another_word() {
    // Jackson's frames as the program printed them (re-walk, stop 52: "read Next as nest" from
    // `ParserBase._eofAsNextChar`, "read Cache as catch" from `DeserializerCache`).
    let t = testdata();
    let text = std::fs::read_to_string(t.join("corpora/jackson/traces.yaml")).expect("traces");
    let questions = parse_questions(&text).expect("the traces parse");
    let ix = corpus_index("jackson");
    let mut seen = Vec::new();
    for q in &questions {
        let r = rank_with(&ix, &q.question, &Params::default());
        for t in r.terms.iter().filter(|t| t.around) {
            if ["Next", "Cache"].contains(&t.query.word.as_str()) {
                assert_eq!(t.corrected, None, "{}: {:?}", t.query.word, t.read_as);
                seen.push(t.query.word.clone());
            }
        }
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen, ["Cache", "Next"], "both are words around a trace");
}

#[test]
fn a_correction_is_named_as_the_pages_write_it() {
    // "literal" reads through its stem `liter` as `later`; the word shown was "lateral", an
    // English word one edit from "literal" that neither the asker nor the pages wrote.
    let ws = testdata().join("corpora/requests/ws");
    let session = Session::open(
        SessionOptions::new(&ws)
            .workspace(&ws)
            .cache(CachePolicy::Off),
    )
    .expect("the workspace opens");
    let index = Index::open(&session).expect("the graph builds");
    let cx = Context::new(&session, &index).expect("context");
    let p =
        ontoly_capabilities::pack::evidence_pack(&cx, "a literal % in my url turns into %25", None)
            .pack;
    let e = &p.confidence.explanation;
    assert!(e.contains("read literal as later"), "{e}");
    assert!(!e.contains("lateral"), "{e}");
    // `check`'s "does not hold" list names it the same way, for a section below the top.
    let below = (p.top_sections().nth(4)).map(|t| t.node.id.clone());
    let below = below.expect("a fifth section");
    let q = ontoly_capabilities::gate::parse_questions(&format!(
        "- question: a literal % in my url turns into %25\n  expect: {below}\n"
    ))
    .expect("valid");
    let r = ontoly_capabilities::gate::check(&cx, &q);
    let reason = &r.outcomes[0].reason;
    assert!(reason.contains("is number 5 in the pack"), "{reason}");
    assert!(!reason.contains("lateral"), "{reason}");
}
