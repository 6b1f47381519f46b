//! Tokens: identifier- and flag-aware words, folded by the Snowball English stemmer.
//!
//! One tokenizer for documents and queries, so they meet:
//!
//! - a compound chunk (`graph/src/text.rs`, `parse_sections`, `parseSections`, `Session.mount`,
//!   `a::b`) yields its whole lowercased form, so an exact identifier or path matches strongly,
//!   plus each of its words, so a natural-language question still finds it;
//! - a command-line flag (`--max-filesize`, `-uuu`, `-H`, `-1`) yields itself as a term (long
//!   flags lowercased, short flags with their case: `-e` and `-E` are different options) plus
//!   the words of a long flag's name; `-H/--hidden` is two flags, `--max-filesize=10M` a flag
//!   and a value; a bare `--` (end of options) is a term of its own;
//! - an operator written on its own (`=~`, `&&`, `:=`, `->`, `??`: [`OPERATORS`]) is a term as
//!   written; the words around it stay neighbours;
//! - words are lowercased and stemmed (`rust-stemmers`, Snowball English: `retried`, `retries`,
//!   `retry` → `retri`); words with digits are kept whole; stopwords (English and question
//!   filler) and one-letter words are dropped.

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;

/// At most this many distinct query terms are scored (the match mask is a `u64`).
pub const MAX_QUERY_TERMS: usize = 64;

const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "across",
    "after",
    "all",
    "also",
    "although",
    "am",
    "among",
    "an",
    "and",
    "another",
    "any",
    "anything",
    "are",
    "aren",
    "arent",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "both",
    "but",
    "by",
    "can",
    "cannot",
    "cant",
    "certain",
    "could",
    "couldn",
    "couldnt",
    "did",
    "didn",
    "didnt",
    "do",
    "does",
    "doesn",
    "doesnt",
    "doing",
    "don",
    "done",
    "dont",
    "during",
    "each",
    "either",
    "else",
    "ever",
    "every",
    "everything",
    "for",
    "from",
    "get",
    "gets",
    "got",
    "had",
    "hadn",
    "hadnt",
    "happen",
    "happened",
    "happening",
    "happens",
    "has",
    "hasn",
    "hasnt",
    "have",
    "haven",
    "havent",
    "having",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "isnt",
    "it",
    "its",
    "just",
    "kind",
    "least",
    "less",
    "many",
    "maybe",
    "me",
    "mean",
    "means",
    "meant",
    "more",
    "most",
    "much",
    "must",
    "mustn",
    "mustnt",
    "my",
    "needn",
    "neednt",
    "neither",
    "no",
    "nor",
    "not",
    "nothing",
    "now",
    "of",
    "often",
    "on",
    "once",
    "one",
    "ones",
    "only",
    "onto",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "per",
    "perhaps",
    "please",
    "quite",
    "rather",
    "really",
    "regarding",
    "said",
    "same",
    "say",
    "says",
    "several",
    "she",
    "should",
    "shouldn",
    "shouldnt",
    "since",
    "so",
    "some",
    "something",
    "sometimes",
    "somewhat",
    "still",
    "such",
    "sure",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "though",
    "through",
    "to",
    "together",
    "too",
    "toward",
    "towards",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "use",
    "used",
    "using",
    "very",
    "via",
    "want",
    "wants",
    "was",
    "wasn",
    "wasnt",
    "way",
    "ways",
    "we",
    "were",
    "weren",
    "werent",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "within",
    "without",
    "won",
    "wont",
    "work",
    "works",
    "would",
    "wouldn",
    "wouldnt",
    "yet",
    "you",
    "your",
];

fn is_stopword(t: &str) -> bool {
    STOPWORDS.binary_search(&t).is_ok()
}

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// The term of one word: lowercased, stemmed when it is all letters; `None` for stopwords
/// and one-letter words.
pub fn word_term(word: &str) -> Option<String> {
    let w = word.to_lowercase();
    if is_stopword(&w) || w.chars().count() < 2 {
        return None;
    }
    let t = if w.chars().all(|c| c.is_alphabetic()) && w.len() > 3 {
        stemmer().stem(&w).into_owned()
    } else {
        w
    };
    (t.chars().count() > 1 && !is_stopword(&t)).then_some(t)
}

/// Splits one identifier into its words: `parseSections` → parse, Sections; `HTTPServer` →
/// HTTP, Server; `snake_case`, `a/b.rs`, `mod::fn` → their parts.
fn split_identifier<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    if chunk.is_ascii() {
        return split_ascii_identifier(chunk, out);
    }
    split_identifier_chars(chunk, out);
}

/// [`split_identifier`] character by character (any script).
fn split_identifier_chars<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    for part in chunk.split(|c: char| !c.is_alphanumeric()) {
        if part.is_empty() {
            continue;
        }
        let mut start = 0;
        let mut prev: Option<char> = None;
        let mut it = part.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            if let Some(p) = prev {
                let next_lower = it.peek().is_some_and(|(_, n)| n.is_lowercase());
                if (p.is_lowercase() && c.is_uppercase())
                    || (p.is_uppercase() && c.is_uppercase() && next_lower)
                {
                    out.push(&part[start..i]);
                    start = i;
                }
            }
            prev = Some(c);
        }
        out.push(&part[start..]);
    }
}

/// [`split_identifier`] of an ASCII chunk, on bytes (most chunks: the same words, without
/// decoding characters).
fn split_ascii_identifier<'a>(chunk: &'a str, out: &mut Vec<&'a str>) {
    let b = chunk.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let mut start = i;
        let mut end = i + 1;
        while end < b.len() && b[end].is_ascii_alphanumeric() {
            end += 1;
        }
        for k in i + 1..end {
            let (p, c) = (b[k - 1], b[k]);
            let next_lower = k + 1 < end && b[k + 1].is_ascii_lowercase();
            if (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (p.is_ascii_uppercase() && c.is_ascii_uppercase() && next_lower)
            {
                out.push(&chunk[start..k]);
                start = k;
            }
        }
        out.push(&chunk[start..end]);
        i = end;
    }
}

/// Characters that hold a chunk together (identifiers, paths, flags, `key=value`).
fn joins(c: char) -> bool {
    match u8::try_from(c) {
        Ok(b) if b.is_ascii() => JOINS_ASCII[usize::from(b)],
        _ => c.is_alphanumeric(),
    }
}

/// [`joins`] for each ASCII byte: letters, digits and `_./:-#=`.
const JOINS_ASCII: [bool; 128] = {
    let mut t = [false; 128];
    let mut i = 0;
    while i < 128 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric()
            || matches!(c, b'_' | b'.' | b'/' | b':' | b'-' | b'#' | b'=');
        i += 1;
    }
    t
};

/// Calls `f` with each maximal run of joining characters of `text`, in order: the non-empty
/// pieces of `text.split(|c| !joins(c))`, found on bytes (every character of every text passes
/// here; only non-ASCII ones are decoded).
fn for_each_chunk<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    let b = text.as_bytes();
    let (mut i, mut start) = (0, 0);
    while i < b.len() {
        let (join, width) = if b[i] < 0x80 {
            (JOINS_ASCII[b[i] as usize], 1)
        } else {
            match text[i..].chars().next() {
                Some(c) => (joins(c), c.len_utf8()),
                None => break,
            }
        };
        if !join {
            if start < i {
                f(&text[start..i]);
            }
            start = i + width;
        }
        i += width;
    }
    if start < b.len() {
        f(&text[start..]);
    }
}

/// The bytes of `text` just before and just after the chunk `raw` (a slice of `text`).
fn beside(text: &str, raw: &str) -> (Option<u8>, Option<u8>) {
    let at = (raw.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let b = text.as_bytes();
    let before = at.checked_sub(1).and_then(|i| b.get(i)).copied();
    (before, b.get(at.wrapping_add(raw.len())).copied())
}

/// Whether the chunk `raw` (a slice of `text`) stands alone in backticks.
fn in_backticks(text: &str, raw: &str) -> bool {
    beside(text, raw) == (Some(b'`'), Some(b'`'))
}

/// Whether the chunk `raw` (a slice of `text`) is called: an opening bracket follows it.
fn called(text: &str, raw: &str) -> bool {
    beside(text, raw).1 == Some(b'(')
}

/// Whether `p` is a stopword of two letters or more, in any case.
fn is_stopword_word(p: &str) -> bool {
    p.len() >= 2
        && p.bytes().all(|b| b.is_ascii_alphabetic())
        && is_stopword(&p.to_ascii_lowercase())
}

/// Whether the chunk `raw` (a slice of `text`) is the dashes of `<!--` or `-->`.
fn in_markup(text: &str, raw: &str) -> bool {
    let (before, after) = beside(text, raw);
    before == Some(b'!') || after == Some(b'>')
}

/// Whether `chunk` is one word to [`token_chunk`]: ASCII letters and digits with no capital
/// after the first character, so nothing is trimmed, it is no flag, and
/// [`split_identifier`] leaves it whole.
fn is_plain_word(chunk: &str) -> bool {
    let b = chunk.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// The end-of-options marker of a command line, a term as written.
pub const BARE_DASHES: &str = "--";

/// A command-line flag: `-x`, `-xyz`, `-1`, `--long-name` (no spaces, starts with a dash and
/// then a letter or digit).
fn is_flag(chunk: &str) -> bool {
    let rest = chunk.strip_prefix("--").or_else(|| chunk.strip_prefix('-'));
    rest.is_some_and(|r| {
        r.chars().next().is_some_and(char::is_alphanumeric)
            && r.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// How tokens become terms: owned strings for queries ([`for_each_token`]); the index build
/// interns them instead (`builder.rs`), so each distinct word is lowercased and stemmed once.
/// Words and chunks are slices of the text being tokenized (`'t`), so a caller may keep them
/// as keys without copying.
pub(crate) trait TermMaker<'t> {
    /// What a term is for this caller.
    type Term;
    /// The term of one word ([`word_term`]).
    fn word(&mut self, word: &'t str) -> Option<Self::Term>;
    /// A compound or a long flag, lowercased.
    fn lower(&mut self, chunk: &'t str) -> Self::Term;
    /// A short flag, as written.
    fn exact(&mut self, chunk: &'t str) -> Self::Term;
}

struct OwnedTerms;

impl TermMaker<'_> for OwnedTerms {
    type Term = String;
    fn word(&mut self, word: &str) -> Option<String> {
        word_term(word)
    }
    fn lower(&mut self, chunk: &str) -> String {
        chunk.to_lowercase()
    }
    fn exact(&mut self, chunk: &str) -> String {
        chunk.to_string()
    }
}

/// Calls `emit(term, surface, whole)` for every token of `text`, in order, with repeats.
/// `surface` is the text the term came from, as written; `whole` is true for the whole form of
/// a compound or a flag (as opposed to one of its words).
pub fn for_each_token(text: &str, emit: impl FnMut(String, &str, bool)) {
    for_each_token_with(text, &mut OwnedTerms, emit)
}

/// [`for_each_token`] with terms made by `terms`.
pub(crate) fn for_each_token_with<'t, M: TermMaker<'t>>(
    text: &'t str,
    terms: &mut M,
    mut emit: impl FnMut(M::Term, &'t str, bool),
) {
    let mut parts = Vec::new();
    // Chunks never cross white space, so each piece between spaces is chunked as the whole
    // text would be; a piece that is an operator is a term instead (see `operator`).
    for piece in text.split_ascii_whitespace() {
        if let Some(op) = operator(piece) {
            emit(terms.exact(op), op, true);
            continue;
        }
        if let Some(o) = big_o(text, piece) {
            emit(terms.lower(o), o, true);
        }
        chunks_of(text, piece, &mut parts, terms, &mut emit);
    }
}

/// The big-O notation that starts `piece` (a slice of `text`), running on past its end for at
/// most two more words (`O(1)`, `O(n)`, `O(log n)`, `O(n log n)`): one term, lowercased, so
/// "is lookup O(1)?" finds the pages that say so. Its words are still words of their own;
/// alone, `O` and `1` were too short to be terms at all (sortedcontainers walk, stop 50).
fn big_o<'t>(text: &'t str, piece: &'t str) -> Option<&'t str> {
    let at = piece.find(['O', 'o'])?;
    if !piece[..at]
        .bytes()
        .all(|b| matches!(b, b'(' | b'`' | b'"' | b'\'' | b'*'))
        || piece.as_bytes().get(at + 1) != Some(&b'(')
    {
        return None;
    }
    let start = piece.as_ptr() as usize - text.as_ptr() as usize + at;
    let tail = &text[start + 2..];
    // Only a short look ahead: a text of many `O(` and no `)` stays linear.
    let close = tail.bytes().take(16).position(|b| b == b')')?;
    let inside = &tail[..close];
    let fits = !inside.is_empty()
        && inside.len() <= 12
        && !inside.contains("  ")
        && inside.split(' ').count() <= 3
        && inside
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '^' | '*' | '+' | '²' | '³'));
    fits.then(|| &text[start..start + 2 + close + 1])
}

/// Operators a page writes on their own (`=~`, `&&`, `:=`, `??`): terms as written, so a
/// question about one finds the sections that use it. Not `|`, `*` or `=` alone (tables,
/// lists, prose), nor `..` and `...` (an ellipsis); `--` is [`BARE_DASHES`]. Sorted.
pub const OPERATORS: &[&str] = &[
    "!=", "!==", "!~", "&&", "**", "*=", "+=", "-=", "->", "//", "/=", "::", ":=", "<-", "<<",
    "<=", "<=>", "==", "===", "=>", "=~", ">=", ">>", "?.", "??", "|>", "||",
];

/// The operator a piece of text between spaces is (in backticks, quotes or brackets, or
/// followed by a comma, a semicolon or a full stop), if it is one.
fn operator(piece: &str) -> Option<&str> {
    // Almost every piece is a word: no operator with its marks is this long or holds a letter
    // or a digit.
    if piece.len() > 8
        || piece
            .bytes()
            .any(|b| b.is_ascii_alphanumeric() || b >= 0x80)
    {
        return None;
    }
    const CLOSING: [char; 7] = ['`', '\'', '"', ')', ']', '}', ','];
    let inner = piece.trim_start_matches(['`', '\'', '"', '(', '[', '{']);
    // A full stop may end the sentence (`=~.`) or the operator (`?.`).
    let closed =
        |more: &[char]| inner.trim_end_matches(|c| CLOSING.contains(&c) || more.contains(&c));
    [closed(&[';']), closed(&[';', '.'])]
        .into_iter()
        .find(|o| OPERATORS.binary_search(o).is_ok())
}

/// The tokens of the chunks of `piece` (a slice of `text`).
fn chunks_of<'t, M: TermMaker<'t>>(
    text: &'t str,
    piece: &'t str,
    parts: &mut Vec<&'t str>,
    terms: &mut M,
    emit: &mut impl FnMut(M::Term, &'t str, bool),
) {
    for_each_chunk(piece, |raw| {
        // Most chunks are one plain word (`retries`, `Payment`, `sha256`): what the rules
        // below make of it is that word's term, so it goes there directly.
        if is_plain_word(raw) {
            if let Some(t) = terms.word(raw) {
                emit(t, raw, false);
            } else if (code_stopword(raw) && in_backticks(text, raw))
                || (is_stopword_word(raw) && called(text, raw))
            {
                // A stopword in backticks is a name in code (`Must`, `Once`, `Some`); so is
                // one called (`one()`, `only(iterable)`).
                emit(terms.lower(raw), raw, false);
            }
            return;
        }
        // A bare `--` (end of options) is what a command line documents under that name; it
        // has no words, so it is a term of its own. `---` (a rule) is not, nor the dashes of
        // an HTML comment (`<!--`, `-->`) or an arrow.
        if raw.trim_end_matches(['.', ':']) == BARE_DASHES && !in_markup(text, raw) {
            emit(terms.exact(BARE_DASHES), &raw[..BARE_DASHES.len()], true);
            return;
        }
        // A leading underscore is part of a name (`_log`, `__init__`); around a word
        // (`_emphasis_`) or after one (`type_`) it is not.
        let chunk = raw
            .trim_start_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
            .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
        let chunk = if keeps_underscores(chunk) {
            chunk
        } else {
            chunk.trim_matches('_')
        };
        if chunk.is_empty() {
            return;
        }
        // `-H/--hidden` is two flags; `--max-filesize=10M` a flag and its value.
        if chunk.starts_with('-') && (chunk.contains('/') || chunk.contains('=')) {
            let pieces: Vec<&str> = chunk.split(['/', '=']).collect();
            if pieces.iter().any(|p| is_flag(p)) {
                for p in pieces {
                    token_chunk(p, parts, terms, emit);
                }
                return;
            }
        }
        token_chunk(chunk, parts, terms, emit);
    });
}

/// Whether `chunk` is a name whose underscores are part of it: a private one (`_log`,
/// `__mangled`) or a special one (`__init__`, as many underscores after as before, at least
/// two: `_emphasis_` is Markdown).
fn keeps_underscores(chunk: &str) -> bool {
    let lead = chunk.len() - chunk.trim_start_matches('_').len();
    let trail = chunk.len() - chunk.trim_end_matches('_').len();
    let name = chunk.trim_start_matches('_');
    lead > 0
        && name.starts_with(char::is_alphanumeric)
        && (trail == 0 || (trail == lead && lead >= 2))
}

fn token_chunk<'a, M: TermMaker<'a>>(
    chunk: &'a str,
    parts: &mut Vec<&'a str>,
    terms: &mut M,
    emit: &mut impl FnMut(M::Term, &'a str, bool),
) {
    let named = chunk.starts_with('_');
    // A special name keeps its trailing underscores (`__init__`); other trailing marks go.
    let chunk = chunk.trim_end_matches(|c: char| !(c.is_alphanumeric() || (c == '_' && named)));
    if chunk.is_empty() {
        return;
    }
    if is_flag(chunk) {
        if let Some(long) = chunk.strip_prefix("--") {
            emit(terms.lower(chunk), chunk, true);
            parts.clear();
            split_identifier(long, parts);
            for &p in parts.iter() {
                if let Some(t) = terms.word(p) {
                    emit(t, p, false);
                }
            }
        } else {
            emit(terms.exact(chunk), chunk, true);
        }
        return;
    }
    // A private or special name (`_log`, `__init__`) is a term as written beside its words:
    // loguru's private `_log` is not the word "log".
    let whole = chunk;
    let chunk = chunk.trim_matches(|c: char| !c.is_alphanumeric());
    if chunk.is_empty() {
        return;
    }
    parts.clear();
    split_identifier(chunk, parts);
    if named && whole.len() > chunk.len() && !whole.contains(['.', '/', ':', '#', '=']) {
        emit(terms.lower(whole), whole, true);
    }
    if parts.len() > 1 {
        emit(terms.lower(chunk), chunk, true);
    }
    // A qualified name's segment that is a compound itself (`GetString` of `viper.GetString`,
    // `max_retries` of `self.max_retries`) is what a page writes alone: a term of its own. (Go
    // walk, stop 52: "viper.GetString" never reached the section headed `GetString`, since
    // `Get` is a stopword and `string` everyone's word.)
    if parts.len() > 2 && !chunk.contains('/') && chunk.contains(['.', ':', '#']) {
        for segment in chunk.split(['.', ':', '#']) {
            let segment = segment.trim_matches(|c: char| !c.is_alphanumeric());
            let mut words = Vec::new();
            split_identifier(segment, &mut words);
            if words.len() > 1 {
                emit(terms.lower(segment), segment, true);
            }
        }
    }
    // A path's host (`github.com/spf13/cobra`, `docs.rs/tokio`) says where a thing is, not
    // what: its words are not searched (a pasted Go trace line was answered `high` from
    // "github" and "com" alone; Go walk, stop 48).
    let host_words = chunk
        .split_once('/')
        .map(|(host, _)| host)
        .filter(|host| is_host(host))
        .map_or(0, |host| {
            let mut words = Vec::new();
            split_identifier(host, &mut words);
            words.len()
        });
    // A qualified name's member that is a stopword (`uuid.Must`, `errors.Is`, `Option::Some`,
    // `sync.Once`) is the name asked about, not filler: a term as written, lowercased.
    let member =
        (parts.len() > 1 && !chunk.contains('/') && (chunk.contains('.') || chunk.contains("::")))
            .then(|| parts.last().copied())
            .flatten();
    for &p in parts.iter().skip(host_words) {
        if let Some(t) = terms.word(p) {
            emit(t, p, false);
        } else if Some(p) == member && code_stopword(p) {
            emit(terms.lower(p), p, false);
        }
    }
}

/// A stopword written as an exported name is (`Must`, `Is`, `Once`, `Some`): capitalized, as
/// Go's exported functions and Rust's variants are. (Lower case, `just` and `use` are as often
/// a command's or a method's name as the word: measured, that cost the just corpus a question.)
fn code_stopword(p: &str) -> bool {
    p.starts_with(|c: char| c.is_ascii_uppercase()) && is_stopword_word(p)
}

/// Whether `s` is shaped as a host name: two or more dot-separated labels of letters, digits
/// and dashes, the last of two to six letters (`github.com`, `pkg.go.dev`; not `v2.28.0`). A
/// file name has that shape too (`setup.py`), but it is seldom a path's first segment, the
/// only place this is asked.
fn is_host(s: &str) -> bool {
    let labels: Vec<&str> = s.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels.last().is_some_and(|t| {
            (2..=6).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphabetic())
        })
}

/// Identifier- and flag-aware tokens of `text`, in order, with repeats.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |t, _, _| out.push(t));
    out
}

/// A distinct query term and the user's word it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryTerm {
    /// The indexed term (stemmed, lowercased).
    pub term: String,
    /// The word as the user typed it (first occurrence).
    pub word: String,
    /// A whole compound (`max_retries`, `a/b.rs`, `--max-filesize`) rather than a word.
    pub compound: bool,
    /// Every occurrence is a quoted value ([`quoted_values`]: `'--json'` in a pasted error
    /// message): the user's own value, which a page quoting the same message shows with
    /// other values.
    pub quoted: bool,
    /// The identifier as typed that this term is a part of (`ParserError` for `Parser`,
    /// `max_retries` for `retries`), when it is one: messages name the identifier once rather
    /// than its parts one by one.
    pub within: Option<String>,
}

/// The byte spans of the quoted values of `text` (`is_value`): `'...'` or `"..."` opened at
/// the start, after a space or an opening bracket, and closed before the end, a space or
/// punctuation (so the apostrophes of "don't" and "commander's" open nothing).
pub fn quoted_values(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let opens = |i: usize| i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'(' | b'[' | b'{' | b':');
    let closes = |j: usize| {
        j + 1 == b.len()
            || matches!(
                b[j + 1],
                b' ' | b'\t' | b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' | b']' | b'}'
            )
    };
    // Where each quote can close, in order: an opening quote takes the first at least two
    // bytes on. A scan to the end from each opening quote made a question of 20 000 words
    // each after a `'` take 1.1 s, growing with the square of its length.
    let closing =
        |q: u8| -> Vec<usize> { (0..b.len()).filter(|&j| b[j] == q && closes(j)).collect() };
    let (singles, doubles) = (closing(b'\''), closing(b'"'));
    let next_close = |q: u8, from: usize| -> Option<usize> {
        let list = if q == b'"' { &doubles } else { &singles };
        list.get(list.partition_point(|&j| j < from)).copied()
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if matches!(q, b'\'' | b'"') && opens(i) {
            if let Some(j) = next_close(q, i + 2) {
                if is_value(&text[i + 1..j]) {
                    out.push((i + 1, j));
                }
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Whether a quoted span is one value: at most one piece that is not a flag or a
/// `<placeholder>` (`'file'`, `'-p, --port <number>'`, `'x=1'`), as opposed to quoted words
/// (`'not executable'`, `'Usage: index [options]'`).
fn is_value(span: &str) -> bool {
    span.split([' ', ','])
        .filter(|p| !p.is_empty())
        .filter(|p| !(is_flag(p) || p.starts_with('<') || p.starts_with('[')))
        .count()
        <= 1
}

/// The run of letters, digits and `_` of `text` around `len` bytes at `at`.
fn identifier_around(text: &str, at: usize, len: usize) -> &str {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let end = (at + len).min(text.len());
    if !text.is_char_boundary(at) || !text.is_char_boundary(end) {
        return &text[0..0];
    }
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| ident(c))
        .last()
        .map_or(at, |(i, _)| i);
    let stop = text[end..]
        .char_indices()
        .find(|&(_, c)| !ident(c))
        .map_or(text.len(), |(i, _)| end + i);
    &text[start..stop]
}

/// `query` with the words that frame a comparison blanked out (same length, so offsets
/// stay): "difference(s) between", and "the difference(s)" ending the question. They say
/// how the asker compares two things, not what about: "What's the difference between
/// anyhow! and bail!?" was flagged for "difference, between", which no page writes (Rust
/// walk, stop 48). "between" alone is a topic word ("between requests", "between runs").
fn without_comparison_frame(query: &str) -> std::borrow::Cow<'_, str> {
    let lower = query.to_ascii_lowercase();
    // Runs of ASCII letters, digits and apostrophes, by byte offset.
    let bytes = lower.as_bytes();
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'\'';
        if !word(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        words.push((start, &lower[start..i]));
    }
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for (i, &(at, w)) in words.iter().enumerate() {
        if w != "difference" && w != "differences" {
            continue;
        }
        match words.get(i + 1) {
            Some(&(next, "between")) => blank.push((at, next + "between".len())),
            None if i > 0 && words[i - 1].1 == "the" => blank.push((at, at + w.len())),
            _ => {}
        }
    }
    if blank.is_empty() {
        return std::borrow::Cow::Borrowed(query);
    }
    let mut out = query.as_bytes().to_vec();
    for (a, b) in blank {
        for byte in out.iter_mut().take(b).skip(a) {
            *byte = b' ';
        }
    }
    // Only ASCII letters and spaces were replaced by spaces.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| query.to_string()))
}

/// Distinct query terms in first-seen order, at most [`MAX_QUERY_TERMS`].
pub fn query_terms(query: &str) -> Vec<QueryTerm> {
    let framed = without_comparison_frame(query);
    let query = framed.as_ref();
    let spans = quoted_values(query);
    let base = query.as_ptr() as usize;
    let mut terms: Vec<QueryTerm> = Vec::new();
    for_each_token(query, |t, surface, whole| {
        // `surface` is a slice of `query`: its offset says whether it is quoted.
        let at = (surface.as_ptr() as usize).wrapping_sub(base);
        // Spans are in order and apart: the last one starting at or before `at` is the one
        // that can hold it (a scan of them all per word was quadratic in a quote-heavy paste).
        let quoted = at < query.len()
            && spans
                .partition_point(|&(s, _)| s <= at)
                .checked_sub(1)
                .is_some_and(|k| at < spans[k].1);
        if let Some(q) = terms.iter_mut().find(|q| q.term == t) {
            q.quoted &= quoted;
        } else if terms.len() < MAX_QUERY_TERMS {
            let within = (at < query.len())
                .then(|| identifier_around(query, at, surface.len()))
                .filter(|w| *w != surface)
                .map(str::to_string);
            terms.push(QueryTerm {
                compound: whole,
                term: t,
                word: surface.to_string(),
                quoted,
                within,
            });
        }
    });
    if terms.is_empty() {
        terms = names_among_stopwords(query);
    }
    terms
}

/// The capitalized stopwords of a question that has no other searchable word ("what does Must
/// do", "Once"): typed without backticks they are still the exported name asked about, since
/// nothing else in the question is. A sentence's first word is its own capital, not a name.
fn names_among_stopwords(query: &str) -> Vec<QueryTerm> {
    let mut out: Vec<QueryTerm> = Vec::new();
    let mut starts_sentence = true;
    let words: Vec<&str> = query.split_whitespace().collect();
    for raw in &words {
        let word = raw.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if code_stopword(word) && (!starts_sentence || words.len() == 1) {
            let term = word.to_ascii_lowercase();
            if !out.iter().any(|q| q.term == term) {
                out.push(QueryTerm {
                    compound: false,
                    term,
                    word: word.to_string(),
                    quoted: false,
                    within: None,
                });
            }
        }
        starts_sentence = raw.ends_with(['.', '?', '!', ':']);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exported_name_that_is_a_stopword_is_a_term_in_code() {
        let t = tokenize("`Must` panics; uuid.Must and errors.Is, Option::Some, `just` and must");
        assert_eq!(t.iter().filter(|w| *w == "must").count(), 2, "{t:?}");
        for kept in ["is", "some"] {
            assert!(t.iter().any(|w| w == kept), "{kept} not in {t:?}");
        }
        // Lower case, and outside code, the word is the word.
        assert!(!t.iter().any(|w| w == "just"), "{t:?}");
        let q: Vec<String> = query_terms("what does uuid.Must do")
            .into_iter()
            .map(|t| t.term)
            .collect();
        assert!(q.contains(&"must".to_string()), "{q:?}");
        // With nothing else to search, a capitalized stopword is the name asked about; a
        // sentence's first word is not, and beside other words it stays a stopword.
        let terms =
            |q: &str| -> Vec<String> { query_terms(q).into_iter().map(|t| t.term).collect() };
        assert_eq!(terms("what does Must do?"), ["must"]);
        assert_eq!(terms("Must"), ["must"]);
        assert_eq!(terms("Once? What about Is"), ["is"]);
        assert_eq!(terms("What does it do"), Vec::<String>::new());
        assert_eq!(
            terms("what does Must return on errors"),
            ["return", "error"]
        );
        // A stopword called is a name in code, in any case; written as prose it is the word.
        let t = tokenize("`only(iterable, default=None)` is the lenient one(); only one item");
        assert_eq!(t.iter().filter(|w| *w == "only").count(), 1, "{t:?}");
        assert_eq!(t.iter().filter(|w| *w == "one").count(), 1, "{t:?}");
        assert_eq!(
            terms("difference between one() and only()"),
            ["one", "only"]
        );
    }

    #[test]
    fn a_qualified_names_compound_segment_is_a_term() {
        let t = tokenize("viper.GetString, self.max_retries, x::foo_bar::Baz, Session.mount");
        for kept in ["viper.getstring", "getstring", "max_retries", "foo_bar"] {
            assert!(t.contains(&kept.to_string()), "{kept} not in {t:?}");
        }
        // A one-word segment is its word already; a path's segments are not names.
        let t = tokenize("Session.mount lib/max_retries.js v2.28.0");
        for gone in ["max_retries", "session", "v2.28"] {
            assert_eq!(
                t.iter().filter(|w| *w == gone).count(),
                usize::from(gone == "session"),
                "{gone}: {t:?}"
            );
        }
    }

    #[test]
    fn big_o_notation_is_a_term() {
        let t =
            tokenize("lookups are O(1), inserts `O(log n)` and sorting O(n log n); O(n^2) worst");
        for kept in ["o(1)", "o(log n)", "o(n log n)", "o(n^2)", "log", "insert"] {
            assert!(t.iter().any(|w| w == kept), "{kept} not in {t:?}");
        }
        // Not a notation: a call, a word in brackets, a long parenthesis.
        let t = tokenize("Other(x) and foo(1) or O(this is not a complexity at all)");
        assert!(!t.iter().any(|w| w.starts_with("o(")), "{t:?}");
        let q: Vec<String> = query_terms("is `x in sortedset` O(1) or O(log n)?")
            .into_iter()
            .map(|t| t.term)
            .collect();
        assert!(
            q.contains(&"o(1)".to_string()) && q.contains(&"o(log n)".to_string()),
            "{q:?}"
        );
    }

    #[test]
    fn a_paths_host_is_no_words() {
        let t = tokenize("github.com/spf13/cobra and docs.rs/tokio, src/lib.rs, v2.28.0/x");
        for gone in ["github", "com", "doc"] {
            assert!(!t.contains(&gone.to_string()), "{gone} in {t:?}");
        }
        for kept in ["spf13", "cobra", "tokio", "src", "lib"] {
            assert!(t.iter().any(|w| w == kept), "{kept} not in {t:?}");
        }
        // The whole path is still a term; a host alone is its words.
        assert!(t.iter().any(|w| w.starts_with("github.com/spf13")), "{t:?}");
        assert!(tokenize("visit github.com today").contains(&"github".to_string()));
    }

    #[test]
    fn the_words_framing_a_comparison_are_not_searched() {
        let words =
            |q: &str| -> Vec<String> { query_terms(q).into_iter().map(|t| t.word).collect() };
        assert_eq!(
            words("What's the difference between anyhow! and bail!?"),
            ["anyhow", "bail"]
        );
        assert_eq!(
            words("retry_if vs retry_unless whats the difference"),
            words("retry_if vs retry_unless whats the")
        );
        // "between" alone, and "difference" as the topic, stay.
        assert!(words("keep cookies between requests").contains(&"between".to_string()));
        assert!(words("a difference in output sizes").contains(&"difference".to_string()));
        // Offsets survive text around it that is not ASCII.
        assert_eq!(
            words("“naïve” difference between a and ß"),
            words("“naïve”                    a and ß")
        );
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        let mut s = STOPWORDS.to_vec();
        s.sort();
        assert_eq!(s, STOPWORDS);
        let mut o = OPERATORS.to_vec();
        o.sort();
        assert_eq!(o, OPERATORS);
    }

    #[test]
    fn an_operator_on_its_own_is_a_term_as_written() {
        let terms: Vec<(String, bool)> = {
            let mut v = Vec::new();
            for_each_token(
                "`=~` tests a regex; `(cd foo && just build)`, x := 1, a -> b, `??`.",
                |t, _, whole| v.push((t, whole)),
            );
            v
        };
        for op in ["=~", "&&", ":=", "->", "??"] {
            assert!(terms.contains(&(op.to_string(), true)), "{op}: {terms:?}");
        }
        // Words around an operator are still neighbours, as around a flag.
        assert_eq!(
            tokenize("cut off with ... | a | b | wait..."),
            vec!["cut", "off", "wait"]
        );
        // Within a word, the characters are what they were: `x**2`, `a::b`, `k=v`.
        assert!(!tokenize("x**2 a::b k=v")
            .iter()
            .any(|t| OPERATORS.contains(&t.as_str())));
    }

    #[test]
    fn negative_contractions_are_stopwords_as_their_long_forms_are() {
        // "didn't" is "did" + "not", both stopwords: its stem "didn" is no query word either
        // (it was reported as "not in this workspace" and lowered the confidence).
        assert_eq!(
            tokenize("it didn't redirect, doesn't retry, isn't cached and won't stream"),
            vec!["redirect", "retri", "cach", "stream"]
        );
        let words: Vec<String> = query_terms("raise_for_status didn't raise")
            .into_iter()
            .map(|q| q.word)
            .collect();
        assert!(!words.iter().any(|w| w.starts_with("didn")), "{words:?}");
        // Typed without the apostrophe, as often ("dont" was read as "dot").
        assert_eq!(
            tokenize("it didnt redirect, doesnt retry, isnt cached and dont stream"),
            vec!["redirect", "retri", "cach", "stream"]
        );
    }

    #[test]
    fn a_part_of_an_identifier_knows_the_identifier_as_typed() {
        let within: Vec<(String, Option<String>)> =
            query_terms("1565358758 raises ParserError, max_retries")
                .into_iter()
                .map(|q| (q.word, q.within))
                .collect();
        let of = |w: &str| {
            within
                .iter()
                .find(|(x, _)| x == w)
                .unwrap_or_else(|| panic!("{w} in {within:?}"))
                .1
                .as_deref()
        };
        assert_eq!(of("ParserError"), None);
        assert_eq!(of("Parser"), Some("ParserError"));
        assert_eq!(of("Error"), Some("ParserError"));
        assert_eq!(of("raises"), None);
        assert_eq!(of("retries"), Some("max_retries"));
    }

    #[test]
    fn a_leading_underscore_is_part_of_a_name() {
        assert_eq!(
            tokenize("Logger._log calls _log"),
            vec!["logger._log", "logger", "log", "call", "_log", "log"]
        );
        // ("all" is a stopword; the name is not.)
        assert_eq!(
            tokenize("__init__() and __all__."),
            vec!["__init__", "init", "__all__"]
        );
        assert_eq!(
            tokenize("_make_init builds __attrs_post_init__"),
            vec![
                "_make_init",
                "make_init",
                "make",
                "init",
                "build",
                "__attrs_post_init__",
                "attrs_post_init",
                "attr",
                "post",
                "init"
            ]
        );
        // Markdown emphasis, a trailing underscore and a lone underscore are not names.
        assert_eq!(tokenize("_caution_ type_ _ __"), vec!["caution", "type"]);
        let words: Vec<(String, bool)> = query_terms("what does _log do")
            .into_iter()
            .map(|q| (q.term, q.compound))
            .collect();
        assert_eq!(words, vec![("_log".into(), true), ("log".into(), false)]);
    }

    #[test]
    fn identifiers_split_and_keep_their_whole() {
        assert_eq!(
            tokenize("parseSections"),
            vec!["parsesections", "pars", "section"]
        );
        assert_eq!(
            tokenize("HTTPServer snake_case"),
            vec![
                "httpserver",
                "http",
                "server",
                "snake_case",
                "snake",
                "case"
            ]
        );
        assert_eq!(
            tokenize("see graph/src/text.rs."),
            vec!["see", "graph/src/text.rs", "graph", "src", "text", "rs"]
        );
        assert_eq!(
            tokenize("Session.mount()"),
            vec!["session.mount", "session", "mount"]
        );
        assert_eq!(tokenize("max_retries"), vec!["max_retries", "max", "retri"]);
        assert_eq!(
            tokenize("How are the Sections stored?"),
            vec!["section", "store"]
        );
    }

    #[test]
    fn byte_scans_match_the_character_splits() {
        let texts = [
            "parseSections HTTPServer snake_case a/b.rs mod::fn x-Y_z ABCdef aB Ab AB abC",
            "Crème brûlée naïve Éclair 日本語テキスト ÄÖÜ straße ΣίσυφοςΑθήνα a·b caféBar",
            "--max-filesize=10M -H/--hidden `-e` «quoted» x\u{00A0}y tab\there 1.2.3 #x=y",
            "",
            " ",
            "---",
            "a",
            "é",
            "_",
            "🙂 emoji🙂mid 🙂",
            "aBCDe FOO1Bar foo2bar 2FA",
        ];
        for t in texts {
            let mut got = Vec::new();
            for_each_chunk(t, |c| got.push(c));
            let want: Vec<&str> = t
                .split(|c: char| !joins(c))
                .filter(|p| !p.is_empty())
                .collect();
            assert_eq!(got, want, "{t:?}");
            for chunk in want {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                split_identifier(chunk, &mut fast);
                // The character version, applied to ASCII too.
                split_identifier_chars(chunk, &mut slow);
                assert_eq!(fast, slow, "{chunk:?}");
            }
        }
    }

    #[test]
    fn plain_words_get_the_terms_of_the_general_rules() {
        // Every chunk the shortcut takes, through the general rules instead.
        for t in [
            "retries", "Retries", "sha256", "a1", "A", "a", "2FA", "Ab", "abC", "x9y", "the", "Zz",
            "z", "é", "Éclair", "1", "12", "a_b", "aB",
        ] {
            let mut general = Vec::new();
            let mut parts = Vec::new();
            token_chunk(
                t,
                &mut parts,
                &mut OwnedTerms,
                &mut |term, surface, whole| general.push((term, surface.to_string(), whole)),
            );
            if is_plain_word(t) {
                assert!(general.len() <= 1, "{t:?}");
                let want = word_term(t).map(|w| (w, t.to_string(), false));
                assert_eq!(general.pop(), want, "{t:?}");
            }
        }
        assert!(is_plain_word("Retries") && is_plain_word("sha256") && is_plain_word("2"));
        assert!(!is_plain_word("abC") && !is_plain_word("a_b") && !is_plain_word("é"));
        assert!(!is_plain_word("") && !is_plain_word("-e"));
    }

    #[test]
    fn flags_are_terms_with_their_words() {
        assert_eq!(
            tokenize("--max-filesize units"),
            vec!["--max-filesize", "max", "files", "unit"]
        );
        assert_eq!(
            tokenize("`-H`/`--hidden`"),
            vec!["-H", "--hidden", "hidden"]
        );
        assert_eq!(tokenize("-H/--hidden"), vec!["-H", "--hidden", "hidden"]);
        assert_eq!(
            tokenize("-uuu and -e vs -E"),
            vec!["-uuu", "-e", "vs", "-E"]
        );
        assert_eq!(tokenize("-z formats"), vec!["-z", "format"]);
        assert_eq!(
            tokenize("--max-filesize=10M"),
            vec!["--max-filesize", "max", "files", "10m"]
        );
        assert_eq!(tokenize("-1 stop"), vec!["-1", "stop"]);
        assert_eq!(tokenize("- a list item"), vec!["list", "item"]);
        assert_eq!(tokenize("non-zero"), vec!["non-zero", "non", "zero"]);
    }

    #[test]
    fn a_bare_double_dash_is_a_term() {
        assert_eq!(
            tokenize("a bare `--` ends options; -- too."),
            vec!["bare", "--", "end", "option", "--"]
        );
        assert_eq!(tokenize("fd -- '-foo'"), vec!["fd", "--", "-foo"]);
        // A rule, a table separator, a lone dash, an HTML comment and an arrow are not.
        assert_eq!(tokenize("--- | --- | - x"), Vec::<String>::new());
        assert_eq!(
            tokenize("<!-- note --> cat --> dog"),
            vec!["note", "cat", "dog"]
        );
        let q = query_terms("what does -- do?");
        assert_eq!(q.len(), 1);
        assert_eq!((q[0].term.as_str(), q[0].compound), ("--", true));
    }

    #[test]
    fn inflections_fold() {
        for (a, b) in [
            ("retried", "retries"),
            ("retry", "retries"),
            ("configure", "configuration"),
            ("configured", "configure"),
            ("charging", "charge"),
            ("declined", "decline"),
            ("failing", "fails"),
            ("libraries", "library"),
            ("classes", "class"),
        ] {
            assert_eq!(word_term(a), word_term(b), "{a} ~ {b}");
        }
        assert_eq!(word_term("sha256s").as_deref(), Some("sha256s"));
        assert_eq!(word_term("the"), None);
    }

    #[test]
    fn quoted_values_are_the_users_own() {
        let q = "error: option '-p, --port <number>' argument 'loud' isn't 'not executable'";
        let spans: Vec<&str> = quoted_values(q).iter().map(|&(s, e)| &q[s..e]).collect();
        // Two words in quotes are the message's own words, not a value; an apostrophe opens
        // nothing.
        assert_eq!(spans, vec!["-p, --port <number>", "loud"]);
        assert_eq!(quoted_values("don't use \"x=1\"."), vec![(11, 14)]);
        assert!(quoted_values("commander's 'help").is_empty());
        let terms = query_terms("missing argument 'file', a file path");
        let quoted: Vec<(&str, bool)> = terms.iter().map(|t| (t.word.as_str(), t.quoted)).collect();
        // `file` also occurs unquoted, so it is the user's word too.
        assert_eq!(
            quoted,
            vec![
                ("missing", false),
                ("argument", false),
                ("file", false),
                ("path", false)
            ]
        );
        let q = query_terms("unknown option '--verbose'");
        assert_eq!(
            q.iter()
                .filter(|t| t.quoted)
                .map(|t| t.term.as_str())
                .collect::<Vec<_>>(),
            vec!["--verbose", "verbos"]
        );
    }

    #[test]
    fn query_terms_keep_the_users_words() {
        let q = query_terms("retries timing out, retried");
        let words: Vec<(&str, &str)> = q
            .iter()
            .map(|t| (t.term.as_str(), t.word.as_str()))
            .collect();
        assert_eq!(words, vec![("retri", "retries"), ("time", "timing")]);
    }
}
