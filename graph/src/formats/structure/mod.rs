//! `knowledge/structure.yaml`: the approved structure, every section's references.
//!
//! Parsed tolerantly: a field of the wrong type reads as missing, so that one bad entry becomes
//! a diagnostic about that entry rather than a failure of the whole file.

use crate::formats::yaml::{get_str, Loaded, NodeBudget, YamlError};

mod fast;
use serde::{Deserialize, Serialize};
use yaml_serde::Value;

/// The only schema version this reader accepts.
pub const SCHEMA_VERSION: &str = "context.approved-structure.v1";

/// The parsed structure file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Structure {
    /// `schema_version`, when it is a string.
    pub schema_version: Option<String>,
    /// `articles`, when it is a sequence.
    pub articles: Option<Vec<ArticleEntry>>,
    /// Top-level keys this reader does not know (tolerated, reported as warnings).
    pub unknown_keys: Vec<String>,
    /// The 1-based line of each plain top-level key (`name:` at column 0), so findings about
    /// the whole file can point at the key without reading the file again.
    #[serde(default)]
    pub key_lines: std::collections::BTreeMap<String, u64>,
}

impl Structure {
    /// The line of top-level key `key`, or 1 when it is absent or not in the plain layout.
    pub fn key_line(&self, key: &str) -> u64 {
        self.key_lines.get(key).copied().unwrap_or(1)
    }
}

/// One entry of `articles`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArticleEntry {
    /// 1-based line of the entry in structure.yaml (0 when unknown).
    pub line: u64,
    /// `article_id`.
    pub article_id: Option<String>,
    /// `path`, relative to `knowledge/`.
    pub path: Option<String>,
    /// `collection`.
    pub collection: Option<String>,
    /// `visibility`.
    pub visibility: Option<String>,
    /// `sections`, when it is a sequence.
    pub sections: Option<Vec<SectionEntry>>,
    /// Keys of the entry ontoly does not know that closely spell a known key it lacks.
    #[serde(default)]
    pub misspelled: Vec<Misspelled>,
}

/// A key ontoly does not know, written in an entry that lacks the known key it closely spells
/// (`section:` for `sections:`): the diagnostics about the missing key name it, since they
/// would otherwise send the author to add what is already there under the misspelled key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misspelled {
    /// The key as written.
    pub written: String,
    /// The known key it most likely meant.
    pub meant: String,
    /// Its 1-based line in structure.yaml (0 when unknown).
    pub line: u64,
}

impl Misspelled {
    /// What a diagnostic about the missing key adds: "`section` at line 7 is not a key ontoly
    /// knows: did you mean `sections`?".
    pub fn hint(&self) -> String {
        let at = if self.line > 0 {
            format!(" at line {}", self.line)
        } else {
            String::new()
        };
        format!(
            "`{}`{at} is not a key ontoly knows: did you mean `{}`?",
            crate::formats::text::one_line(&self.written),
            self.meant
        )
    }
}

/// The hint of the entry's misspelling of `key`, if it has one, led by `lead`.
pub fn misspelling_of(misspelled: &[Misspelled], key: &str, lead: &str) -> String {
    (misspelled.iter().find(|m| m.meant == key))
        .map(|m| format!("{lead}{}", m.hint()))
        .unwrap_or_default()
}

const ARTICLE_KEYS: &[&str] = &["article_id", "path", "collection", "visibility", "sections"];
const SECTION_KEYS: &[&str] = &["id", "references"];
const REFERENCE_KEYS: &[&str] = &["source_ref", "locator", "content_digest"];

/// The keys of mapping `v` outside `known` that closely spell a key of `known` that `v` lacks
/// (lines filled later, from the text).
fn misspelled_keys(v: &Value, known: &[&str]) -> Vec<Misspelled> {
    let Some(m) = v.as_mapping() else {
        return Vec::new();
    };
    let missing: Vec<&str> = (known.iter().copied())
        .filter(|k| !m.contains_key(*k))
        .collect();
    if missing.is_empty() || m.len() <= known.len() - missing.len() {
        return Vec::new();
    }
    (m.keys().filter_map(Value::as_str))
        .filter(|k| !known.contains(k))
        .filter_map(|k| {
            let meant = crate::suggest::nearest(k, missing.iter().copied())?;
            Some(Misspelled {
                written: k.to_string(),
                meant: meant.to_string(),
                line: 0,
            })
        })
        .collect()
}

/// One entry of an article's `sections`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SectionEntry {
    /// 1-based line in structure.yaml (0 when unknown).
    pub line: u64,
    /// `id`, when it is a string.
    pub id: Option<String>,
    /// `references`, when it is a sequence.
    pub references: Option<Vec<ReferenceEntry>>,
    /// Keys of the entry ontoly does not know that closely spell a known key it lacks.
    #[serde(default)]
    pub misspelled: Vec<Misspelled>,
}

/// One recorded reference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReferenceEntry {
    /// 1-based line in structure.yaml (0 when unknown).
    pub line: u64,
    /// `source_ref` as written: a string, or the YAML text of another scalar.
    pub source_ref: Option<String>,
    /// Whether `source_ref` was a YAML string (a number or a map is not a valid ref).
    pub source_ref_is_string: bool,
    /// `locator`, when it has a string path and integer lines.
    pub locator: Option<Locator>,
    /// Whether a `locator` key was present at all.
    pub has_locator: bool,
    /// `content_digest`, when it is a string.
    pub content_digest: Option<String>,
    /// The locator's fields one by one, so that a reader can say which one is wrong.
    #[serde(default)]
    pub locator_parts: LocatorParts,
    /// Keys of the entry ontoly does not know that closely spell a known key it lacks.
    #[serde(default)]
    pub misspelled: Vec<Misspelled>,
}

/// The fields of a `locator` taken separately, each present only when of the right type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocatorParts {
    /// `path`, when it is a string (possibly empty).
    pub path: Option<String>,
    /// `start_line`, when it is a non-negative integer.
    pub start_line: Option<u64>,
    /// `end_line`, when it is a non-negative integer.
    pub end_line: Option<u64>,
}

impl ReferenceEntry {
    /// `source_ref` as the JSON value Context's plugin echoes in diagnostics: the string, the
    /// value of another scalar (a number, a boolean), or `null` when absent; credentials
    /// redacted ([`crate::formats::remote::redact`]).
    pub fn source_ref_json(&self) -> serde_json::Value {
        use crate::formats::remote::redact;
        match (&self.source_ref, self.source_ref_is_string) {
            (Some(s), true) => serde_json::Value::String(redact(s)),
            (Some(text), false) => crate::formats::yaml::parse_value(&redact(text))
                .ok()
                .and_then(|v| serde_json::to_value(v).ok())
                .unwrap_or(serde_json::Value::Null),
            (None, _) => serde_json::Value::Null,
        }
    }
}

/// Where the cited content is: a path and a 1-based inclusive line range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Locator {
    /// The path, relative to the source's root.
    pub path: String,
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
}

/// The largest line number a locator may name: what a `u32` holds (a file of 4 billion lines
/// is far beyond any source file, and no output should carry a number no file can have).
pub const MAX_LINE: u64 = u32::MAX as u64;

impl Locator {
    /// Whether the range is valid (`1 <= start <= end <= MAX_LINE`) and the path is non-empty.
    pub fn is_valid(&self) -> bool {
        self.start_line >= 1
            && self.end_line >= self.start_line
            && self.end_line <= MAX_LINE
            && !self.path.is_empty()
    }
}

const KNOWN_TOP: [&str; 4] = [
    "schema_version",
    "articles",
    "processed_scopes",
    "input_hash",
];

/// Parses structure.yaml text, with entry lines filled (see [`fill_lines`]).
///
/// Large files in the plain block layout are parsed in parallel, one chunk of `articles:`
/// items per task; the result is always identical to a whole-document parse, which is used
/// whenever the layout is not the simple form or any chunk fails (see `parse_chunked`).
pub fn parse_structure(text: &str) -> Result<Structure, YamlError> {
    parse_with(text, tolerant, PARALLEL_MIN_BYTES)
}

/// Whether the reader reads a top-level key's value. The values of the others (`processed_scopes`,
/// `input_hash`, unknown keys) are blanked out unbuilt: a 24 MB `processed_scopes` list once
/// took 2.8 GB.
fn is_read(key: &str) -> bool {
    key == "schema_version" || key == "articles"
}

/// The tolerant parse of structure text.
fn tolerant(text: &str) -> Result<Loaded, YamlError> {
    crate::formats::yaml::parse_value_keeping(text, &is_read, NodeBudget::DEFAULT)
}

/// The JSON-compatible parse of structure text (the plugin's).
fn json(text: &str) -> Result<Loaded, YamlError> {
    crate::formats::yaml::parse_json_compatible_keeping(text, &is_read, NodeBudget::DEFAULT)
}

/// Parses structure.yaml text the way the references output needs it: like
/// [`parse_structure`], and the YAML must also have a JSON form (as in Context's plugin).
pub fn load_structure(text: &str) -> Result<Structure, YamlError> {
    parse_with(text, json, PARALLEL_MIN_BYTES)
}

/// Below this size a whole-document parse is as fast as splitting.
const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// [`parse_structure`] with the size from which files are split into chunks given: `0` splits
/// every file and reads it with the fast block-layout reader where it can, `usize::MAX` never
/// splits. For the differential fuzz target (`fuzz/fuzz_targets/structure_diff.rs`), which
/// needs small inputs to take the chunked path; not an API.
#[doc(hidden)]
pub fn parse_structure_split_from(text: &str, min_bytes: usize) -> Result<Structure, YamlError> {
    parse_with(text, tolerant, min_bytes)
}

type Parser = fn(&str) -> Result<Loaded, YamlError>;

fn parse_with(text: &str, parse: Parser, min_bytes: usize) -> Result<Structure, YamlError> {
    // Before the block scan, which reads keys at the start of lines.
    let text = crate::formats::text::strip_bom(text);
    let items = block_items(text, "articles", 0);
    let mut structure = match parse_chunked(text, &items, parse, min_bytes) {
        // The chunks filled the lines of their articles.
        Some(s) => s,
        None => {
            let mut s = from_loaded(&parse(text)?);
            fill_article_lines(&mut s, text, &items);
            s
        }
    };
    fill_key_lines(&mut structure, text);
    Ok(structure)
}

/// The first line of each of `keys` at the top level: a line that starts with the key and
/// then, after optional blanks, a `:`. Only lines starting at column 0 with something other
/// than a blank, `-` or `#` can be one, so the scan skips the rest by their first byte. Each
/// line is looked up by its prefixes before a `:` (a key may hold `:`), so the scan costs one
/// pass whatever the number of keys (60 000 unknown keys took 109 s when each line was
/// compared with each key).
fn top_level_key_lines<'k>(
    text: &str,
    keys: impl Iterator<Item = &'k str>,
) -> std::collections::BTreeMap<String, u64> {
    let keys: std::collections::HashSet<&str> = keys.collect();
    let mut out = std::collections::BTreeMap::new();
    let bytes = text.as_bytes();
    let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
    for (n, start) in starts.enumerate() {
        if out.len() == keys.len() {
            break;
        }
        match bytes.get(start) {
            None | Some(b' ' | b'\t' | b'-' | b'#' | b'\r' | b'\n') => continue,
            Some(_) => {}
        }
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |e| start + e);
        let line = &text[start..end];
        for colon in memchr::memchr_iter(b':', line.as_bytes()) {
            let key = line[..colon].trim_end();
            if keys.contains(key) && !out.contains_key(key) {
                out.insert(key.to_string(), n as u64 + 1);
            }
        }
    }
    out
}

/// Whether `line` is a plain top-level key line (`name:` at column 0).
fn is_top_level_key(line: &str) -> bool {
    let key_len = line
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    key_len > 0
        && line[key_len..]
            .strip_prefix(':')
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r']))
}

/// The parallel parse: the `articles:` items are split into chunks at top-level item
/// boundaries, each chunk parsed as `articles:\n<items>` on its own, and the rest of the
/// document (with the items cut out) parsed once. `None` means "use a whole-document parse":
/// the file is small, has anchors or aliases (`&`, `*` anywhere), is not in the plain block
/// layout, or any part fails to parse or yields a different item count than the scan found.
/// Every such failure falls back, so errors always come from the whole-document parse.
/// A `\r` not followed by `\n`: a line break to YAML that the line-based block scan does not
/// see (found by the differential fuzz target), so such a text is parsed whole.
fn has_lone_cr(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

fn parse_chunked(
    text: &str,
    items: &[BlockItem],
    parse: Parser,
    min_bytes: usize,
) -> Option<Structure> {
    use rayon::prelude::*;
    // The YAML size limit holds per parse: for each chunk (checked below) and for the rest of
    // the document, not for the whole file, so a million-section structure is read.
    if text.len() < min_bytes
        || memchr::memchr2(b'&', b'*', text.as_bytes()).is_some()
        || has_lone_cr(text.as_bytes())
    {
        return None;
    }
    let (first, last) = (items.first()?, items.last()?);
    let (block_start, block_end) = (first.start, last.end);
    if block_end < text.len() {
        let next = text[block_end..].split('\n').next().unwrap_or("");
        if !is_top_level_key(next) {
            return None;
        }
    }
    // Chunks of roughly equal size, cut only at item starts.
    let threads = rayon::current_num_threads().max(1);
    let target = ((block_end - block_start) / (threads * 4))
        .max(min_bytes / 4)
        .max(1);
    let mut chunks: Vec<&[BlockItem]> = Vec::new();
    let mut from = 0;
    for i in 1..=items.len() {
        let at_end = i == items.len();
        if at_end || items[i].start - items[from].start >= target {
            chunks.push(&items[from..i]);
            from = i;
        }
    }
    let rest = [&text[..block_start], &text[block_end..]].concat();
    let (rest_value, parts) = rayon::join(
        || parse(&rest).ok(),
        || {
            chunks
                .par_iter()
                .map(|chunk| {
                    if let Some(articles) = fast::articles(text, chunk) {
                        return Some(articles);
                    }
                    let (s, e) = (chunk.first()?.start, chunk.last()?.end);
                    if e - s > crate::formats::yaml::MAX_YAML_BYTES {
                        return None;
                    }
                    let doc = ["articles:\n", &text[s..e]].concat();
                    let value = parse(&doc).ok()?.value;
                    let seq = value.get("articles")?.as_sequence()?;
                    (seq.len() == chunk.len()).then(|| {
                        seq.iter()
                            .zip(chunk.iter())
                            .map(|(v, item)| {
                                let mut a = article(v);
                                fill_lines_of(&mut a, text, item);
                                a
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect::<Option<Vec<_>>>()
        },
    );
    let rest = rest_value?;
    // The cut-out block leaves `articles:` empty (null); anything else means the scan and the
    // parser disagree about the layout.
    if !rest.value.get("articles").is_some_and(Value::is_null) {
        return None;
    }
    let mut structure = from_loaded(&rest);
    structure.articles = Some(parts?.into_iter().flatten().collect());
    Some(structure)
}

/// Reads a structure from a parse that left unread entries out: their keys are unknown keys
/// unless the format names them.
fn from_loaded(loaded: &Loaded) -> Structure {
    let mut s = from_value(&loaded.value);
    let skipped = loaded
        .skipped
        .iter()
        .filter(|k| !KNOWN_TOP.contains(&k.as_str()));
    s.unknown_keys.extend(skipped.cloned());
    s
}

/// Reads a structure from an already parsed YAML value.
pub fn from_value(value: &Value) -> Structure {
    let unknown_keys = value
        .as_mapping()
        .map(|m| {
            m.keys()
                .filter_map(|k| k.as_str())
                .filter(|k| !KNOWN_TOP.contains(k))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Structure {
        schema_version: get_str(value, "schema_version").map(str::to_string),
        articles: value
            .get("articles")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(article).collect()),
        unknown_keys,
        key_lines: Default::default(),
    }
}

fn article(v: &Value) -> ArticleEntry {
    ArticleEntry {
        line: 0,
        article_id: get_str(v, "article_id").map(str::to_string),
        path: get_str(v, "path").map(str::to_string),
        collection: get_str(v, "collection").map(str::to_string),
        visibility: get_str(v, "visibility").map(str::to_string),
        sections: v
            .get("sections")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(section).collect()),
        misspelled: misspelled_keys(v, ARTICLE_KEYS),
    }
}

fn section(v: &Value) -> SectionEntry {
    SectionEntry {
        line: 0,
        id: get_str(v, "id").map(str::to_string),
        references: v
            .get("references")
            .and_then(Value::as_sequence)
            .map(|s| s.iter().map(reference).collect()),
        misspelled: misspelled_keys(v, SECTION_KEYS),
    }
}

fn reference(v: &Value) -> ReferenceEntry {
    let raw = v.get("source_ref");
    let (source_ref, source_ref_is_string) = match raw {
        Some(Value::String(s)) => (Some(s.clone()), true),
        Some(Value::Null) | None => (None, false),
        Some(other) => (
            yaml_serde::to_string(other)
                .ok()
                .map(|s| s.trim_end().to_string()),
            false,
        ),
    };
    let loc = v.get("locator");
    let locator_parts = LocatorParts {
        path: loc.and_then(|l| get_str(l, "path")).map(str::to_string),
        start_line: loc
            .and_then(|l| l.get("start_line"))
            .and_then(Value::as_u64),
        end_line: loc.and_then(|l| l.get("end_line")).and_then(Value::as_u64),
    };
    ReferenceEntry {
        line: 0,
        source_ref,
        source_ref_is_string,
        locator_parts,
        has_locator: loc.is_some(),
        locator: loc.and_then(|l| {
            Some(Locator {
                path: get_str(l, "path")?.to_string(),
                start_line: l.get("start_line")?.as_u64()?,
                end_line: l.get("end_line")?.as_u64()?,
            })
        }),
        content_digest: get_str(v, "content_digest").map(str::to_string),
        misspelled: misspelled_keys(v, REFERENCE_KEYS),
    }
}

/// One `- ` item of a block sequence, located in the text by a cheap line scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockItem {
    /// 1-based line of the item's `-`.
    pub line: u64,
    /// Byte offset of the start of that line.
    pub start: usize,
    /// Byte offset just past the item's last line (the next item's start, or the block's end).
    pub end: usize,
    /// Column of the `-`.
    pub indent: usize,
    /// Column where the item's mapping keys start (after `- ` and any spaces).
    pub content: usize,
}

/// Lines of `text[from..to]` as (1-based number, start offset, line without `\n`/`\r`).
fn scan_lines(
    text: &str,
    from: usize,
    to: usize,
    first_line: u64,
) -> impl Iterator<Item = (u64, usize, &str)> {
    let mut pos = from;
    let mut n = first_line;
    std::iter::from_fn(move || {
        if pos >= to {
            return None;
        }
        let rest = &text.as_bytes()[pos..to];
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = &text[pos..pos + len];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let item = (n, pos, line);
        pos += len + 1;
        n += 1;
        Some(item)
    })
}

fn indent_of(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ').count()
}

/// Whether `rest` (a line from its first non-space) is `key:` followed by nothing but
/// whitespace or a comment, i.e. a key whose value is a block on the following lines.
fn is_block_key(rest: &str, key: &str) -> bool {
    rest.strip_prefix(key)
        .and_then(|r| r.strip_prefix(':'))
        .is_some_and(|r| {
            let r = r.trim_start_matches([' ', '\t']);
            r.is_empty() || r.starts_with('#')
        })
}

fn is_dash(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ")
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    t.is_empty() || t.starts_with('#')
}

/// The items of the block sequence that follows the line `key:` found at column `key_col`
/// in `text[from..to]` (whose first line is `first_line`). `key_line_offset`, when given, is
/// where the key line itself is already known to be. Empty when the value is not a block
/// sequence of the simple form.
fn seq_items_after(
    text: &str,
    from: usize,
    to: usize,
    first_line: u64,
    key: &str,
    key_col: usize,
    key_on_first_line: bool,
) -> Vec<BlockItem> {
    let mut items: Vec<BlockItem> = Vec::new();
    let mut found = false;
    let mut seq_indent: Option<usize> = None;
    let mut lines = scan_lines(text, from, to, first_line);
    if key_on_first_line {
        found = true;
        lines.next();
    }
    for (n, start, line) in lines {
        if !found {
            let ind = indent_of(line);
            if ind == key_col && is_block_key(&line[ind..], key) {
                found = true;
            }
            continue;
        }
        if is_blank_or_comment(line) {
            continue;
        }
        let ind = indent_of(line);
        let rest = &line[ind..];
        match seq_indent {
            None => {
                if ind < key_col || !is_dash(rest) {
                    return Vec::new();
                }
                seq_indent = Some(ind);
            }
            Some(i0) if ind < i0 || (ind == i0 && !is_dash(rest)) => {
                if let Some(last) = items.last_mut() {
                    last.end = start;
                }
                return items;
            }
            Some(_) => {}
        }
        if Some(ind) == seq_indent {
            if let Some(last) = items.last_mut() {
                last.end = start;
            }
            let after = &rest[1..];
            let content = ind + 1 + after.bytes().take_while(|&b| b == b' ').count();
            items.push(BlockItem {
                line: n,
                start,
                end: to,
                indent: ind,
                content,
            });
        }
    }
    items
}

/// The items of the top-level block sequence `key:` (at column `key_col`).
pub(crate) fn block_items(text: &str, key: &str, key_col: usize) -> Vec<BlockItem> {
    seq_items_after(text, 0, text.len(), 1, key, key_col, false)
}

/// The items of the block sequence under `key:` inside a mapping item.
pub(crate) fn block_items_in(text: &str, item: &BlockItem, key: &str) -> Vec<BlockItem> {
    let first = &text[item.start..item.end];
    let first = first.split('\n').next().unwrap_or("");
    let on_first = is_block_key(first.get(item.content..).unwrap_or(""), key);
    seq_items_after(
        text,
        item.start,
        item.end,
        item.line,
        key,
        item.content,
        on_first,
    )
}

/// Fills the `line` fields of `structure` from a scan of its text. Counts must agree at every
/// level; where they do not (flow style, anchors, odd layouts) the lines stay 0.
pub fn fill_lines(structure: &mut Structure, text: &str) {
    fill_lines_from(structure, text, &block_items(text, "articles", 0));
}

/// [`fill_lines`] with the top-level items already scanned.
fn fill_lines_from(structure: &mut Structure, text: &str, items: &[BlockItem]) {
    fill_key_lines(structure, text);
    fill_article_lines(structure, text, items);
}

/// The lines of the top-level keys.
fn fill_key_lines(structure: &mut Structure, text: &str) {
    let keys = ["schema_version", "articles"].into_iter();
    structure.key_lines = top_level_key_lines(
        text,
        keys.chain(structure.unknown_keys.iter().map(String::as_str)),
    );
}

/// The lines of every article, section and reference, `items` being the articles' items.
fn fill_article_lines(structure: &mut Structure, text: &str, items: &[BlockItem]) {
    use rayon::prelude::*;
    let Some(articles) = structure.articles.as_mut() else {
        return;
    };
    if items.len() != articles.len() {
        return;
    }
    articles
        .par_iter_mut()
        .zip(items.par_iter())
        .for_each(|(article, item)| fill_lines_of(article, text, item));
}

/// The lines of one article (at `item`), its sections and their references.
fn fill_lines_of(article: &mut ArticleEntry, text: &str, item: &BlockItem) {
    article.line = item.line;
    fill_misspelled_lines(&mut article.misspelled, text, item);
    let Some(sections) = article.sections.as_mut() else {
        return;
    };
    let sec_items = block_items_in(text, item, "sections");
    if sec_items.len() != sections.len() {
        return;
    }
    for (section, sitem) in sections.iter_mut().zip(&sec_items) {
        section.line = sitem.line;
        fill_misspelled_lines(&mut section.misspelled, text, sitem);
        let Some(refs) = section.references.as_mut() else {
            continue;
        };
        let ref_items = block_items_in(text, sitem, "references");
        if ref_items.len() != refs.len() {
            continue;
        }
        for (r, ritem) in refs.iter_mut().zip(&ref_items) {
            r.line = ritem.line;
            fill_misspelled_lines(&mut r.misspelled, text, ritem);
        }
    }
}

/// The line of each misspelled key of the mapping at `item`: a line of the item with the key
/// at the item's key column (after the `- ` on its first line), so that a key of the same name
/// deeper in the item is not taken for it.
fn fill_misspelled_lines(misspelled: &mut [Misspelled], text: &str, item: &BlockItem) {
    if misspelled.is_empty() {
        return;
    }
    for (n, at, line) in scan_lines(text, item.start, item.end, item.line) {
        let key_at = item.content.min(line.len());
        let is_key_column = if at == item.start {
            line.get(item.indent..key_at)
                .is_some_and(|p| p.starts_with('-') && p[1..].bytes().all(|b| b == b' '))
        } else {
            line.get(..key_at)
                .is_some_and(|p| p.bytes().all(|b| b == b' '))
        };
        if !is_key_column {
            continue;
        }
        let rest = &line[key_at..];
        for m in misspelled.iter_mut().filter(|m| m.line == 0) {
            if rest
                .strip_prefix(m.written.as_str())
                .is_some_and(|r| r.trim_start_matches(' ').starts_with(':'))
            {
                m.line = n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::yaml::parse_value;

    #[test]
    fn parses_spec_example() {
        let s = parse_structure(
            "schema_version: context.approved-structure.v1\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    collection: faq\n    visibility: public\n    sections:\n      - id: answer\n        references:\n          - source_ref: repo:acme/server\n            locator: {path: src/plugins.go, start_line: 70, end_line: 116}\n            content_digest: sha256:aa\n      - id: second\n        references: []\n      - id: third\nprocessed_scopes: []\ninput_hash: sha256:x\nextra: 1\n",
        )
        .unwrap();
        assert_eq!(s.schema_version.as_deref(), Some(SCHEMA_VERSION));
        let a = &s.articles.as_ref().unwrap()[0];
        assert_eq!(a.path.as_deref(), Some("faq/guide.md"));
        let secs = a.sections.as_ref().unwrap();
        let r = &secs[0].references.as_ref().unwrap()[0];
        assert_eq!(r.locator.as_ref().unwrap().start_line, 70);
        assert_eq!(secs[1].references.as_ref().map(Vec::len), Some(0));
        assert!(secs[2].references.is_none());
        assert_eq!(s.unknown_keys, ["extra"]);
    }

    #[test]
    fn merge_keys_are_applied_by_every_reader() {
        // Author walk s54: `<<: *common` on an article silently dropped its keys, and in a
        // reference gave a bare "Invalid source_ref".
        let text = "schema_version: context.approved-structure.v1\narticles:\n  - article_id: index\n    path: index.md\n    <<: &common {collection: root, visibility: public}\n    sections:\n      - id: s\n        references:\n          - &pin\n            source_ref: repo:x/y\n            locator: {path: a, start_line: 1, end_line: 2}\n            content_digest: sha256:ab\n          - <<: *pin\n            locator: {path: b, start_line: 3, end_line: 4}\n  - article_id: own\n    path: own.md\n    <<: *common\n    collection: mine\n";
        let s = parse_structure(text).expect("parses");
        let a = s.articles.as_ref().expect("articles");
        let kept = |i: usize| (a[i].collection.as_deref(), a[i].visibility.as_deref());
        assert_eq!(kept(0), (Some("root"), Some("public")));
        assert_eq!(
            kept(1),
            (Some("mine"), Some("public")),
            "the entry's own key wins"
        );
        let refs = a[0].sections.as_ref().expect("sections")[0]
            .references
            .as_ref()
            .expect("refs");
        assert_eq!(refs[1].source_ref.as_deref(), Some("repo:x/y"));
        assert_eq!(refs[1].content_digest.as_deref(), Some("sha256:ab"));
        assert_eq!(refs[1].locator.as_ref().map(|l| l.path.as_str()), Some("b"));
        assert!(refs[1].misspelled.is_empty());
        // A merge without anchors takes the chunked path (and the fast reader declines it).
        let inline = text
            .replace("&common ", "")
            .replace("<<: *common", "<<: {collection: root, visibility: public}")
            .replace("&pin\n            ", "")
            .replace(
                "<<: *pin",
                "<<: {source_ref: repo:x/y, content_digest: sha256:ab}",
            );
        assert_eq!(parse_structure_split_from(&inline, 0), serial(&inline));
        let chunked = parse_structure_split_from(&inline, 0).expect("parses");
        let a = chunked.articles.as_ref().expect("articles");
        assert_eq!(
            (a[1].collection.as_deref(), a[1].visibility.as_deref()),
            (Some("mine"), Some("public"))
        );
        let refs = a[0].sections.as_ref().expect("sections")[0]
            .references
            .as_ref()
            .expect("refs");
        assert_eq!(refs[1].content_digest.as_deref(), Some("sha256:ab"));
        // A merge of something that is no mapping is an error at its line.
        let bad = "articles:\n  - path: a.md\n    <<: 5\n";
        let e = parse_structure(bad).expect_err("refused");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            e.message
                .starts_with("a merge key (`<<`) must name a mapping"),
            "{e}"
        );
    }

    #[test]
    fn numeric_ids_are_not_strings() {
        let s = parse_structure("articles:\n  - path: a.md\n    sections:\n      - id: 1.50\n")
            .unwrap();
        assert_eq!(
            s.articles.unwrap()[0].sections.as_ref().unwrap()[0].id,
            None
        );
    }

    fn serial(text: &str) -> Result<Structure, YamlError> {
        let mut s = from_value(&parse_value(text)?);
        fill_lines(&mut s, text);
        Ok(s)
    }

    /// A generated structure in the writer's block layout, with variations that stress the
    /// splitter: comments between items, flow-style entries, quoted ids, CRLF.
    pub(crate) fn generated(articles: usize, sections: usize, style: usize) -> String {
        let mut t =
            String::from("# approved\nschema_version: context.approved-structure.v1\narticles:\n");
        let (dash, pad) = if style.is_multiple_of(2) {
            ("  - ", "    ")
        } else {
            ("- ", "  ")
        };
        for a in 0..articles {
            t.push_str(&format!("{dash}article_id: a{a}\n{pad}path: faq/a{a}.md\n{pad}collection: faq\n{pad}sections:\n"));
            for s in 0..sections {
                if s % 3 == 2 {
                    t.push_str(&format!("{pad}  - {{id: 's{s}', references: []}}\n"));
                    continue;
                }
                t.push_str(&format!("{pad}  - id: \"s{s}\"\n{pad}    references:\n"));
                for r in 0..2 {
                    t.push_str(&format!(
                        "{pad}      - source_ref: repo:acme/m{r}\n{pad}        locator: {{path: src/f{a}.rs, start_line: {}, end_line: {}}}\n{pad}        content_digest: sha256:{}\n",
                        s + 1,
                        s + 2,
                        "ab".repeat(32)
                    ));
                }
            }
            if a % 7 == 3 {
                t.push_str("# a comment between articles\n\n");
            }
        }
        t.push_str("processed_scopes: [a, b]\ninput_hash: sha256:x\nextra: 1\n");
        if style >= 2 {
            t = t.replace('\n', "\r\n");
        }
        t
    }

    #[test]
    fn chunked_parse_equals_whole_document_parse() {
        for style in 0..4 {
            let text = generated(40, 4, style);
            let want = serial(&text).expect("valid");
            let items = block_items(&text, "articles", 0);
            assert!(
                parse_chunked(&text, &items, tolerant, 1).is_some(),
                "style {style} fell back"
            );
            assert_eq!(
                parse_with(&text, tolerant, 1),
                Ok(want.clone()),
                "style {style}"
            );
            let a = &want.articles.as_ref().expect("articles")[1];
            assert!(a.line > 0 && a.sections.as_ref().expect("sections")[0].line > a.line);
        }
    }

    #[test]
    fn a_lone_carriage_return_is_a_line_break_for_both_parses() {
        // Found by the structure_diff fuzz target: `gest:` is a top-level key after a lone CR.
        let text = "schema_version: context.approved-structure.v0\r\narticles:\r\n  - article_id: faq-guide\r\n    path: faq/guide.md\rgest: x\r\n";
        let whole = parse_structure_split_from(text, usize::MAX).expect("valid");
        assert_eq!(whole.unknown_keys, vec!["gest".to_string()]);
        assert_eq!(parse_structure_split_from(text, 0), Ok(whole));
    }

    #[test]
    fn chunked_parse_falls_back_and_reports_the_whole_document_error() {
        let good = generated(30, 3, 0);
        let cases = [
            // A duplicate key inside one article.
            good.replacen(
                "    collection: faq\n",
                "    collection: faq\n    collection: x\n",
                7,
            ),
            // A second `articles:` at the top level.
            format!("{good}articles: []\n"),
            // A syntax error in the middle of the block.
            good.replacen("path: faq/a12.md", "path: [faq/a12.md", 1),
            // A quoted scalar running into lower indentation (the scan cannot see it).
            good.replacen("path: faq/a5.md", "path: \"faq/a5.md\nb: x\"", 1),
            // Anchors and aliases.
            good.replacen("collection: faq", "collection: &c faq", 1)
                .replacen("collection: faq", "collection: *c", 1),
            // A second document.
            good.replacen("  - article_id: a9\n", "---\n  - article_id: a9\n", 1),
        ];
        for (i, text) in cases.iter().enumerate() {
            assert_eq!(parse_with(text, tolerant, 1), serial(text), "case {i}");
        }
        // An article that holds two items for the scan but one for the parser.
        let merged = good.replacen("    path: faq/a3.md", "    path: \"faq/a3.md\n  - x\"", 1);
        assert_eq!(parse_with(&merged, tolerant, 1), serial(&merged));
    }

    #[test]
    fn lines_of_articles_sections_and_references() {
        let text = "schema_version: context.approved-structure.v1\narticles:\n- article_id: a\n  path: a.md\n  sections:\n  - id: one\n    references:\n    - source_ref: repo:x/y\n      locator: {path: p, start_line: 1, end_line: 1}\n    # comment\n    - source_ref: repo:x/z\n  - id: two\n    references: []\n- article_id: b\n  sections: [{id: s}]\n";
        let s = parse_structure(text).expect("valid");
        let arts = s.articles.expect("articles");
        assert_eq!((arts[0].line, arts[1].line), (3, 14));
        let secs = arts[0].sections.as_ref().expect("sections");
        assert_eq!((secs[0].line, secs[1].line), (6, 12));
        let refs = secs[0].references.as_ref().expect("references");
        assert_eq!((refs[0].line, refs[1].line), (8, 11));
        // Flow style cannot be located: unknown (0), not wrong.
        assert_eq!(arts[1].sections.as_ref().expect("sections")[0].line, 0);
        let flow =
            parse_structure("articles: [{path: a.md, sections: [{id: s}]}]\n").expect("valid");
        assert_eq!(flow.articles.expect("articles")[0].line, 0);
    }

    #[test]
    fn fast_reader_agrees_with_the_yaml_parser() {
        // Each body is one article item; the fast reader either declines (None) or gives
        // exactly what the YAML parser gives.
        let bodies = [
            "  - article_id: a\n    path: faq/a.md\n    sections:\n      - id: s\n        references:\n          - source_ref: repo:x/y\n            locator:\n              path: src/a.rs\n              start_line: 3\n              end_line: 9\n            content_digest: sha256:ab\n",
            "  - article_id: 'it''s'\n    path: \"q d.md\"\n    sections: []\n",
            "  - article_id: 1.50\n    path: 0123\n    collection: ~\n    visibility: null\n    sections:\n",
            "  - article_id: 2024-guide\n    path: true\n    collection: yes\n    visibility: .5\n",
            "  - path: a.md\n    sections:\n    - id: s\n      references:\n      - source_ref: ~\n        locator: {path: p, start_line: 0, end_line: \"2\"}\n      - locator:\n        content_digest: x\n",
            "  - path: a.md\n    sections:\n      - id: s\n        references: {a: 1}\n      - id: t\n        references:\n",
            "  - path: a.md\n    sections:\n      - id: s\n        references:\n          - source_ref: 12\n",
            "  - path: a.md\n    extra: 1\n",
            "  - path: a.md\n    path: b.md\n",
            "  - path: a.md # comment\n",
            "  - path: \"a\\tb\"\n",
            "  - path: a:b\n    collection: say \"hi\"\n    visibility: a#b\n",
            "  - path: a\u{85}b\n",
            "  - path: x\n    sections:\n      - id: s\n        references:\n          - source_ref: r:x\n            locator: {path: a:b, start_line: 1, end_line: 2}\n",
            "  - path: x\n    sections:\n      - id: s\n        references:\n          - source_ref: r:x\n            locator: {path: 'a, b', start_line: 1, end_line: 2}\n",
            "  - path: x\n    sections:\n      - id: s\n        references:\n          - source_ref: r:x\n            locator: {path: p, start_line: 99999999999999999999999, end_line: 2}\n",
            "  -   path: wide\n      sections:\n        -  id: s\n           references: []\n",
            "  - path: multi\n      line\n",
            "  - path: x\n    sections:\n      - id: s\n        references:\n          - source_ref: r:x\n            locator: {path: p, start_line: -1, end_line: +2}\n",
        ];
        let mut fast_taken = 0;
        for body in bodies {
            let text = format!("articles:\n{body}");
            let items = block_items(&text, "articles", 0);
            let yaml = parse_value(&text).map(|v| {
                let mut s = from_value(&v);
                fill_lines(&mut s, &text);
                s.articles
            });
            if let Some(got) = fast::articles(&text, &items) {
                fast_taken += 1;
                assert_eq!(Ok(Some(got)), yaml, "{body}");
            }
        }
        assert!(
            fast_taken >= 8,
            "fast reader declined too often: {fast_taken}"
        );
    }
}
