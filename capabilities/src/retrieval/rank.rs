//! Ranking: BM25F over the fields of each section (its own text, its article, what it cites),
//! then propagation to the files, symbols and articles around the best sections.
//!
//! Query words the corpus never saw are matched to a known term one edit away (a typo: of the
//! stem, or failing that of the word as typed), at a reduced weight; a compound (`end-to-end`,
//! `HTTP/2`) the corpus never saw is not searched (its words are), but it stays a query term,
//! so confidence counts it as unmatched. A pasted message's quoted values weigh less than its
//! own words. Work is bounded by counts ([`PROPAGATE_TOP`]), never by time, so answers do not
//! change under load.

use super::index::{query_terms, Dense, Index, Params, QueryTerm};
use super::pasted;
use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::graph::Graph;

/// Share of the best linked section's score a file, symbol or article inherits.
pub const REACHED_WEIGHT: f64 = 0.5;
/// How many top sections pass their score down to what they cite.
pub const PROPAGATE_TOP: usize = 400;
/// Nodes kept in a ranking (a pack carries at most 20).
pub const MAX_RANKED: usize = 200;
// The best MAX_RANKED nodes are taken from the PROPAGATE_TOP best sections and the others.
const _: () = assert!(MAX_RANKED <= PROPAGATE_TOP);
/// Weight of a spelling correction relative to the word as typed.
pub const FUZZY_WEIGHT: f64 = 0.7;
/// Weight of a quoted value (`'--json'`, `'file'`) in a query that has words of its own
/// around it (a pasted error message): the user's value, not the message's.
pub const QUOTED_WEIGHT: f64 = 0.1;
/// Unquoted terms a query needs before its quoted values weigh [`QUOTED_WEIGHT`] (a question
/// that is mostly a quoted name, "the 'safe' filter", is about that name).
pub const QUOTED_CONTEXT: usize = 2;
/// Weight of the words only around a pasted trace's message (its library frames' names and
/// paths, the code lines printed with frames), relative to the message's and the asker's own.
pub const AROUND_WEIGHT: f64 = 0.5;
/// Weight of the runtime's own message in a pasted trace that says more ([`Term::runtime`]).
pub const RUNTIME_WEIGHT: f64 = 1.0;

/// Share by which a section's score is raised when it cites a range holding the line a pasted
/// trace's innermost frame of the cited code ran ([`rank`]; the file must be exactly one cited
/// file). Chosen on the four fitting trace sets among 0.1, 0.25, 0.5 and 1.
pub const FRAME_BOOST: f64 = 0.5;

/// A ranked node.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Node id.
    pub id: String,
    /// Node kind.
    pub kind: NodeKind,
    /// Final score after propagation.
    pub score: f64,
    /// The node's own BM25F score (all its fields).
    pub own: f64,
    /// Query terms matched by the node's own text (heading, id, body), bit per term.
    pub own_mask: u64,
    /// Query terms matched by the node, its article and what it cites.
    pub mask: u64,
    /// Pairs of neighbouring query words the node's own heading or body holds together.
    pub pair_hits: u32,
    /// Why it ranks (`text`, `cites`, `article`, `reached`), for explanations.
    pub via: Vec<&'static str>,
}

/// One query term as ranking used it.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// The term and the user's word.
    pub query: QueryTerm,
    /// Sections holding it (0: the corpus never uses it).
    pub df: usize,
    /// The known term searched in its place (a spelling correction), if any.
    pub corrected: Option<String>,
    /// The word that correction reads the user's as, when it is known (`verification` for
    /// `verificaton`, whose term is `verif`): what messages show instead of the term.
    pub read_as: Option<String>,
    /// Whether it was searched at all (an unknown compound is not).
    pub searched: bool,
    /// Only around a pasted trace's message (a library frame's name or path, a code line):
    /// searched at [`AROUND_WEIGHT`] ([`super::pasted`]).
    pub around: bool,
    /// The runtime's own message in a pasted trace that says more (a Go runtime error's fixed
    /// words, [`super::pasted::Reading::runtime`]): searched at [`RUNTIME_WEIGHT`], never
    /// corrected, and of no weight to confidence — neither a match nor a missing word, since
    /// the runtime says them of every program.
    pub runtime: bool,
}

/// The ranking of one query.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// Distinct query terms, in query order.
    pub terms: Vec<Term>,
    /// Their idf among sections, same order.
    pub idf: Vec<f64>,
    /// The best scored nodes, best first (ties by id), at most [`MAX_RANKED`].
    pub nodes: Vec<Scored>,
    /// How many nodes scored above zero in all.
    pub matched: usize,
    /// Sections indexed (for normalising scores per workspace).
    pub sections: usize,
    /// Pairs of neighbouring words in the query.
    pub pairs: usize,
    /// The scoring parameters used.
    pub params: Params,
    /// Whether the query was read as a pasted trace ([`super::pasted`]).
    pub trace: bool,
    /// A pasted trace that says nothing of its own (frames alone, no message but perhaps the
    /// runtime's): its frames' words were searched in its place, or around the runtime's
    /// message when it has one.
    pub frames_only: bool,
    /// A pasted trace's innermost frame of the cited code: its path as printed and its line.
    pub frame: Option<(String, u32)>,
}

impl Ranking {
    /// Sections only, best first.
    pub fn sections(&self) -> impl Iterator<Item = &Scored> {
        self.nodes.iter().filter(|s| s.kind == NodeKind::Section)
    }

    /// Each query term as it was searched (the correction of a typo, else the term) with its
    /// idf weight, in query order.
    pub fn searched_terms(&self) -> Vec<(&str, f64)> {
        self.terms
            .iter()
            .zip(&self.idf)
            .map(|(t, w)| (t.corrected.as_deref().unwrap_or(&t.query.term), *w))
            .collect()
    }

    /// Sum of the idf of the terms in `mask`.
    pub fn weight(&self, mask: u64) -> f64 {
        self.idf
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, w)| w)
            .sum()
    }

    /// Sum of the idf of every query term.
    pub fn total_weight(&self) -> f64 {
        self.idf.iter().sum()
    }

    /// The terms the workspace never uses and no correction stood in for, bit per term.
    pub fn unknown_mask(&self) -> u64 {
        self.terms
            .iter()
            .enumerate()
            .filter(|(_, t)| t.df == 0 && t.corrected.is_none())
            .fold(0u64, |m, (i, _)| m | (1 << i))
    }

    /// The user's words of the terms not in `mask`: an identifier none of whose terms is in
    /// `mask` once, as typed (`ParserError`, not `ParserError, Parser, Error`); a word read as
    /// another as the word it was read as (`configuration` for a typed `configuraton`: the
    /// explanation says "read configuraton as configuration" beside it).
    pub fn words_missing(&self, mask: u64) -> Vec<&str> {
        self.words_where(|i, t| mask & (1 << i) == 0 && !t.around && !t.runtime)
    }

    /// The query's words the workspace never uses and no correction stood in for, named as
    /// [`Ranking::words_missing`] names them (an unknown `SQLAlchemy` once, not also `SQL` and
    /// `Alchemy`). Words only around a pasted trace's message are in neither list: they are the
    /// trace's, not the asker's.
    pub fn words_unknown(&self) -> Vec<&str> {
        self.words_where(|_, t| t.df == 0 && t.corrected.is_none() && !t.around && !t.runtime)
    }

    /// Whether the query was read as a pasted trace.
    pub fn read_as_trace(&self) -> bool {
        self.trace
    }

    /// Whether words around a pasted trace's message were searched ([`Term::around`]).
    pub fn searched_around(&self) -> bool {
        self.terms.iter().any(|t| t.around)
    }

    /// Whether the runtime's own message was searched beside what the trace says
    /// ([`Term::runtime`]).
    pub fn searched_runtime(&self) -> bool {
        self.terms.iter().any(|t| t.runtime)
    }

    /// The words of the terms `hit` holds for (by place and term): an identifier as it was
    /// typed when it holds for the identifier's own term or for all of its terms, else each
    /// word.
    /// The hyphenated name typed in the query that `t` is a piece of (as typed: `Transport`
    /// of `Strict-Transport-Security`), when that name's own term is one `hit` holds for.
    fn hyphenated_name_of(&self, t: &Term, hit: &impl Fn(usize, &Term) -> bool) -> Option<&str> {
        if t.query.compound || t.query.within.is_some() {
            return None;
        }
        (self.terms.iter().enumerate())
            .find(|&(j, u)| {
                u.query.compound
                    && u.query.within.is_none()
                    && hyphenated(&u.query.word)
                    && u.query.word.split('-').any(|p| p == t.query.word)
                    && hit(j, u)
            })
            .map(|(_, u)| u.query.word.as_str())
    }

    fn words_where(&self, hit: impl Fn(usize, &Term) -> bool) -> Vec<&str> {
        // The identifier a term belongs to: the one it is a part of, or itself.
        fn group(t: &Term) -> &str {
            t.query.within.as_deref().unwrap_or(&t.query.word)
        }
        let mut out: Vec<&str> = Vec::new();
        for (_, t) in self.terms.iter().enumerate().filter(|(i, t)| hit(*i, t)) {
            if let (None, Some(read)) = (&t.query.within, &t.read_as) {
                if !out.contains(&read.as_str()) {
                    out.push(read);
                }
                continue;
            }
            // A piece of a hyphenated name the list already names (`Strict` of
            // `Strict-Transport-Security`) is that name, as an identifier's parts are: the
            // pieces are terms of their own (`within` is for identifiers), so "unmatched:
            // Strict-Transport-Security, Strict, Transport" named the one thing three times
            // (author walk, stop 54).
            if let Some(name) = self.hyphenated_name_of(t, &hit) {
                if !out.contains(&name) {
                    out.push(name);
                }
                continue;
            }
            let g = group(t);
            let mut members = self.terms.iter().enumerate().filter(|(_, u)| group(u) == g);
            let whole = members
                .clone()
                .any(|(j, u)| u.query.within.is_none() && u.query.compound && hit(j, u))
                || members.all(|(j, u)| hit(j, u));
            let word = if whole { g } else { t.query.word.as_str() };
            if !out.contains(&word) {
                out.push(word);
            }
        }
        out
    }
}

const VIA: [&str; 4] = ["text", "cites", "article", "reached"];
const VIA_TEXT: u8 = 1;
const VIA_CITES: u8 = 2;
const VIA_ARTICLE: u8 = 4;
const VIA_REACHED: u8 = 8;

/// Whether `a` and `b` are at most one edit apart (insert, delete, substitute, or swap two
/// neighbours), counting characters.
fn one_edit(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return one_edit_in(a.as_bytes(), b.as_bytes());
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    one_edit_in(&a, &b)
}

fn one_edit_in<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    let (s, l) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if l.len() - s.len() > 1 {
        return false;
    }
    let p = s.iter().zip(l.iter()).take_while(|(x, y)| x == y).count();
    if s.len() == l.len() {
        if p == s.len() {
            return true;
        }
        // substitution, or a swap of p and p+1
        s[p + 1..] == l[p + 1..]
            || (p + 1 < s.len() && s[p] == l[p + 1] && s[p + 1] == l[p] && s[p + 2..] == l[p + 2..])
    } else {
        s[p..] == l[p + 1..]
    }
}

/// Letters beyond which a word is not read as a typo: no word is that long, and its one-edit
/// variants grow as the square of its length (a pasted 2 000-letter token took 8 s and
/// 340 MB to "correct").
pub const TYPO_MAX: usize = 40;

/// The known term one edit from `term` that most sections use (ties: the first in byte
/// order), never changing its first letter. The candidates are built from `term` and looked up
/// one by one: an edit at character k keeps the k characters before it, so its substitutions
/// and insertions are the characters that follow those k in the index ([`Index::next_chars`]),
/// where a scan of every term with the same first letter (pairs of words included) grows with
/// the workspace.
fn correction(index: &Index, term: &str) -> Option<String> {
    let n = term.chars().count();
    // Letters, or a name in snake case (`raise_for_stauts`, see [`snake_typo`]) or qualified
    // (`z.tupel`, see [`whole_reading`]) or hyphenated (`pre-comit`).
    if !(4..=TYPO_MAX).contains(&n)
        || !term
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, '_' | '.' | ':' | '#' | '-'))
    {
        return None;
    }
    let chars: Vec<char> = term.chars().collect();
    let mut candidates: Vec<String> = Vec::new();
    for k in 1..=n {
        let (before, after) = (&chars[..k], &chars[k..]);
        let prefix: String = before.iter().collect();
        if let Some((_, rest)) = after.split_first() {
            // Deletion at k, and the swap of k and k + 1.
            candidates.push(before.iter().chain(rest).collect());
            if let Some((second, tail)) = rest.split_first() {
                candidates.push(
                    before
                        .iter()
                        .chain([second, &after[0]])
                        .chain(tail)
                        .collect(),
                );
            }
        }
        for c in index.next_chars(&prefix) {
            if c == ' ' {
                // A pair of words, not a word.
                continue;
            }
            if let Some((_, rest)) = after.split_first() {
                candidates.push(before.iter().chain([&c]).chain(rest).collect());
            }
            candidates.push(before.iter().chain([&c]).chain(after).collect());
        }
    }
    most_used(
        index,
        candidates
            .into_iter()
            .filter(|t| t != term && one_edit(t, term)),
    )
}

/// Of `candidates`, the term most sections use (ties: the first in byte order); `None` when no
/// section uses any.
fn most_used(index: &Index, candidates: impl IntoIterator<Item = String>) -> Option<String> {
    candidates
        .into_iter()
        .map(|t| (index.df_sections(&t), t))
        .filter(|(df, _)| *df > 0)
        .max_by(|(a, s), (b, t)| a.cmp(b).then_with(|| t.cmp(s)))
        .map(|(_, t)| t)
}

/// The word a stem-level correction reads `q` as: a word one edit from the typed one whose
/// term is the correction ([`shown_word`]); else the corrected term with the rest of the typed
/// word after its own stem (`varidic` → `varid` → `variad` + `ic`), when that word's term is
/// the correction; `None` otherwise (the correction is then not made).
fn word_for(q: &QueryTerm, corrected: &str) -> Option<String> {
    let typed = q.word.to_lowercase();
    if typed.bytes().all(|c| c.is_ascii_lowercase()) {
        if let Some(w) = shown_word(&one_edit_variants(&typed), corrected) {
            return Some(w);
        }
    }
    let rest = typed.strip_prefix(q.term.as_str())?;
    let word = format!("{corrected}{rest}");
    (super::tokens::word_term(&word).as_deref() == Some(corrected)).then_some(word)
}

/// The known term of a word one edit from `word` as typed (`requierd` → required → `requir`,
/// `descripton` → description → `descript`): a typo that also hides the suffix the stemmer
/// would strip leaves stems further apart than the words. The most used such term; only for a
/// word that is not everyday English (`folder` is not a typo of `older`), never changing the
/// first letter (`watch` is not `match`) nor only the end (`breaker` is not `breaked` →
/// `break`, `socketio` not `socketion` → `socket`: an edit there makes an ending up, where a
/// typo inside the word hides a real one).
fn typed_correction(index: &Index, word: &str) -> Option<(String, String)> {
    let w = word.to_ascii_lowercase();
    if w.len() < TYPED_MIN
        || !w.bytes().all(|c| c.is_ascii_lowercase())
        || super::english::is_common(&w)
    {
        return None;
    }
    let variants = one_edit_variants(&w);
    // Every variant's term: `correction` tried the terms one edit from the typed word's stem,
    // which are not these when the stemmer changes a variant (`directroy` → directory →
    // `directori`) or the typed word (`socre` → `socr`, one edit from no known term, where
    // score is one from socre).
    let mut stems: Vec<String> = variants
        .iter()
        .filter(|v| !edits_the_end(v, &w))
        .filter_map(|v| super::tokens::word_term(v))
        .collect();
    stems.sort_unstable();
    stems.dedup();
    let t = most_used(index, stems)?;
    let shown = shown_word(&variants, &t)?;
    Some((t, shown))
}

/// Whether `v`, one edit from `w`, differs from it only in its last letter or by a letter added
/// after it.
fn edits_the_end(v: &str, w: &str) -> bool {
    let p = v.bytes().zip(w.bytes()).take_while(|(a, b)| a == b).count();
    p + 1 >= w.len()
}

/// The words one edit from the lowercase ASCII `w` (a letter deleted, two swapped, one
/// inserted or replaced), never at its first letter: typos rarely hit it. None for a word
/// longer than [`TYPO_MAX`].
fn one_edit_variants(w: &str) -> Vec<String> {
    let b = w.as_bytes();
    if b.len() > TYPO_MAX {
        return Vec::new();
    }
    let mut variants: Vec<Vec<u8>> = Vec::with_capacity(54 * b.len() + 26);
    for i in 1..b.len() {
        let mut v = b.to_vec();
        v.remove(i);
        variants.push(v);
        if i + 1 < b.len() {
            let mut v = b.to_vec();
            v.swap(i, i + 1);
            variants.push(v);
        }
    }
    for c in b'a'..=b'z' {
        for i in 1..=b.len() {
            let mut v = b.to_vec();
            v.insert(i, c);
            variants.push(v);
            if i < b.len() && b[i] != c {
                let mut v = b.to_vec();
                v[i] = c;
                variants.push(v);
            }
        }
    }
    variants
        .into_iter()
        .filter_map(|v| String::from_utf8(v).ok())
        .collect()
}

/// Of `variants`, the word to show for `term`: one whose term it is, an English word before a
/// non-word (`insensitve` reads as `insensitive`, not `insensite`: both are `insensit`), then
/// the longer (a typo drops letters more often than it adds them), then byte order.
fn shown_word(variants: &[String], term: &str) -> Option<String> {
    variants
        .iter()
        .filter(|v| super::tokens::word_term(v).as_deref() == Some(term))
        .min_by_key(|v| {
            (
                !super::english::is_common(v),
                std::cmp::Reverse(v.len()),
                *v,
            )
        })
        .cloned()
}

/// The long flag of the workspace one edit from the unknown long flag `term` (`--lsit` →
/// `--list`, `--max-filsize` → `--max-filesize`) that most sections use (ties: the first in
/// byte order), never changing the first letter of its name. Only a name of at least four
/// letters: `--nu` is one edit from too many short flags to say which was meant.
fn flag_correction(index: &Index, term: &str) -> Option<String> {
    let name = term.strip_prefix("--")?;
    if name.len() < 4 || !name.bytes().all(|c| c.is_ascii_lowercase() || c == b'-') {
        return None;
    }
    most_used(
        index,
        one_edit_variants(name)
            .into_iter()
            .map(|v| format!("--{v}")),
    )
}

/// The release the version `term` (numbers joined by dots, `v` in front or not) names the
/// series of: the term the workspace holds that begins with it and a dot (`0.23` → `0.23.0`),
/// the one most sections use (ties: the first in byte order).
fn version_in_series(index: &Index, term: &str) -> Option<String> {
    let numbers = term.strip_prefix('v').unwrap_or(term);
    if !numbers.contains('.')
        || !numbers
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    let mut series = Vec::new();
    index.terms_with_prefix(&format!("{term}."), |t, _| {
        series.push(t.to_string());
        true
    });
    most_used(index, series)
}

/// The value of an assignment as typed in code (`months=2`, `max_retries=3`, `verify=False`):
/// one `=` between a name and a value.
fn assigned_value(word: &str) -> Option<&str> {
    let (name, value) = word.split_once('=')?;
    let named = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    (named && !value.is_empty() && !value.contains('=')).then_some(value)
}

/// A memory address as a panic or a debugger prints it (`0x7f3a2c008e10`): the asker's value,
/// which no page holds and none should, so no missing topic (Rust walk on bytes, stop 49:
/// "subset is out of bounds: self = (0x7f3a2c008e10, 64) …" fell to `low`).
fn is_address(word: &str) -> bool {
    word.strip_prefix("0x")
        .is_some_and(|hex| hex.len() >= 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The numbers of an address, a date or a decimal (`127.0.0.1`, `2021-13-01`): a word of
/// digits and `.-:/` with more than one number; those of an assignment's value (`months=2`);
/// the pieces of a timestamp or a UUID ([`is_timestamp`], [`is_uuid`]: `2024`, `05`, `01T10`
/// of `2024-05-01T10:00:00`, which the TypeScript walk saw counted as three missing topic
/// words); none for any other word.
fn value_numbers<'w>(word: &'w str) -> Vec<&'w str> {
    let digits = |s: &'w str| -> Vec<&'w str> {
        s.split(|c: char| !c.is_ascii_digit())
            .filter(|p| !p.is_empty())
            .collect()
    };
    if let Some(value) = assigned_value(word) {
        return digits(value);
    }
    let numbers = digits(word);
    let value = numbers.len() > 1
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || ".-:/".contains(c));
    if value {
        numbers
    } else if is_timestamp(word) || is_uuid(word) {
        // Its pieces as the tokenizer splits them (`01T10` of `2024-05-01T10:00:00`).
        word.split(|c: char| !c.is_alphanumeric())
            .filter(|p| !p.is_empty())
            .collect()
    } else {
        Vec::new()
    }
}

/// Whether `word` is a date and a time as ISO 8601 writes them (`2024-05-01T10:00:00`,
/// `2024-05-01T10:00:00.5Z`; an offset after `+` is a word of its own): numbers joined by
/// `-` before a `T` and by `:` or `.` after it.
fn is_timestamp(word: &str) -> bool {
    let w = word.strip_suffix(['Z', 'z']).unwrap_or(word);
    let Some((date, time)) = w.split_once(['T', 't']) else {
        return false;
    };
    let numbers = |s: &str, joins: &str| {
        s.starts_with(|c: char| c.is_ascii_digit())
            && s.ends_with(|c: char| c.is_ascii_digit())
            && s.chars().all(|c| c.is_ascii_digit() || joins.contains(c))
    };
    numbers(date, "-/") && date.contains(['-', '/']) && numbers(time, ":.")
}

/// Whether `word` is a UUID (`123e4567-e89b-12d3-a456-426614174000`): five groups of 8, 4, 4,
/// 4 and 12 hex digits.
fn is_uuid(word: &str) -> bool {
    let groups: Vec<&str> = word.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `word` is an id in hex (a commit `3f2a9c1`, a digest): seven hex digits or more,
/// with a digit and a letter among them (all digits is a number, all letters may be a word:
/// `deadbeef`, `facade`).
fn is_hex_id(word: &str) -> bool {
    word.len() >= 7
        && word.bytes().all(|b| b.is_ascii_hexdigit())
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_alphabetic())
}

/// An unknown word read as one whole term of the workspace, with its weight in the search and
/// whether its own words are then left out: a name in camel case or a qualified name the pages
/// write one edit away (`DictLoadr` for `DictLoader`, `z.tupel` for `z.tuple`: that name, whose
/// term no stem shortens, alone); a release by
/// its series (`0.23` for `0.23.0`: the same release, at full weight); a long flag one edit
/// from one the pages document (`--lsit` for `--list`: its words searched too, as a flag's are
/// when typed right).
fn whole_reading(
    index: &Index,
    q: &QueryTerm,
    documents_flags: bool,
) -> Option<(String, f64, bool)> {
    // A qualified name reaches here unknown only as a member the workspace lacks (see
    // `lacks_the_member`): one edit from a name it writes (`z.tupel`), it is that name.
    let qualifier = qualifier_of_a_word(&q.word).map(str::to_lowercase);
    // A hyphenated name one edit from one the pages write (`pre-comit`) is that name too.
    if camel_case(&q.word) || qualifier.is_some() || hyphenated(&q.word) {
        // Under the same qualifier, a plain word again: `ZodObject.parse` is not the private
        // `ZodObject._parse` the pages cite.
        let same_kind = |c: &String| {
            qualifier.is_none() || qualifier_of_a_word(c).map(str::to_lowercase) == qualifier
        };
        if let Some(c) = correction(index, &q.term).filter(same_kind) {
            return Some((c, FUZZY_WEIGHT, true));
        }
    }
    if let Some(c) = version_in_series(index, &q.term) {
        return Some((c, 1.0, false));
    }
    documents_flags
        .then(|| flag_correction(index, &q.term))
        .flatten()
        .map(|c| (c, FUZZY_WEIGHT, false))
}

/// The name in snake case one edit from the unknown `q` that the pages write whole, when one
/// of `q`'s words is a typo (`raise_for_stauts` is `raise_for_status`; httpx MCP walk, stop
/// 44: its words were searched apart, and "stauts" was read as the more common "starts").
/// A name whose words are all known is the asker's own and is searched by its words.
fn snake_typo(index: &Index, q: &QueryTerm, all: &[QueryTerm]) -> Option<String> {
    let parts = q.word.split('_').filter(|p| !p.is_empty()).count();
    let snake = parts >= 2 && q.word.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_');
    let typo = all
        .iter()
        .any(|t| t.within.as_deref() == Some(q.word.as_str()) && index.df(&t.term) == 0);
    (snake && typo)
        .then(|| correction(index, &q.term))
        .flatten()
}

/// Searched words (a compound counted once) up to which a question is about the names in it.
pub const ABOUT_NAMES: usize = 3;

/// Letters a word needs before `typed_correction` tries it.
pub const TYPED_MIN: usize = 5;

/// A workspace with at least this many distinct long flags documents a command line.
pub const FLAG_WORKSPACE: usize = 10;

/// Whether `word` is one name written in camel case (`FooBar`, `remoteAddress`, `SQLAlchemy`:
/// letters and digits, a capital after a small letter or starting a word after capitals).
fn camel_case(word: &str) -> bool {
    let b = word.as_bytes();
    b.iter().all(u8::is_ascii_alphanumeric)
        && (b
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            || b.windows(3).any(|w| {
                w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase() && w[2].is_ascii_lowercase()
            }))
}

/// The last part of a qualified name (`get_jobs` of `Scheduler.get_jobs`, `new` of
/// `Store::new`), when `word` is one.
fn own_name(word: &str) -> Option<&str> {
    let last = word.rsplit(['.', ':']).next()?;
    (last.len() < word.len() && !last.is_empty()).then_some(last)
}

/// The qualifier of `word` when it is a qualified name whose own name is one plain word (`z.`
/// of `z.map`, `ZodObject.` of `ZodObject.parse`, `std::fs::` of `std::fs::read`): segments
/// joined by `.`, `::` or `#`, each starting with a letter or `_`, the own name letters only,
/// at least two of them. The qualifier keeps its separator, as the index's compound terms spell
/// it. (A name in camel or snake case is a name of its own: see `lacks_its_name`; `match:bg`
/// and `host:port` are no qualified names.)
fn qualifier_of_a_word(word: &str) -> Option<&str> {
    if word.contains(['/', '=']) || word.replace("::", "").contains(':') {
        return None;
    }
    let cut = word.rfind(['.', ':', '#'])?;
    let (qualifier, own) = (&word[..=cut], &word[cut + 1..]);
    let mut segments = qualifier.split(['.', ':', '#']).filter(|s| !s.is_empty());
    let named = segments
        .clone()
        .all(|s| s.starts_with(|c: char| c.is_alphabetic() || c == '_'));
    (segments.next().is_some()
        && named
        && own.len() >= 2
        && own.chars().all(|c| c.is_ascii_alphabetic())
        && !camel_case(own))
    .then_some(qualifier)
}

/// Whether the workspace writes a qualified name under `qualifier` (`z.` for `z.object`): one
/// look-up among the sorted terms.
fn documents_under(index: &Index, qualifier: &str) -> bool {
    let mut any = false;
    index.terms_with_prefix(&qualifier.to_lowercase(), |_, _| {
        any = true;
        false
    });
    any
}

/// Whether `word` is one name written in snake case (`get_jobs`, `clear_all_jobs`): letters
/// and digits in two or more parts joined by single underscores.
fn snake_case(word: &str) -> bool {
    let parts: Vec<&str> = word.split('_').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_alphanumeric()))
        && word.bytes().any(|c| c.is_ascii_alphabetic())
}

/// How many words a query's terms were typed as: a compound and each of its own words are
/// one (`strict=True` is one word, though `strict` and `true`, split at `=`, are no identifier
/// within it).
fn typed_words(terms: &[QueryTerm]) -> usize {
    let piece_of_compound = |t: &QueryTerm| {
        !t.compound
            && terms.iter().any(|c| {
                c.compound
                    && c.word
                        .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
                        .any(|p| p == t.word)
            })
    };
    terms
        .iter()
        .filter(|t| t.within.is_none() && !piece_of_compound(t))
        .count()
}

/// Whether `word` is words joined by hyphens (`Retry-After`, `keep-alive`,
/// `Strict-Transport-Security`): two or more pieces of ASCII letters, one hyphen between each
/// two. (Flags start with a dash; dates, ranges and `utf-8` have digits.)
fn hyphenated(word: &str) -> bool {
    word.contains('-')
        && word
            .split('-')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// Whether the pages write the hyphenated compound `q` another way: its pieces joined
/// (`readonly` for "read-only", `subcommand` for "sub-command"), or, when every piece is a
/// word of its own, each next to the following one (the index's pairs: "command line" for
/// "command-line", "max filesize" of `--max-filesize` for "max-filesize"). A piece that is a
/// stopword or one letter (`After` of `Retry-After`, `X` of `X-Forwarded-For`) has no term to
/// pair: such a compound is known only as written or joined. Searched by its words alone, a
/// header the workspace never names read as "retry" and matched 100% (agent walk, stop 54).
fn hyphenated_written_apart(index: &Index, q: &QueryTerm) -> bool {
    let pieces: Vec<&str> = q.word.split('-').collect();
    let joined = pieces.concat().to_lowercase();
    if index.df(&joined) > 0 || super::tokens::word_term(&joined).is_some_and(|t| index.df(&t) > 0)
    {
        return true;
    }
    let words: Option<Vec<String>> = pieces.iter().map(|p| super::tokens::word_term(p)).collect();
    words.is_some_and(|w| {
        w.windows(2)
            .all(|w| index.df(&super::index::bigram(&w[0], &w[1])) > 0)
    })
}

/// Whether the words of the camel-case name `q` stand together in the workspace, each next
/// to the following one (the index's pairs): the pages write the same name another way
/// (`max_retries` for `maxRetries`, `WalkState::Skip` for `WalkState`), so it is searched by
/// its words as any other compound. A hyphenated compound: [`hyphenated_written_apart`].
fn words_stand_together(index: &Index, q: &QueryTerm, all: &[QueryTerm]) -> bool {
    if hyphenated(&q.word) {
        return hyphenated_written_apart(index, q);
    }
    let parts: Vec<&str> = all
        .iter()
        .filter(|t| t.within.as_deref() == Some(q.word.as_str()))
        .map(|t| t.term.as_str())
        .collect();
    (camel_case(&q.word) || snake_case(&q.word))
        && parts.len() >= 2
        && parts
            .windows(2)
            .all(|w| index.df(&super::index::bigram(w[0], w[1])) > 0)
}

/// Whether an unknown compound says nothing its words do not: true unless it is a short flag
/// (`-k`: no words), a long flag in a workspace that documents flags, a name in camel case
/// (`NestedCache`, `SQLAlchemy`: one thing, which the workspace does not name; but see
/// [`words_stand_together`]), words joined by hyphens each capitalized (`Retry-After`: [`hyphenated`]; the same) or any in a question about names, a short compound with a lone digit that no term carries
/// (`HTTP/2`, `2.7`, `3.12`: versions are what the question is about), or a version of numbers
/// only (`1.3.0`). An assignment (`months=2`) is its name's words and the asker's value.
fn spelled_by_its_words(q: &QueryTerm, documents_flags: bool, about_names: bool) -> bool {
    if q.term.starts_with('-') && (documents_flags || !q.term.starts_with("--")) {
        return false;
    }
    // `months=2`: the name is the topic, the value the asker's own (so no version rule).
    if assigned_value(&q.word).is_some() {
        return true;
    }
    // Words joined by hyphens are a name when each is capitalized, as header names are
    // (`Retry-After`, `X-Forwarded-For`), or when the question is about names; in a longer
    // question a lowercase one is as often the asker's adjective (`git-style`, `self-signed`,
    // `sub-package`: measured, counting those as missing cost four false alarms, stop 54).
    let hyphen_name = hyphenated(&q.word)
        && (about_names
            || q.word
                .split('-')
                .all(|p| p.starts_with(|c: char| c.is_ascii_uppercase())));
    if camel_case(&q.word) || (about_names && snake_case(&q.word)) || hyphen_name {
        return false;
    }
    let pieces: Vec<&str> = q
        .word
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let lone_digit = pieces
        .iter()
        .any(|p| p.len() == 1 && p.chars().all(|c| c.is_ascii_digit()));
    // A version (`1.3.0`, `v2.28.0`): numbers joined by dots, its pieces no words at all.
    // (Dates, ranges and addresses, `2021-13-01`, `10-20`, `127.0.0.1`, and quoted numbers
    // are the asker's own values, which pages quote with others.)
    let numbers = q.word.strip_prefix('v').unwrap_or(&q.word);
    let version = !q.quoted
        && (2..=3).contains(&pieces.len())
        && numbers
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    !(pieces.len() <= 2 && lone_digit || version)
}

/// The terms of `query` as ranking uses them, and what to search for each.
pub fn analyze(index: &Index, query: &str) -> (Vec<Term>, Vec<(String, f64)>) {
    let (terms, search, _) = analyze_read(index, query, read_trace(index, query).as_ref());
    (terms, search)
}

/// `query` read as a pasted trace ([`pasted::read_citing`]), the frames of code the workspace
/// does not cite read as the runtime's. What it cites is read from the index only when a
/// library frame asks.
fn read_trace(index: &Index, query: &str) -> Option<pasted::Reading> {
    let cited = std::cell::OnceCell::new();
    pasted::read_citing(query, &|code| {
        cited
            .get_or_init(|| super::cited_code::CitedCode::of(index))
            .holds(code)
    })
}

/// [`analyze`] with the query's reading as a pasted trace already made (`trace`, if it is one),
/// and whether that trace says nothing of its own ([`Ranking::frames_only`]).
fn analyze_read(
    index: &Index,
    query: &str,
    trace: Option<&pasted::Reading>,
) -> (Vec<Term>, Vec<(String, f64)>, bool) {
    let mut terms = Vec::new();
    let mut search = Vec::new();
    // In a workspace that documents command-line flags, a flag it never mentions is a topic it
    // does not cover (`--hyperlink`), not a paraphrase.
    let mut flags = 0;
    index.terms_with_prefix("--", |t, _| {
        flags += usize::from(t != super::tokens::BARE_DASHES);
        flags < FLAG_WORKSPACE
    });
    let documents_flags = flags == FLAG_WORKSPACE;
    // A pasted trace: its message's terms first, so a long trace's frames never crowd it out
    // of the terms a query keeps; the words only around it follow. (All of it when it says
    // nothing of its own.) The runtime's own message comes last.
    let mut frames_only = false;
    // The terms of the code lines printed under frames: the rest around a message is names
    // the program printed.
    let code: Vec<String> = trace
        .map(|r| query_terms(&r.code).into_iter().map(|q| q.term).collect())
        .unwrap_or_default();
    let (all, said, around_end) = match trace {
        Some(r) => {
            let mut all = query_terms(&r.said);
            let said = all.len();
            frames_only = said == 0;
            let add = |text: &str, all: &mut Vec<QueryTerm>| {
                for q in query_terms(text) {
                    if all.len() < super::tokens::MAX_QUERY_TERMS
                        && !all.iter().any(|a| a.term == q.term)
                    {
                        all.push(q);
                    }
                }
            };
            add(&r.around, &mut all);
            // With the runtime's message beside them, the frames stay around it.
            let said = if said == 0 && r.runtime.is_empty() {
                all.len()
            } else {
                said
            };
            let around_end = all.len();
            add(&r.runtime, &mut all);
            (all, said, around_end)
        }
        None => {
            let all = query_terms(query);
            let said = all.len();
            (all, said, said)
        }
    };
    // A question of a few words is about the names in it; in a longer one a name in snake
    // case is as often the asker's own variable (`arrow_obj`, `end_date`).
    let about_names = typed_words(&all[..said]) <= ABOUT_NAMES;
    // Names read as another name whole: their words are not searched on their own.
    let mut read_whole: Vec<String> = Vec::new();
    let mut numbers: Vec<String> = Vec::new();
    // The typo words of a snake-case name read whole: (typed term, term, word).
    let mut part_fixes: Vec<(String, String, String)> = Vec::new();
    for (i, q) in all.iter().cloned().enumerate() {
        let around = i >= said && i < around_end;
        let runtime = i >= around_end;
        // In a pasted trace a quoted value and a part of a name in its message are printed by
        // the program, not typed: the asker's value or class (`Instant` of
        // `java.time.Instant`, `Audit` of `AuditEvent`, a JSON value `"plan"`), which a
        // correction would read as some other word. So is every part of a library frame's name
        // (`Next` of `_eofAsNextChar`, `catch` of `poll_catch`, read as "nest" and "cached");
        // a code line printed under a frame is source a person wrote, and stays corrected (its
        // `expires_at` propped a right answer in arrow's trace set, stop 52).
        let printed = trace.is_some() && printed_name(&q) && (!around || !code.contains(&q.term));
        if q.within.as_ref().is_some_and(|w| read_whole.contains(w)) {
            continue;
        }
        let df = index.df_sections(&q.term);
        let known = index.df(&q.term) > 0;
        let snake = (!known && !runtime && q.compound)
            .then(|| snake_typo(index, &q, &all))
            .flatten();
        // `Scheduler.get_jobs`: a qualified name whose own name the workspace lacks.
        let lacks_its_name = about_names
            && own_name(&q.word).is_some_and(|n| {
                (snake_case(n) || camel_case(n)) && index.df(&n.to_lowercase()) == 0
            });
        // `z.map`, `ZodObject.parse`: a short question naming a member the workspace does not
        // document under a qualifier it documents others under (`z.object`, `ZodObject.extend`)
        // is about a name it lacks. Searched by its words alone it matched 100% wherever they
        // are parts of other names (`z.setErrorMap` for "z.map"; zod walk, stop 53).
        let lacks_the_member = about_names
            && !around
            && qualifier_of_a_word(&q.word)
                .is_some_and(|qualifier| documents_under(index, qualifier));
        if !known
            && snake.is_none()
            && q.compound
            && ((spelled_by_its_words(&q, documents_flags, about_names)
                && !lacks_its_name
                && !lacks_the_member)
                || words_stand_together(index, &q, &all))
        {
            // `trust_env=False`, `requests.post`, `--proxy`: its words are terms of their own.
            // An address, a date, a timestamp or a UUID (`127.0.0.1`, `2021-13-01`,
            // `2024-05-01T10:00:00`) is the asker's value: its pieces are searched, but one the
            // pages do not hold is no missing topic; nor is a memory address or an id in hex.
            numbers.extend(value_numbers(&q.word).into_iter().map(str::to_string));
            continue;
        }
        if !q.compound
            && df == 0
            && (numbers.contains(&q.word) || is_address(&q.word) || is_hex_id(&q.word))
        {
            continue;
        }
        // The runtime's words are printed, not typed: searched as they are.
        let (searched, corrected, s) = if known || runtime {
            (true, None, (q.term.clone(), 1.0))
        } else if let Some(c) = snake {
            // Its words are searched too, as a name typed right is, each typo as the word it
            // stands for in the name read.
            let typed = q.word.to_ascii_lowercase();
            let (was, now): (Vec<&str>, Vec<&str>) =
                (typed.split('_').collect(), c.split('_').collect());
            if was.len() == now.len() {
                for (w, n) in was.into_iter().zip(now).filter(|(w, n)| w != n) {
                    if let (Some(wt), Some(nt)) =
                        (super::tokens::word_term(w), super::tokens::word_term(n))
                    {
                        part_fixes.push((wt, nt, n.to_string()));
                    }
                }
            }
            (true, Some((c.clone(), Some(c.clone()))), (c, FUZZY_WEIGHT))
        } else if let Some((_, term, word)) =
            (q.within.as_ref()).and_then(|_| part_fixes.iter().find(|(w, _, _)| *w == q.term))
        {
            (
                true,
                Some((term.clone(), Some(word.clone()))),
                (term.clone(), FUZZY_WEIGHT),
            )
        } else if let Some((c, weight, alone)) = whole_reading(index, &q, documents_flags) {
            if alone {
                read_whole.push(q.word.clone());
            }
            (true, Some((c.clone(), Some(c.clone()))), (c, weight))
        } else if q.compound {
            (false, None, (String::new(), 0.0))
        } else if let Some(c) = correction(index, &q.term)
            .filter(|_| !printed)
            .map(|t| {
                let word = word_for(&q, &t);
                (t, word)
            })
            // A correction no word of the typed one's spelling leads to (`pickle` read as the
            // stem `pickli`) is a near spelling of some token, not what was meant; the word
            // stays unknown, and no message shows a stem.
            .filter(|(_, w)| w.is_some())
            .or_else(|| {
                typed_correction(index, &q.word)
                    .filter(|_| !printed)
                    .map(|(t, w)| (t, Some(w)))
            })
        {
            (true, Some(c.clone()), (c.0, FUZZY_WEIGHT))
        } else {
            (true, None, (q.term.clone(), 1.0))
        };
        search.push(s);
        let (corrected, read_as) = corrected.unzip();
        terms.push(Term {
            query: q,
            df,
            corrected,
            read_as: read_as.flatten(),
            searched,
            around,
            runtime,
        });
    }
    (terms, search, frames_only)
}

/// Whether a query word is a value or a name as a program prints it: quoted, or a part of a
/// compound name. (Not every capitalised word: a message's first word is one.)
fn printed_name(q: &QueryTerm) -> bool {
    q.quoted || q.within.is_some()
}

/// The pairs of neighbouring words of a query, as the index holds them; a word read as a
/// correction pairs as the word it was read as (`varidic option` pairs as `variadic option`).
fn query_pairs(query: &str, terms: &[Term]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Seen pairs by hash: a `contains` on `out` made a question of 40 000 distinct words take
    // 3.5 s (MCP-TS walk, `repro-quadratic.sh`); the order of `out` is kept.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut prev: Option<String> = None;
    super::tokens::for_each_token(query, |t, _, whole| {
        let t = match terms.iter().find(|x| x.query.term == t) {
            Some(Term {
                corrected: Some(c), ..
            }) => c.clone(),
            _ => t,
        };
        if !whole {
            if let Some(p) = prev.replace(t.clone()) {
                let b = super::index::bigram(&p, &t);
                if seen.insert(b.clone()) {
                    out.push(b);
                }
            }
        }
    });
    out
}

/// Ranks the nodes of `graph` for `query` with the shipped parameters.
pub fn rank(graph: &Graph, index: &Index, query: &str) -> Ranking {
    let mut ranking = rank_with(index, query, &Params::default());
    // A pasted trace's innermost frame of the cited code ran in the lines some sections cite:
    // their scores are raised by FRAME_BOOST (docs/evidence.md, stop 53).
    if let Some((path, line)) = ranking.frame.clone() {
        let citing = sections_citing_line(graph, &path, line);
        if !citing.is_empty() {
            for n in ranking.nodes.iter_mut().filter(|n| citing.contains(&n.id)) {
                n.score *= 1.0 + FRAME_BOOST;
            }
            ranking
                .nodes
                .sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.id.cmp(&b.id)));
        }
    }
    ranking
}

/// The sections citing a range that holds `line` of the cited file an installed `path` is
/// (a trace frame's, [`super::cited_code::installed_paths`]), when it is exactly one.
fn sections_citing_line(graph: &Graph, path: &str, line: u32) -> Vec<String> {
    use ontoly_graph::graph::model::EdgeKind;
    let line = u64::from(line);
    let files = super::cited_code::installed_paths(path)
        .into_iter()
        .map(|p| {
            let tail = format!("/{p}");
            graph
                .nodes_of(NodeKind::File)
                .filter(|n| {
                    crate::walk::source_path(n).is_some_and(|s| s == p || s.ends_with(&tail))
                })
                .collect::<Vec<_>>()
        })
        .find(|files| !files.is_empty())
        .unwrap_or_default();
    let [file] = files.as_slice() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for e in graph.in_edges(&file.id, Some(EdgeKind::InFile)) {
        let Some(range) = graph.node(&e.from) else {
            continue;
        };
        if !range
            .span
            .as_ref()
            .is_some_and(|s| s.start_line <= line && line <= s.end_line)
        {
            continue;
        }
        for c in graph.in_edges(&range.id, Some(EdgeKind::Cites)) {
            if !out.iter().any(|o| o == c.from.as_str()) {
                out.push(c.from.to_string());
            }
        }
    }
    out.sort();
    out
}

/// Ranks with explicit parameters (for fitting them on a question set).
pub fn rank_with(index: &Index, query: &str, p: &Params) -> Ranking {
    let trace = read_trace(index, query);
    let (terms, mut search, frames_only) = analyze_read(index, query, trace.as_ref());
    // A pasted message's quoted values are the user's (`'--json'`); the words around them are
    // the message's, which a page quotes with other values.
    let context = terms
        .iter()
        .filter(|t| !t.query.quoted && !t.around && !t.runtime)
        .count();
    let weight = |t: &Term| {
        if t.runtime {
            RUNTIME_WEIGHT
        } else if t.around {
            AROUND_WEIGHT
        } else if t.query.quoted && context >= QUOTED_CONTEXT {
            QUOTED_WEIGHT
        } else {
            1.0
        }
    };
    for (t, s) in terms.iter().zip(search.iter_mut()) {
        s.1 *= weight(t);
    }
    // Confidence weighs each term by its idf; the runtime's words weigh nothing there.
    let idf: Vec<f64> = terms
        .iter()
        .map(|t| {
            if t.runtime {
                return 0.0;
            }
            weight(t)
                * match &t.corrected {
                    Some(c) => FUZZY_WEIGHT * index.idf(c),
                    None => index.idf(&t.query.term),
                }
        })
        .collect();
    // A trace's pairs are its message's: neighbouring words across frames are no phrase.
    let said = trace.as_ref().map_or(query, |r| r.said.as_str());
    let pairs = query_pairs(said, &terms);
    // Sections that cannot be among the PROPAGATE_TOP best are counted, not scored.
    let dense = index.search_best(&search, &pairs, p, PROPAGATE_TOP);
    // Candidates as (doc, score, reached) without allocating; only the best become `Scored`.
    let sections: Vec<(u32, f64)> = dense
        .iter()
        .filter(|&(_, kind, s)| kind == NodeKind::Section && s > 0.0)
        .map(|(d, _, s)| (d, s))
        .collect();
    let matched_sections = sections.len() + dense.unscored();
    // Only the best PROPAGATE_TOP sections pass scores on, and the MAX_RANKED best of all can
    // only be among them (MAX_RANKED < PROPAGATE_TOP): the others are counted, not carried.
    let (sections, others) = score_others(index, &dense, sections);
    let matched = matched_sections + others.len();
    let mut all: Vec<Candidate> = sections.iter().map(|&(d, s)| (d, s, false)).collect();
    all.extend(others);
    // Docs are in id order, so the doc index is the id tie-break.
    let cmp = |a: &Candidate, b: &Candidate| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0));
    if all.len() > MAX_RANKED {
        all.select_nth_unstable_by(MAX_RANKED, cmp);
        all.truncate(MAX_RANKED);
    }
    all.sort_by(cmp);
    let nodes = all
        .into_iter()
        .map(|(d, s, reached)| scored(index, &dense, d, s, reached))
        .collect();
    Ranking {
        terms,
        idf,
        nodes,
        matched,
        sections: index.sections(),
        pairs: pairs.len(),
        params: *p,
        frames_only,
        frame: trace.as_ref().and_then(|r| r.innermost.clone()),
        trace: trace.is_some(),
    }
}

fn scored(index: &Index, dense: &Dense, d: u32, score: f64, reached: bool) -> Scored {
    let hit = dense.hit(d);
    let mut via = 0u8;
    if hit.own != 0 {
        via |= VIA_TEXT;
    }
    if hit.code != 0 {
        via |= VIA_CITES;
    }
    if hit.art != 0 {
        via |= VIA_ARTICLE;
    }
    if reached {
        via |= VIA_REACHED;
    }
    Scored {
        // A doc whose record does not read (a corrupt block marks the index) names nothing.
        id: index.doc_id(d).unwrap_or_default(),
        kind: index.kind(d).unwrap_or(NodeKind::Section),
        score,
        own: hit.score,
        own_mask: hit.own,
        mask: hit.mask(),
        pair_hits: u32::from(hit.pair_hits),
        via: (0..4)
            .filter(|i| via & (1 << i) != 0)
            .map(|i| VIA[i])
            .collect(),
    }
}

/// A ranked doc before it is [`Scored`]: doc, score, reached by propagation.
type Candidate = (u32, f64, bool);

/// Files, symbols and articles: their own score, plus what the strongest sections pass down
/// (`REACHED_WEIGHT` of the best linked section's score); `(doc, score, reached)`. Returns
/// those strongest sections too (the best [`PROPAGATE_TOP`] of `top`, in no order).
fn score_others(
    index: &Index,
    dense: &Dense,
    mut top: Vec<(u32, f64)>,
) -> (Vec<(u32, f64)>, Vec<Candidate>) {
    let best_first =
        |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0));
    if top.len() > PROPAGATE_TOP {
        top.select_nth_unstable_by(PROPAGATE_TOP, best_first);
        top.truncate(PROPAGATE_TOP);
    }
    let mut reached: Vec<(u32, f64)> = Vec::new();
    for (d, s) in &top {
        reached.extend(index.links(*d).iter().map(|&t| (t, *s)));
    }
    // Best first per doc, then one entry per doc.
    reached.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.total_cmp(&a.1)));
    reached.dedup_by_key(|x| x.0);
    let mut own: Vec<(u32, f64)> = dense
        .iter()
        .filter(|&(_, kind, _)| kind != NodeKind::Section)
        .map(|(d, _, s)| (d, s))
        .collect();
    if own.len() > PROPAGATE_TOP {
        own.select_nth_unstable_by(PROPAGATE_TOP, best_first);
        own.truncate(PROPAGATE_TOP);
    }
    own.sort_unstable_by_key(|x| x.0);
    // Merge the two lists, both in doc order.
    let mut out = Vec::with_capacity(own.len() + reached.len());
    let (mut i, mut j) = (0, 0);
    loop {
        match (own.get(i), reached.get(j)) {
            (Some(&(d, s)), Some(&(e, best))) if d == e => {
                out.push((d, s + REACHED_WEIGHT * best, true));
                i += 1;
                j += 1;
            }
            (Some(&(d, s)), Some(&(e, _))) if d < e => {
                out.push((d, s, false));
                i += 1;
            }
            (Some(&(d, s)), None) => {
                out.push((d, s, false));
                i += 1;
            }
            (_, Some(&(e, best))) => {
                out.push((e, dense.score(e) + REACHED_WEIGHT * best, true));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out.retain(|x| x.1 > 0.0);
    (top, out)
}

#[cfg(test)]
mod tests {
    use super::{
        analyze, camel_case, correction, hyphenated, is_hex_id, is_timestamp, is_uuid, one_edit,
        one_edit_variants, qualifier_of_a_word, shown_word, spelled_by_its_words, value_numbers,
        word_for, TYPO_MAX,
    };
    use crate::retrieval::index::Index;
    use crate::retrieval::tokens::{query_terms, QueryTerm};

    /// The correction as it was first written: a scan of every term with the word's first
    /// letter.
    fn correction_by_scan(index: &Index, term: &str) -> Option<String> {
        let n = term.chars().count();
        if !(4..=TYPO_MAX).contains(&n) || !term.chars().all(char::is_alphabetic) {
            return None;
        }
        let first: String = term.chars().take(1).collect();
        let mut best: Option<(String, usize)> = None;
        index.terms_with_prefix(&first, |t, df| {
            if !t.contains(' ')
                && t != term
                && one_edit(t, term)
                && df > 0
                && best.as_ref().is_none_or(|(_, b)| df > *b)
            {
                best = Some((t.to_string(), df));
            }
            true
        });
        best.map(|(t, _)| t)
    }

    /// The search index of a corpus workspace under testdata/, built without a cache.
    fn corpus_index(name: &str) -> Index {
        let ws = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../testdata/corpora")
            .join(name)
            .join("ws");
        let session = ontoly_graph::Session::open(
            ontoly_graph::SessionOptions::new(&ws)
                .workspace(&ws)
                .cache(ontoly_graph::CachePolicy::Off),
        )
        .expect("the workspace opens");
        Index::open(&session).expect("the index builds")
    }

    #[test]
    fn corrections_by_lookup_are_the_scans() {
        let index = corpus_index("jinja");
        // Every kind of edit at every place of a sample of the index's own words, and words
        // it does not have.
        let mut words: Vec<String> = Vec::new();
        index.terms_with_prefix("", |t, _| {
            words.push(t.to_string());
            true
        });
        let words: Vec<String> = words
            .into_iter()
            .filter(|w| !w.contains(' ') && w.chars().all(char::is_alphabetic))
            .step_by(7)
            .collect();
        let mut typos: Vec<String> = vec!["zzzzzz".into(), "qqqq".into(), "ünïcödé".into()];
        for w in &words {
            let c: Vec<char> = w.chars().collect();
            for k in 1..c.len() {
                let mut v = c.clone();
                v.remove(k);
                typos.push(v.iter().collect());
                let mut v = c.clone();
                v[k] = if v[k] == 'e' { 'a' } else { 'e' };
                typos.push(v.iter().collect());
                let mut v = c.clone();
                v.insert(k, 'r');
                typos.push(v.iter().collect());
                if k + 1 < c.len() {
                    let mut v = c.clone();
                    v.swap(k, k + 1);
                    typos.push(v.iter().collect());
                }
            }
        }
        let mut corrected = 0;
        for t in typos.iter().filter(|t| index.df(t) == 0) {
            let by_scan = correction_by_scan(&index, t);
            assert_eq!(correction(&index, t), by_scan, "{t}");
            corrected += usize::from(by_scan.is_some());
        }
        assert!(corrected > 500, "{corrected} typos corrected");
    }

    #[test]
    fn a_correction_is_shown_as_a_word_not_a_stem() {
        // `insensitive` and `insensite` both stem to `insensit`: the English word is shown.
        assert_eq!(
            shown_word(&one_edit_variants("insensitve"), "insensit").as_deref(),
            Some("insensitive")
        );
        assert_eq!(
            shown_word(&one_edit_variants("verificaton"), "verif").as_deref(),
            Some("verification")
        );
        let typed = |word: &str, term: &str| QueryTerm {
            term: term.into(),
            word: word.into(),
            compound: false,
            quoted: false,
            within: None,
        };
        // One edit from the typed word, whatever its stem did.
        assert_eq!(
            word_for(&typed("Insensitve", "insensitv"), "insensit").as_deref(),
            Some("insensitive")
        );
        // Two edits away, the typed word's own ending after the corrected stem.
        assert_eq!(
            word_for(&typed("varidic", "varid"), "variad").as_deref(),
            Some("variadic")
        );
        // Nothing that reads back as the term: no word, and the message shows the term.
        assert_eq!(word_for(&typed("runnings", "run"), "walk"), None);
    }

    #[test]
    fn a_word_longer_than_any_typo_has_no_variants() {
        // About 53 variants of its length per letter: a pasted 2 000-letter token made 106 000
        // strings of 2 000 bytes (8 s, 340 MB) before this bound.
        let n = super::TYPO_MAX;
        // Deletions and swaps after the first letter, insertions, replacements by another.
        assert_eq!(
            one_edit_variants(&"y".repeat(n)).len(),
            (n - 1) + (n - 2) + 26 * n + 25 * (n - 1)
        );
        assert!(one_edit_variants(&"y".repeat(super::TYPO_MAX + 1)).is_empty());
    }

    #[test]
    fn a_version_is_a_term_of_its_own_and_other_numbers_are_their_words() {
        let compound = |q: &str| {
            let terms = query_terms(q);
            let t = terms
                .iter()
                .find(|t| t.compound)
                .unwrap_or_else(|| panic!("{q}: no compound in {terms:?}"));
            spelled_by_its_words(t, false, false)
        };
        for q in [
            "what is new in 1.3.0",
            "v2.28.0",
            "python 2.7",
            "HTTP/2 support",
        ] {
            assert!(!compound(q), "{q}");
        }
        for q in [
            "2021-13-01 does not match",
            "shows 127.0.0.1 as remoteAddress",
            "--line-ranges 10-20",
            "arrow.get(Decimal('1367992474.293378'))",
        ] {
            assert!(compound(q), "{q}");
        }
    }

    #[test]
    fn a_name_in_camel_case_is_one_name() {
        for w in [
            "FooBar",
            "remoteAddress",
            "SQLAlchemy",
            "IOError",
            "autoPong2",
        ] {
            assert!(camel_case(w), "{w}");
        }
        for w in [
            "foo_bar", "HTTP", "Foo", "foo", "v2", "HTTP/2", "Foo-Bar", "ABC",
        ] {
            assert!(!camel_case(w), "{w}");
        }
        let terms = query_terms("does it work with FooBar");
        let t = terms.iter().find(|t| t.word == "FooBar").expect("a term");
        assert!(t.compound, "{terms:?}");
        assert!(!spelled_by_its_words(t, false, false));
    }

    #[test]
    fn words_joined_by_hyphens_are_a_name_unless_the_pages_write_them() {
        for w in [
            "Retry-After",
            "keep-alive",
            "X-Forwarded-For",
            "Strict-Transport-Security",
        ] {
            assert!(hyphenated(w), "{w}");
        }
        for w in [
            "--max-filesize",
            "-k",
            "utf-8",
            "2021-13-01",
            "sha-256",
            "a--b",
            "retry",
            "max_retries",
        ] {
            assert!(!hyphenated(w), "{w}");
        }
        let index = corpus_index("httpx");
        let term = |q: &str, t: &str| {
            let (terms, _) = analyze(&index, q);
            terms.into_iter().find(|x| x.query.term == t)
        };
        // No page names these headers: each stays a term that matches nothing (confidence
        // counts it), beside its words, which are still searched. `After` is a stopword, so
        // "Retry-After" searched by its words alone was "retry".
        for (q, t) in [
            ("Retry-After", "retry-after"),
            ("Strict-Transport-Security", "strict-transport-security"),
            (
                "Where would I change how the Retry-After header is parsed when a 429 is retried?",
                "retry-after",
            ),
        ] {
            let found = term(q, t).unwrap_or_else(|| panic!("{q}: no {t}"));
            assert!(!found.searched && found.df == 0, "{q}: {found:?}");
        }
        assert!(term("Retry-After", "retri").is_some_and(|t| t.searched));
        // The pages write these as typed; the others apart ("connection pool", the
        // `--follow-redirects` flag) or joined ("timeout"): they are searched by their words.
        for (q, t) in [
            ("Content-Type", "content-type"),
            ("keep-alive", "keep-alive"),
        ] {
            let found = term(q, t).unwrap_or_else(|| panic!("{q}: no {t}"));
            assert!(found.searched && found.df > 0, "{q}: {found:?}");
        }
        for (q, t) in [
            ("connection-pool", "connection-pool"),
            ("time-out", "time-out"),
            ("follow-redirects", "follow-redirects"),
        ] {
            assert!(term(q, t).is_none(), "{q}");
        }
        // In a longer question a lowercase one is as often the asker's adjective: its words.
        let q = "a zebra-striped progress bar while streaming large response bodies";
        assert!(term(q, "zebra-striped").is_none(), "{q}");
        assert!(term("zebra-striped", "zebra-striped").is_some_and(|t| !t.searched));
    }

    #[test]
    fn a_qualified_name_of_a_plain_word_has_its_qualifier() {
        for (w, q) in [
            ("z.map", "z."),
            ("ZodObject.parse", "ZodObject."),
            ("std::fs::read", "std::fs::"),
            ("Array#map", "Array#"),
            ("requests.codes.teapot", "requests.codes."),
        ] {
            assert_eq!(qualifier_of_a_word(w), Some(q), "{w}");
        }
        // A name of its own (camel or snake case), a one-letter member, a version, a path, an
        // assignment, a `key:value` and a plain word are not.
        for w in [
            "viper.GetString",
            "self.max_retries",
            "e.g",
            "3.12",
            "v2.x",
            "a/b.rs",
            "x.y=1",
            "match:bg",
            "map",
            "z.map2",
        ] {
            assert_eq!(qualifier_of_a_word(w), None, "{w}");
        }
    }

    #[test]
    fn one_edit_apart() {
        assert!(one_edit("domian", "domain"));
        assert!(one_edit("certifcate", "certificate"));
        assert!(one_edit("droped", "dropped"));
        assert!(one_edit("cache", "cachx"));
        assert!(one_edit("same", "same"));
        assert!(!one_edit("retry", "timeout"));
        assert!(!one_edit("abcd", "badc"));
    }

    #[test]
    fn timestamps_uuids_and_hex_ids_are_values() {
        assert_eq!(
            value_numbers("2024-05-01T10:00:00"),
            ["2024", "05", "01T10", "00", "00"]
        );
        for w in [
            "2024-05-01T10:00:00",
            "2024-05-01t10:00",
            "2024-05-01T10:00:00.123Z",
            "2024/05/01T10:00:00",
        ] {
            assert!(is_timestamp(w), "{w}");
        }
        for w in [
            "2024-05-01",
            "T10:00",
            "2024-05-01T",
            "20240501T1000",
            "v2024-05-01T10:00",
            "2024-05-01Tea",
        ] {
            assert!(!is_timestamp(w), "{w}");
        }
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert_eq!(
            value_numbers("123e4567-e89b-12d3-a456-426614174000"),
            ["123e4567", "e89b", "12d3", "a456", "426614174000"]
        );
        assert!(!is_uuid("123e4567-e89b-12d3-a456"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400g"));
        assert!(is_hex_id("3f2a9c1"));
        assert!(is_hex_id("e3b0c44298fc1c149afbf4c8996fb92427ae41e4"));
        // All digits is a number; all letters may be a word; six is too short to tell.
        for w in ["1565358758", "deadbeef", "facade", "a1b2c3", "3f2a9cx"] {
            assert!(!is_hex_id(w), "{w}");
        }
        // No word of the list is an id.
        assert_eq!(value_numbers("sha256"), Vec::<&str>::new());
    }
}
