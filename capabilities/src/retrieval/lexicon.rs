//! A developer's lexicon: the words users of software say for what its pages say otherwise.
//!
//! Two kinds of gap are specific to software and the same across projects, which a general
//! thesaurus (WordNet, tried and not kept) does not bridge: abbreviations and spellings of one
//! meaning (`config` / `configuration`, `dir` / `directory`), searched both ways at
//! [`SAME_WEIGHT`]; and symptoms a user sees (`hangs`, `garbled`) against the mechanisms pages
//! describe (`timeout`, `encoding`), searched one way at [`SYMPTOM_WEIGHT`]. The groups are in
//! `data/developer-lexicon.txt`, parsed once; a query word costs one hash lookup.
//!
//! Expansions only rank: they are searched after the query's own terms, so they hold no place
//! in the idf weights confidence reads, and the user's word stays unmatched (or unknown) as it
//! would be without them. An unanswerable question must not look more answerable because a
//! symptom word reads as a common mechanism word.

use std::collections::HashMap;
use std::sync::OnceLock;

const TEXT: &str = include_str!("../../data/developer-lexicon.txt");

/// Weight of a same-meaning reading (an abbreviation, a spelling) relative to the word as
/// typed: the weight the engine gives any reading of a word as another term (a typo's).
pub const SAME_WEIGHT: f64 = 0.7;
/// Weight of a mechanism read for a symptom: a hint, not the same meaning.
pub const SYMPTOM_WEIGHT: f64 = 0.3;

/// One other term a query term also searches.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    /// The index term (a stem, or the pair term of a two-word entry).
    pub term: String,
    /// The entry as the lexicon writes it, for explanations ("read hangs as timeout").
    pub word: String,
    /// Multiplies the term's idf.
    pub weight: f64,
}

/// Query term (stemmed as queries are) → what it also searches.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    map: HashMap<String, Vec<Expansion>>,
}

/// The index term of a lexicon entry: one word's stem, or the pair term of two words.
fn entry_term(entry: &str) -> Option<String> {
    let words: Vec<&str> = entry.split_whitespace().collect();
    match words[..] {
        [w] => super::tokens::word_term(w),
        [a, b] => Some(super::index::bigram(
            &super::tokens::word_term(a)?,
            &super::tokens::word_term(b)?,
        )),
        _ => None,
    }
}

fn entries(list: &str) -> Vec<(String, String)> {
    list.split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .filter_map(|e| Some((entry_term(e)?, e.to_string())))
        .collect()
}

impl Lexicon {
    /// Parses the lexicon's text format (see the data file's header); a line that is neither a
    /// comment, blank, `same:` nor `symptom: … -> …` is an error naming its line.
    pub fn parse(text: &str) -> Result<Lexicon, String> {
        let mut lex = Lexicon::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (keys, targets, weight) = if let Some(rest) = line.strip_prefix("same:") {
                let all = entries(rest);
                (all.clone(), all, SAME_WEIGHT)
            } else if let Some(rest) = line.strip_prefix("symptom:") {
                let (from, to) = rest
                    .split_once("->")
                    .ok_or_else(|| format!("line {}: a symptom needs `->`", n + 1))?;
                (entries(from), entries(to), SYMPTOM_WEIGHT)
            } else {
                return Err(format!("line {}: neither `same:` nor `symptom:`", n + 1));
            };
            // Only a single word can be a query term; a pair is only ever searched.
            for (key, _) in keys.iter().filter(|(k, _)| !k.contains(' ')) {
                let out = lex.map.entry(key.clone()).or_default();
                for (term, word) in &targets {
                    if term == key {
                        continue;
                    }
                    match out.iter_mut().find(|e| &e.term == term) {
                        Some(e) => e.weight = e.weight.max(weight),
                        None => out.push(Expansion {
                            term: term.clone(),
                            word: word.clone(),
                            weight,
                        }),
                    }
                }
            }
        }
        lex.map.retain(|_, v| !v.is_empty());
        Ok(lex)
    }

    /// The shipped lexicon (`data/developer-lexicon.txt`), parsed once; empty if it does not
    /// parse (a test keeps it parsing).
    pub fn shipped() -> &'static Lexicon {
        static L: OnceLock<Lexicon> = OnceLock::new();
        L.get_or_init(|| Lexicon::parse(TEXT).unwrap_or_default())
    }

    /// What a query term (stemmed) also searches, in the lexicon's order.
    pub fn expansions(&self, term: &str) -> &[Expansion] {
        self.map.get(term).map_or(&[], Vec::as_slice)
    }

    /// How many query terms have expansions.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no term has expansions.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(l: &Lexicon, t: &str) -> Vec<(String, f64)> {
        l.expansions(t)
            .iter()
            .map(|e| (e.term.clone(), e.weight))
            .collect()
    }

    #[test]
    fn the_shipped_lexicon_parses() {
        let l = Lexicon::parse(TEXT).expect("shipped lexicon parses");
        assert!(l.len() > 100, "{} keys", l.len());
        assert_eq!(Lexicon::shipped().len(), l.len());
    }

    #[test]
    fn abbreviations_go_both_ways_by_stem() {
        let l = Lexicon::shipped();
        // "config" → configuration, configure (both stem to `configur`), conf, cfg.
        let config = terms(l, "config");
        assert!(
            config.contains(&("configur".into(), SAME_WEIGHT)),
            "{config:?}"
        );
        assert!(config.contains(&("cfg".into(), SAME_WEIGHT)), "{config:?}");
        assert_eq!(config.iter().filter(|(t, _)| t == "configur").count(), 1);
        // The page's word reads the user's abbreviation too.
        let directory = crate::retrieval::tokens::word_term("directories").expect("a word");
        assert!(terms(l, &directory).contains(&("dir".into(), SAME_WEIGHT)));
        // A two-word entry is searched as the index's pair term, never a key.
        let stdout = terms(l, "stdout");
        assert_eq!(stdout, vec![("standard output".into(), SAME_WEIGHT)]);
        assert!(l.expansions("standard output").is_empty());
        // A pruned group (commented out) reads nothing.
        assert!(l.expansions("var").is_empty());
    }

    #[test]
    fn symptoms_read_as_mechanisms_one_way() {
        let l = Lexicon::shipped();
        let hang = crate::retrieval::tokens::word_term("hangs").expect("a word");
        let t = terms(l, &hang);
        assert!(t.contains(&("timeout".into(), SYMPTOM_WEIGHT)), "{t:?}");
        assert!(t.contains(&("block".into(), SYMPTOM_WEIGHT)), "{t:?}");
        assert!(
            l.expansions("timeout").is_empty(),
            "a mechanism is no symptom"
        );
        let e = &l.expansions(&hang)[0];
        assert_eq!(e.word, "timeout");
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(Lexicon::parse("symptom: hang, stuck").is_err());
        assert!(Lexicon::parse("synonym: a, b").is_err());
        let l = Lexicon::parse("# note\n\nsame: dir, directory\n").expect("parses");
        assert_eq!(terms(&l, "dir"), vec![("directori".into(), SAME_WEIGHT)]);
    }
}
