//! Common English words, to tell a paraphrase from a missing topic.
//!
//! A query word the workspace never uses says little when it is everyday English ("behind",
//! "tweak", "particular": the page says it in other words), and much when it is not
//! ("websocket", "pytest", "NTLM": the page is not about it). The list is SCOWL's
//! `american-english-small` (about 40 000 words, as Debian's `wamerican-small` ships it;
//! licence in `data/english-words.LICENSE`), lowercased and sorted.

use std::sync::OnceLock;

const WORDS: &str = include_str!("../../data/english-words.txt");

fn words() -> &'static [&'static str] {
    static W: OnceLock<Vec<&'static str>> = OnceLock::new();
    W.get_or_init(|| {
        WORDS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect()
    })
}

/// Whether `word` (any case) is a common English word.
pub fn is_common(word: &str) -> bool {
    let w = word.to_lowercase();
    words().binary_search(&w.as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyday_words_are_common_and_jargon_is_not() {
        assert!(is_common("behind"));
        assert!(is_common("Particular"));
        assert!(!is_common("websocket"));
        assert!(!is_common("pytest"));
        let w = words();
        assert!(w.windows(2).all(|p| p[0] < p[1]), "sorted and distinct");
    }
}
