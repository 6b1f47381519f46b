//! A static sentence embedding: a text's vector is the mean of its WordPiece tokens' rows in a
//! fixed table, so texts that say the same thing in other words can be told apart from texts
//! that merely share a word.
//!
//! The table (`data/semantic/minilm-static-256.i8`, 30 522 × 256, int8 with one scale a row) was
//! distilled from all-MiniLM-L6-v2 (Apache-2.0) and trained further on permissive Debian
//! documentation paragraphs (the stop-57 study, issue 8); its rows are the BERT uncased
//! vocabulary's tokens (`data/semantic/vocab.txt`, row `i` = line `i`). The tokenizer is exactly
//! Hugging Face's for that vocabulary, as the teacher's `tokenizer.json` configures it, and is
//! held to it token for token (`testdata/semantic/wordpiece-cases.json`).
//!
//! Both files are compiled in and parsed once. A malformed table is a bug of ours, which a unit
//! test catches; at run time it makes every vector unavailable ([`embed`] answers `None`), never
//! a panic.

use ontoly_graph::graph::fasthash::FastMap;
use std::sync::OnceLock;
use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_normalization::UnicodeNormalization;

const TABLE: &[u8] = include_bytes!("../../data/semantic/minilm-static-256.i8");
const VOCAB: &str = include_str!("../../data/semantic/vocab.txt");

/// The table's magic bytes.
const MAGIC: &[u8; 8] = b"ONTSEMB1";
/// Rows of the table: the BERT uncased vocabulary's size.
pub const ROWS: usize = 30_522;
/// Dimensions of a vector.
pub const DIMS: usize = 256;
/// The unknown token's id, which a text's vector leaves out.
const UNK: u32 = 100;
/// Longer words are one `[UNK]` (WordPiece's `max_input_chars_per_word`).
const MAX_WORD_CHARS: usize = 100;
/// The tokens the tokenizer matches in the raw text before anything else (`added_tokens`, not
/// normalized), with their ids.
const SPECIAL: [(&str, u32); 5] = [
    ("[PAD]", 0),
    ("[UNK]", 100),
    ("[CLS]", 101),
    ("[SEP]", 102),
    ("[MASK]", 103),
];

/// The parsed table and vocabulary.
struct Table {
    /// One scale a row: a row's value `d` is `quants[row * DIMS + d] as i8 as f32 * scale`.
    scales: Vec<f32>,
    quants: &'static [u8],
    vocab: FastMap<&'static str, u32>,
}

/// Reads the table's layout (little-endian): magic, `u32` rows, `u32` dims, rows × `f32`
/// scale, rows × dims `i8`; and the vocabulary, one token a line, as many as rows.
fn parse(bytes: &'static [u8], vocab: &'static str) -> Result<Table, String> {
    let u32_at = |at: usize| -> Option<u32> {
        let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b))
    };
    if bytes.get(..8) != Some(MAGIC.as_slice()) {
        return Err("no ONTSEMB1 magic".into());
    }
    let (rows, dims) = match (u32_at(8), u32_at(12)) {
        (Some(r), Some(d)) => (r as usize, d as usize),
        _ => return Err("truncated header".into()),
    };
    if (rows, dims) != (ROWS, DIMS) {
        return Err(format!("{rows} × {dims}, not {ROWS} × {DIMS}"));
    }
    let scales_at = 16;
    let quants_at = scales_at + rows * 4;
    if bytes.len() != quants_at + rows * dims {
        return Err(format!(
            "{} bytes, not {}",
            bytes.len(),
            quants_at + rows * dims
        ));
    }
    let scales: Vec<f32> = bytes[scales_at..quants_at]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if scales.iter().any(|s| !s.is_finite()) {
        return Err("a scale is not finite".into());
    }
    let tokens: Vec<&str> = vocab.lines().collect();
    if tokens.len() != rows {
        return Err(format!("{} vocabulary lines, not {rows}", tokens.len()));
    }
    let mut map = FastMap::default();
    for (id, t) in tokens.into_iter().enumerate() {
        if map.insert(t, id as u32).is_some() {
            return Err(format!("vocabulary token {t:?} twice"));
        }
    }
    for (name, id) in SPECIAL {
        if map.get(name) != Some(&id) {
            return Err(format!("{name} is not token {id}"));
        }
    }
    Ok(Table {
        scales,
        quants: &bytes[quants_at..],
        vocab: map,
    })
}

/// The table, parsed on first use; `None` when it is malformed.
fn table() -> Option<&'static Table> {
    static T: OnceLock<Option<Table>> = OnceLock::new();
    T.get_or_init(|| parse(TABLE, VOCAB).ok()).as_ref()
}

/// BERT's "control" characters, which cleaning drops: the other categories (`C*`) but
/// unassigned code points, and never tab, newline or carriage return (whitespace).
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r')
        && matches!(
            get_general_category(c),
            Gc::Control | Gc::Format | Gc::PrivateUse | Gc::Surrogate
        )
}

/// The CJK ideograph blocks BERT puts spaces around (Hugging Face's list).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B920..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

/// A character that is a token of its own: ASCII punctuation (which includes `$+<=>^`|~`) or
/// any Unicode punctuation (`P*`).
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            get_general_category(c),
            Gc::ConnectorPunctuation
                | Gc::DashPunctuation
                | Gc::OpenPunctuation
                | Gc::ClosePunctuation
                | Gc::InitialPunctuation
                | Gc::FinalPunctuation
                | Gc::OtherPunctuation
        )
}

/// `BertNormalizer {clean_text, handle_chinese_chars, strip_accents: None, lowercase}`, in its
/// order: clean (drop NUL, U+FFFD and controls, whitespace to a space), spaces around CJK
/// ideographs, strip accents (NFD, nonspacing marks dropped: `None` follows `lowercase`), then
/// lowercase a character at a time.
fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if matches!(c, '\t' | '\n' | '\r') || c.is_whitespace() {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.extend([' ', c, ' ']);
        } else {
            cleaned.push(c);
        }
    }
    cleaned
        .nfd()
        .filter(|&c| get_general_category(c) != Gc::NonspacingMark)
        .flat_map(char::to_lowercase)
        .collect()
}

impl Table {
    /// The token ids of `text`, `[UNK]` included.
    fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut rest = text;
        // The special tokens are matched in the raw text first; the text between them is
        // tokenized on its own. Each starts with `[`, a token of its own, so splitting there
        // never joins or parts a word.
        while let Some((at, name, id)) = first_special(rest) {
            self.tokenize_plain(&rest[..at], &mut ids);
            ids.push(id);
            rest = &rest[at + name.len()..];
        }
        self.tokenize_plain(rest, &mut ids);
        ids
    }

    /// BertPreTokenizer (split on whitespace, each punctuation character a word) and WordPiece
    /// over the normalized text.
    fn tokenize_plain(&self, text: &str, ids: &mut Vec<u32>) {
        let normalized = normalize(text);
        for chunk in normalized.split(char::is_whitespace) {
            let mut start = 0;
            for (i, c) in chunk.char_indices() {
                if is_punctuation(c) {
                    self.wordpiece(&chunk[start..i], ids);
                    self.wordpiece(&chunk[i..i + c.len_utf8()], ids);
                    start = i + c.len_utf8();
                }
            }
            self.wordpiece(&chunk[start..], ids);
        }
    }

    /// Greedy longest-match-first WordPiece with `##` continuations; a word longer than
    /// [`MAX_WORD_CHARS`] or one the pieces do not cover is one `[UNK]`.
    fn wordpiece(&self, word: &str, ids: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if word.chars().count() > MAX_WORD_CHARS {
            ids.push(UNK);
            return;
        }
        let first = ids.len();
        let mut piece = String::with_capacity(word.len() + 2);
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let found = loop {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(piece.as_str()) {
                    break Some(id);
                }
                match word[start..end].char_indices().next_back() {
                    Some((last, _)) if last > 0 => end = start + last,
                    _ => break None,
                }
            };
            let Some(id) = found else {
                ids.truncate(first);
                ids.push(UNK);
                return;
            };
            ids.push(id);
            start = end;
        }
    }

    /// Adds the rows of the known tokens among `ids` to `sum`, in order; how many it added.
    fn add_rows(&self, ids: &[u32], sum: &mut [f32]) -> usize {
        let mut n = 0;
        for &id in ids {
            if id == UNK {
                continue;
            }
            let row = id as usize;
            let (Some(&scale), Some(q)) = (
                self.scales.get(row),
                self.quants.get(row * DIMS..(row + 1) * DIMS),
            ) else {
                continue;
            };
            for (s, &b) in sum.iter_mut().zip(q) {
                *s += f32::from(b as i8) * scale;
            }
            n += 1;
        }
        n
    }

    /// The mean of the rows of `text`'s known tokens, summed in token order; zeros when it has
    /// none.
    fn embed(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0f32; DIMS];
        let n = self.add_rows(&self.tokenize(text), &mut sum);
        divide(&mut sum, n);
        sum
    }

    /// [`embed_with_sentences`], tokenizing the body once.
    fn embed_with_sentences(&self, head: &str, body: &str, each: impl FnMut(&[f32])) -> Vec<f32> {
        let mut each = each;
        let mut whole = vec![0f32; DIMS];
        // The line break between head and body is whitespace: no token.
        let mut n = self.add_rows(&self.tokenize(head), &mut whole);
        // One buffer for every sentence: a long body costs time, not memory.
        let mut sentence = vec![0f32; DIMS];
        for piece in body.split_inclusive(SENTENCE_ENDS) {
            let (text, end) = match piece.char_indices().last() {
                Some((at, c)) if SENTENCE_ENDS.contains(&c) => piece.split_at(at),
                _ => (piece, ""),
            };
            let ids = self.tokenize(text);
            // The body's rows in the order a tokenization of the whole text adds them (each
            // piece's, then its ending's), so the vector is the one `embed` gives, bit for bit.
            n += self.add_rows(&ids, &mut whole);
            if text.split_whitespace().count() >= SENTENCE_MIN_WORDS {
                sentence.iter_mut().for_each(|x| *x = 0.0);
                let k = self.add_rows(&ids, &mut sentence);
                divide(&mut sentence, k);
                each(&sentence);
            }
            n += self.add_rows(&self.tokenize(end), &mut whole);
        }
        divide(&mut whole, n);
        whole
    }
}

/// `sum / n` in place (left as it is, zeros, when `n` is 0).
fn divide(sum: &mut [f32], n: usize) {
    if n > 0 {
        let n = n as f32;
        sum.iter_mut().for_each(|s| *s /= n);
    }
}

/// What ends a sentence of a section's body: a line end, `.`, `?` or `!` (a dotted name or a
/// version is cut too; its pieces are too short to count).
pub const SENTENCE_ENDS: [char; 4] = ['\n', '.', '?', '!'];

/// The fewest words a piece between [`SENTENCE_ENDS`] needs to count as a sentence: a heading's
/// "Retries." line or the halves of `v2.28` do not.
pub const SENTENCE_MIN_WORDS: usize = 3;

/// The first special token in `text`: its byte offset, spelling and id.
fn first_special(text: &str) -> Option<(usize, &'static str, u32)> {
    text.match_indices('[').find_map(|(at, _)| {
        SPECIAL
            .iter()
            .find(|(name, _)| text[at..].starts_with(name))
            .map(|&(name, id)| (at, name, id))
    })
}

/// The BERT uncased token ids of `text` (`[UNK]` included, no `[CLS]`/`[SEP]` added), as
/// Hugging Face's tokenizer gives them; `None` when the table is unavailable.
pub fn token_ids(text: &str) -> Option<Vec<u32>> {
    Some(table()?.tokenize(text))
}

/// The vector of `text`: the mean of its known tokens' rows ([`DIMS`] values; zeros when no
/// token is known); `None` when the table is unavailable.
pub fn embed(text: &str) -> Option<Vec<f32>> {
    Some(table()?.embed(text))
}

/// The vector of `head` and `body` as one text (`embed(head + "\n" + body)`, the same values),
/// giving `each` the vector of every sentence of `body` on the way (the pieces between
/// [`SENTENCE_ENDS`] of at least [`SENTENCE_MIN_WORDS`] words, in order; the slice is reused, so
/// keep what you need of it), the body tokenized once; `None` when the table is unavailable.
pub fn embed_with_sentences(head: &str, body: &str, each: impl FnMut(&[f32])) -> Option<Vec<f32>> {
    Some(table()?.embed_with_sentences(head, body, each))
}

/// The cosine of two vectors, in `f64`; 0 when either is zero.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (f64::from(x), f64::from(y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body tokenized once gives the vectors a tokenization of each text gives, bit for bit:
    /// the whole text's, and each sentence's.
    #[test]
    fn a_text_and_its_sentences_in_one_pass() {
        let cases = [
            (
                "Retries",
                "Retries.\nA declined card is charged again, e.g. three times. Why?",
            ),
            (
                "",
                "v2.28.0 raised [UNK] and [SEP] tokens... Café déjà vu! it works",
            ),
            ("Page title", "no ending at all here"),
            ("Title", ""),
            ("", "a b c.d e f?g h i!\n\n\nj k l"),
        ];
        for (head, body) in cases {
            let mut sentences: Vec<Vec<f32>> = Vec::new();
            let whole = embed_with_sentences(head, body, |v| sentences.push(v.to_vec()))
                .expect("the table");
            let joined = if head.is_empty() {
                body.to_string()
            } else {
                format!("{head}\n{body}")
            };
            assert_eq!(whole, embed(&joined).expect("the table"), "{joined:?}");
            let expected: Vec<Vec<f32>> = body
                .split(SENTENCE_ENDS)
                .filter(|p| p.split_whitespace().count() >= SENTENCE_MIN_WORDS)
                .filter_map(embed)
                .collect();
            assert_eq!(sentences, expected, "{body:?}");
        }
    }

    #[test]
    fn the_table_parses_whole() {
        let t = parse(TABLE, VOCAB).expect("the shipped table parses");
        assert_eq!((t.scales.len(), t.quants.len()), (ROWS, ROWS * DIMS));
        assert_eq!(t.vocab.len(), ROWS);
        let row = |id: u32| &t.quants[id as usize * DIMS..(id as usize + 1) * DIMS];
        // "retry" is `re ##try` in this vocabulary: both rows carry a vector.
        assert_eq!(t.tokenize("retry"), [t.vocab["re"], t.vocab["##try"]]);
        for id in t.tokenize("retry") {
            assert!(row(id).iter().any(|&q| q != 0) && t.scales[id as usize] > 0.0);
        }
        // The distillation left out the 994 `[unusedN]` tokens: their rows are zero, all others not.
        let zero: Vec<u32> = (0..ROWS as u32)
            .filter(|&id| row(id).iter().all(|&q| q == 0))
            .collect();
        assert_eq!(zero.len(), 994);
        let unused = |id: &u32| {
            VOCAB
                .lines()
                .nth(*id as usize)
                .is_some_and(|l| l.starts_with("[unused"))
        };
        assert!(zero.iter().all(unused));
        let v = embed("retry").expect("the table is available");
        assert_eq!(v.len(), DIMS);
        assert!(v.iter().any(|&x| x != 0.0));
    }

    #[test]
    fn a_malformed_table_is_refused() {
        // Leaked once per case: `parse` borrows the bytes for the process's life.
        let leak = |b: Vec<u8>| -> &'static [u8] { Box::leak(b.into_boxed_slice()) };
        let mut bad_magic = TABLE.to_vec();
        bad_magic[0] = b'X';
        assert!(parse(leak(bad_magic), VOCAB).is_err());
        assert!(parse(&TABLE[..TABLE.len() - 1], VOCAB).is_err());
        assert!(parse(&TABLE[..12], VOCAB).is_err());
        let mut dims = TABLE.to_vec();
        dims[12..16].copy_from_slice(&128u32.to_le_bytes());
        assert!(parse(leak(dims), VOCAB).is_err());
        let short_vocab = VOCAB.rsplit_once("\n[").map_or("", |(head, _)| head);
        assert!(parse(TABLE, short_vocab).is_err());
        assert!(parse(TABLE, "").is_err());
    }

    #[derive(serde::Deserialize)]
    struct Cases {
        cases: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        kind: String,
        text: String,
        ids: Vec<u32>,
    }

    /// Every case of `testdata/semantic/wordpiece-cases.json` (written by Hugging Face's
    /// tokenizer from the same tokenizer.json, `make-cases.py`) is tokenized to the same ids.
    #[test]
    fn tokens_are_hugging_faces() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/semantic/wordpiece-cases.json"
        );
        let text = std::fs::read_to_string(path).expect("the cases file is read");
        let cases: Cases = serde_json::from_str(&text).expect("the cases file parses");
        assert!(cases.cases.len() >= 700, "{} cases", cases.cases.len());
        let kinds = |k: &str| cases.cases.iter().filter(|c| c.kind == k).count();
        assert!(kinds("question") >= 500 && kinds("section") >= 150 && kinds("edge") >= 30);
        let mut checked = 0;
        for c in &cases.cases {
            let ids = token_ids(&c.text).expect("the table is available");
            assert_eq!(ids, c.ids, "{:?}", c.text);
            checked += 1;
        }
        assert_eq!(checked, cases.cases.len());
    }

    #[test]
    fn a_paraphrase_is_closer_than_an_unrelated_sentence() {
        let v = |t: &str| embed(t).expect("the table is available");
        let q = v("how many times does it retry");
        let answer = cosine(
            &q,
            &v("Retries: the request is sent again up to max_retries times"),
        );
        let unrelated = cosine(&q, &v("The logo is drawn in blue on a white background"));
        assert!(answer > unrelated, "{answer} vs {unrelated}");
        assert!(answer > 0.0 && answer <= 1.0 + 1e-9);
    }

    #[test]
    fn a_text_of_unknown_tokens_is_the_zero_vector() {
        let zero = embed("🚀 \u{fffd} [UNK]").expect("the table is available");
        assert!(zero.iter().all(|&x| x == 0.0));
        let retry = embed("retry").expect("the table is available");
        assert_eq!(cosine(&zero, &retry), 0.0);
        assert_eq!(cosine(&retry, &zero), 0.0);
        assert!((cosine(&retry, &retry) - 1.0).abs() < 1e-9);
    }
}
