//! "Did you mean": the nearest of some known names to a name that matched none of them, for
//! errors that teach (a section id with a typo, an unknown node id).

/// The candidate closest to `wanted` by edit distance (two neighbouring letters swapped count
/// as one edit: `setpu` is a typo of `setup`), when it is close enough to be a typo: at most a
/// third of the longer name's characters differ (and at least one character is the same). Ties
/// go to the first candidate in order, so the suggestion is deterministic.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == wanted {
            continue;
        }
        let d = strsim::osa_distance(wanted, c);
        let longest = wanted.chars().count().max(c.chars().count());
        if d * 3 > longest || d >= longest {
            continue;
        }
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn typos_are_suggested_and_strangers_are_not() {
        let ids = ["backoff", "retries", "overview"];
        assert_eq!(nearest("backof", ids), Some("backoff"));
        assert_eq!(nearest("retreis", ids), Some("retries"));
        assert_eq!(nearest("setpu", ["setup"]), Some("setup"));
        assert_eq!(nearest("retires", ids), Some("retries"));
        assert_eq!(nearest("payments", ids), None);
        assert_eq!(nearest("backoff", ids), None);
        assert_eq!(nearest("x", ["y"]), None);
    }
}
