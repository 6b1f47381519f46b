//! Safe YAML loading for workspace files.
//!
//! Workspace YAML is user input: a hostile file must end in a diagnostic, never a hang, a crash
//! or invented evidence. The YAML crate already refuses duplicate keys, deep nesting and alias
//! expansion beyond a budget; this module adds a size limit and turns every failure into a
//! message with a line.
//!
//! Memory is bounded before anything is built: a streaming pass (`super::yaml_scan`) counts
//! the nodes a document would build (aliases expanded) and refuses more than its
//! [`NodeBudget`] allows, refuses nesting deeper than [`MAX_DEPTH`] as soon as it is reached, and lets a
//! caller blank out the values of top-level keys it does not read, which are then never built.

/// Files larger than this are refused before parsing (a 100k-section structure is ~50 MB).
pub const MAX_YAML_BYTES: usize = 256 * 1024 * 1024;

/// Collections nested deeper than this are refused by the streaming pass, at the line where it
/// happens: the YAML crate's own recursion limit, which it applies only after loading the
/// whole document (100k `- ` on one line: 100 MB first).
pub const MAX_DEPTH: usize = 128;

/// How many nodes (scalars, collections, aliases expanded) a document may build: `floor`
/// whatever its size, then one per `bytes_per_node` bytes of text. The YAML crate needs 200–300
/// bytes per node (its event and its value), and a reader adds its own per entry, so the
/// budget is what bounds the memory of a document of tiny nodes (`[{},{},…]`: 3 bytes each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeBudget {
    /// Nodes allowed whatever the size.
    pub floor: u64,
    /// Bytes of text per further node.
    pub bytes_per_node: u64,
}

impl NodeBudget {
    /// Any workspace YAML: 20 000 nodes (about 6 MB, a 330 KB structure of Context's), then
    /// one per 10 bytes. Context's writer uses 15–18 bytes per node; large structures are read
    /// by the fast path anyway.
    pub const DEFAULT: NodeBudget = NodeBudget {
        floor: 20_000,
        bytes_per_node: 10,
    };

    /// The nodes a document of `bytes` bytes may build.
    pub fn nodes(self, bytes: usize) -> u64 {
        self.floor + bytes as u64 / self.bytes_per_node.max(1)
    }
}

/// Flow collections nested deeper than this are refused before parsing. The parser's own
/// limit (128) would refuse them too, but only after a scan whose cost grows with the square
/// of the depth (100k brackets: minutes); counting brackets first keeps hostile input cheap.
pub const MAX_FLOW_DEPTH: usize = 1000;

/// Why a YAML file could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct YamlError {
    /// A one-line description (never contains absolute paths).
    pub message: String,
    /// The 1-based line the parser stopped at, when known.
    pub line: Option<u64>,
    /// What kind of failure this is.
    pub kind: YamlErrorKind,
}

/// The kinds of YAML failure, which Context's plugin reports with different messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum YamlErrorKind {
    /// Not YAML, or YAML this reader refuses (duplicate keys, alias bombs, deep nesting,
    /// oversized input): "Invalid YAML metadata".
    #[default]
    Invalid,
    /// Valid YAML that has no JSON form (a mapping key that is null, NaN, a sequence or a
    /// mapping): "Unsupported YAML metadata".
    Unsupported,
}

impl YamlErrorKind {
    /// The message Context's evidence plugin uses for this failure.
    pub fn message(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid YAML metadata",
            Self::Unsupported => "Unsupported YAML metadata",
        }
    }
}

/// Parses `text` into a YAML value, with the limits above.
pub fn parse_value(text: &str) -> Result<yaml_serde::Value, YamlError> {
    Ok(parse_value_keeping(text, &|_| true, NodeBudget::DEFAULT)?.value)
}

/// Parses `text` like [`parse_value`] within `budget`, with every top-level entry whose key
/// `keep` refuses left out unbuilt (see [`Loaded`]). Nothing is left out when the document has
/// anchors (a blanked value might define one) or a repeated top-level key.
pub fn parse_value_keeping(
    text: &str,
    keep: &dyn Fn(&str) -> bool,
    budget: NodeBudget,
) -> Result<Loaded, YamlError> {
    load(text, keep, false, budget)
}

/// The one loader behind every parse: limits, the streaming pass, blanking, the YAML crate.
/// `json`: values holding a mapping are kept (a mapping key with no JSON form must still make
/// the document unsupported). Returns the value and the unread keys that were blanked out
/// with their values (see [`Loaded`]).
fn load(
    text: &str,
    keep: &dyn Fn(&str) -> bool,
    json: bool,
    budget: NodeBudget,
) -> Result<Loaded, YamlError> {
    let text = crate::formats::text::strip_bom(text);
    let (blanked, skipped) = bounded(text, keep, json, budget)?;
    let text = blanked.as_deref().unwrap_or(text);
    let mut value = parse_bounded(text)?;
    merge_keys(&mut value, text)?;
    Ok(Loaded { value, skipped })
}

/// Applies YAML merge keys (`<<: *common`, `<<: [*a, *b]`): the merged mapping's keys join the
/// mapping, whose own keys win, as PyYAML and most YAML 1.1 readers do. Without this the YAML
/// crate keeps `<<` as an ordinary key, and a structure entry silently lost every merged key
/// (author walk s54). A `<<` naming something other than a mapping is an error at the first
/// `<<` line. The node budget already counted the merged mappings (aliases expanded).
fn merge_keys(value: &mut yaml_serde::Value, text: &str) -> Result<(), YamlError> {
    if memchr::memmem::find(text.as_bytes(), b"<<").is_none() {
        return Ok(());
    }
    value.apply_merge().map_err(|e| {
        let line = text
            .lines()
            .position(|l| {
                let t = l.trim_start_matches([' ', '-']).trim_start();
                t.starts_with("<<:") || t.starts_with("\"<<\":") || t.starts_with("'<<':")
            })
            .map(|i| i as u64 + 1);
        YamlError {
            message: format!(
                "a merge key (`<<`) must name a mapping or a list of mappings: {}",
                first_line(&e.to_string())
            ),
            line,
            kind: YamlErrorKind::Invalid,
        }
    })
}

/// A parse with unread keys left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The document, without the entries of `skipped` (and with the values of other unread
    /// keys null).
    pub value: yaml_serde::Value,
    /// Unread top-level keys whose whole entry was blanked out, in document order: a reader
    /// that reports unknown keys finds them here, not in `value`. (An entry is blanked whole
    /// when its key begins its line, as in block style; otherwise only its value.)
    pub skipped: Vec<String>,
}

/// Checks the limits of `text` with the streaming pass; returns the text with unread entries
/// blanked out (when there are any) and the keys blanked with their values.
fn bounded(
    text: &str,
    keep: &dyn Fn(&str) -> bool,
    json: bool,
    budget: NodeBudget,
) -> Result<(Option<String>, Vec<String>), YamlError> {
    let invalid = |message: String, line: Option<u64>| YamlError {
        message,
        line,
        kind: YamlErrorKind::Invalid,
    };
    if text.len() > MAX_YAML_BYTES {
        return Err(invalid(
            format!("file is larger than {MAX_YAML_BYTES} bytes"),
            None,
        ));
    }
    if let Some(line) = flow_depth_exceeded(text, MAX_FLOW_DEPTH) {
        return Err(invalid(
            format!("flow collections nested deeper than {MAX_FLOW_DEPTH}"),
            Some(line),
        ));
    }
    let scan =
        super::yaml_scan::scan(text, MAX_DEPTH).map_err(|r| invalid(r.message, Some(r.line)))?;
    // A repeated key must reach the YAML crate, which refuses it; so must an anchor, which a
    // blanked value might define.
    let keys: Vec<&str> = scan.top.iter().filter_map(|t| t.key.as_deref()).collect();
    let repeated = keys.len() != keys.iter().collect::<std::collections::HashSet<_>>().len();
    let blank: Vec<&super::yaml_scan::TopEntry> = if scan.anchors || scan.incomplete || repeated {
        Vec::new()
    } else {
        scan.top
            .iter()
            .filter(|t| t.key.as_deref().is_some_and(|k| !keep(k)))
            .filter(|t| !(json && t.has_mapping))
            .collect()
    };
    // The whole entry when its key begins its line in a block mapping; else the value only.
    let whole = |t: &super::yaml_scan::TopEntry| {
        let line_start = text[..t.key_start].rfind('\n').map_or(0, |i| i + 1);
        scan.block_root && text[line_start..t.key_start].bytes().all(|b| b == b' ')
    };
    let skipped: u64 = blank.iter().map(|t| t.nodes + u64::from(whole(t))).sum();
    let built = scan.expanded.saturating_sub(skipped);
    let budget = budget.nodes(text.len());
    if built > budget {
        let what = if scan.expanded > scan.nodes {
            "repetition limit exceeded: with its aliases expanded, the document has"
        } else {
            "the document has"
        };
        return Err(invalid(
            format!(
                "{what} {built} nodes, more than the {budget} allowed for its {} bytes",
                text.len()
            ),
            None,
        ));
    }
    if blank.is_empty() {
        return Ok((None, Vec::new()));
    }
    let mut keys = Vec::new();
    let ranges: Vec<_> = (blank.iter())
        .map(|t| match (whole(t), &t.key) {
            (true, Some(k)) => {
                keys.push(k.clone());
                t.key_start..t.value.end
            }
            _ => t.value.clone(),
        })
        .collect();
    Ok((Some(super::yaml_scan::blank_out(text, &ranges)), keys))
}

/// The YAML crate's parse of an already bounded text, its errors with their lines.
fn parse_bounded(text: &str) -> Result<yaml_serde::Value, YamlError> {
    yaml_serde::from_str(text).map_err(|e| {
        let mut message = plain_integer_message(first_line(&e.to_string()));
        let mut line = e.location().map(|l| (l.line() as u64, l.column() as u64));
        if let (Some((l, c)), Some(key)) = (line, duplicate_key(&message)) {
            // The parser reports the mapping's start; point at the repeated key instead, and
            // say what the line the message names is (an author read "at line 9" as where
            // the duplicate was; stop 49).
            let at = duplicate_line(text, l, c, key).unwrap_or(l);
            if at != l {
                let mark = format!(" at line {l} column {c}");
                message = message.replacen(
                    &mark,
                    &format!(" (in the mapping that starts at line {l})"),
                    1,
                );
            }
            line = Some((at, c));
        }
        // A tab where YAML wants indentation is the usual cause of these messages, which do
        // not say so (author walks, stops 49 and 51): the scanner words it by where the tab
        // is ("cannot start any token" in a registry's sequence, "a tab character that
        // violates indentation" under a mapping key), and every file gets the one hint.
        if let Some((l, _)) = line {
            let tabbed = (text.lines().nth((l as usize).saturating_sub(1)))
                .is_some_and(|t| t.trim_start_matches(' ').starts_with('\t'));
            let tab_message =
                message.contains("cannot start any token") || message.contains("tab character");
            if tabbed && tab_message {
                message.push_str("; the line is indented with a tab: YAML indents with spaces");
            }
        }
        let line = line.map(|(l, _)| l).or_else(|| {
            second_document_line(text).filter(|_| message.contains("more than one document"))
        });
        // The end of the file is where an unclosed quote is noticed, not where it is: the
        // message names the line the scalar (or flow collection) opened on.
        let line = if message.contains("unexpected end of stream") {
            opened_at(&message).or(line)
        } else {
            line
        };
        YamlError {
            line,
            message,
            kind: YamlErrorKind::Invalid,
        }
    })
}

/// The line of a message's context mark: `… while scanning a quoted scalar at line 3 column
/// 17` → 3.
fn opened_at(message: &str) -> Option<u64> {
    let context = message.rsplit_once(", while ")?.1;
    let after = context.rsplit_once(" at line ")?.1;
    after.split(' ').next()?.parse().ok()
}

/// The 1-based line where unclosed `[`/`{` first exceed `limit`, counting every bracket
/// (brackets inside scalars count too: only absurd input reaches the limit either way).
fn flow_depth_exceeded(text: &str, limit: usize) -> Option<u64> {
    let mut depth = 0usize;
    let mut line = 1u64;
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(line);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => line += 1,
            _ => {}
        }
    }
    None
}

/// The key named by a "duplicate entry with key \"K\"" message.
fn duplicate_key(message: &str) -> Option<&str> {
    let rest = message.split("duplicate entry with key \"").nth(1)?;
    rest.split('"').next()
}

/// The line of the second `key:` at the mapping's column, scanning from the mapping's start
/// (1-based line and column as the parser reports them).
fn duplicate_line(text: &str, line: u64, column: u64, key: &str) -> Option<u64> {
    let col = column.saturating_sub(1) as usize;
    let mut seen = 0;
    for (i, l) in text
        .split('\n')
        .enumerate()
        .skip(line.saturating_sub(1) as usize)
    {
        let at = l.get(col..).unwrap_or("");
        let indent_ok = i + 1 == line as usize || l.bytes().take(col).all(|b| b == b' ');
        let plain = at.strip_prefix(key).is_some_and(|r| r.starts_with(':'));
        let quoted = [('"', '"'), ('\'', '\'')].iter().any(|(o, c)| {
            at.strip_prefix(*o)
                .and_then(|r| r.strip_prefix(key))
                .and_then(|r| r.strip_prefix(*c))
                .is_some_and(|r| r.starts_with(':'))
        });
        if indent_ok && (plain || quoted) {
            seen += 1;
            if seen == 2 {
                return Some(i as u64 + 1);
            }
        }
    }
    None
}

/// The line where a second YAML document starts (`---` after some content).
fn second_document_line(text: &str) -> Option<u64> {
    let mut content = false;
    for (i, l) in text.split('\n').enumerate() {
        let is_marker = l == "---" || l.starts_with("--- ") || l.trim_end() == "---";
        if is_marker && content {
            return Some(i as u64 + 1);
        }
        let t = l.trim();
        if !is_marker && !t.is_empty() && !t.starts_with('#') && !t.starts_with('%') {
            content = true;
        }
    }
    None
}

/// Parses `text` like [`parse_value`] and also requires a JSON form (every mapping key a
/// string, number or boolean), as Context's plugin does before it looks at any field.
pub fn parse_json_compatible(text: &str) -> Result<yaml_serde::Value, YamlError> {
    Ok(parse_json_compatible_keeping(text, &|_| true, NodeBudget::DEFAULT)?.value)
}

/// [`parse_json_compatible`] with the values of unread top-level keys blanked out as
/// [`parse_value_keeping`] does, except values that hold a mapping (whose keys decide whether
/// the document has a JSON form).
pub fn parse_json_compatible_keeping(
    text: &str,
    keep: &dyn Fn(&str) -> bool,
    budget: NodeBudget,
) -> Result<Loaded, YamlError> {
    let loaded = load(text, keep, true, budget)?;
    if !json_compatible(&loaded.value) {
        return Err(YamlError {
            message: "a mapping key has no JSON form".to_string(),
            line: None,
            kind: YamlErrorKind::Unsupported,
        });
    }
    Ok(loaded)
}

/// Whether `value` converts to JSON: mapping keys must be strings, booleans, integers or finite
/// floats (`serde_json` turns those into strings); anything else has no JSON form.
pub fn json_compatible(value: &yaml_serde::Value) -> bool {
    use yaml_serde::Value;
    // An explicit stack: nesting is bounded by the parser, but a flat walk costs nothing.
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Sequence(items) => stack.extend(items.iter()),
            Value::Mapping(map) => {
                for (k, v) in map {
                    let key_ok = match k {
                        Value::String(_) | Value::Bool(_) => true,
                        Value::Number(n) => n.as_f64().is_none_or(f64::is_finite),
                        _ => false,
                    };
                    if !key_ok {
                        return false;
                    }
                    stack.push(v);
                }
            }
            Value::Tagged(t) => stack.push(&t.value),
            _ => {}
        }
    }
    true
}

/// The YAML crate names its internal integer type for a number no 64-bit integer holds
/// ("invalid type: integer `123…` as u128, expected any YAML value"): say what is wrong in
/// the file's terms instead, keeping the path and place the message starts and ends with.
fn plain_integer_message(message: String) -> String {
    let Some(at) = message.find("invalid type: integer `") else {
        return message;
    };
    let rest = &message[at + "invalid type: integer `".len()..];
    let Some(close) = rest.find('`') else {
        return message;
    };
    let (number, after) = (&rest[..close], &rest[close + 1..]);
    let Some(tail) = [
        " as u128, expected any YAML value",
        " as i128, expected any YAML value",
    ]
    .iter()
    .find_map(|t| after.strip_prefix(t)) else {
        return message;
    };
    format!(
        "{}the integer {number} is out of range (at most {} in absolute value){tail}",
        &message[..at],
        u64::MAX
    )
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("invalid YAML").to_string()
}

/// The string at `key` in a mapping, when it is a string.
pub fn get_str<'a>(v: &'a yaml_serde::Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(|x| x.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> YamlError {
        match parse_value(text) {
            Ok(v) => panic!("accepted: {v:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn duplicate_keys_point_at_the_repeated_key() {
        let e = err("a: 1\nb: 2\na: 3\n");
        assert!(e.message.contains("duplicate entry with key \"a\""), "{e}");
        assert_eq!(e.line, Some(3));
        let e = err("articles:\n  - x: 1\n    y: 2\n    'x': 3\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert_eq!(e.kind, YamlErrorKind::Invalid);
        // The line the parser names is the mapping's, and said to be.
        assert!(
            e.message
                .ends_with("(in the mapping that starts at line 2)"),
            "{e}"
        );
    }

    #[test]
    fn a_line_indented_with_a_tab_says_so() {
        let e = err("articles:\n\t- x: 1\n");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(
            e.message
                .ends_with("indented with a tab: YAML indents with spaces"),
            "{e}"
        );
        // Under a mapping key the scanner words it otherwise; the hint is the same.
        let e = err("articles:\n  - sections:\n      - id: a\n\t\treferences: []\n");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(
            e.message
                .ends_with("indented with a tab: YAML indents with spaces"),
            "{e}"
        );
        // A tab inside a value is no indentation.
        assert!(parse_value("a: \"x\ty\"\n").is_ok());
    }

    #[test]
    fn recursive_and_unknown_aliases_are_refused() {
        assert_eq!(err("a: &a [*a]\n").line, Some(1));
        assert!(err("a: 1\nb: *nope\n").message.contains("unknown anchor"));
    }

    #[test]
    fn billion_laughs_is_refused() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x,x]\n");
        let mut prev = 'a';
        for c in 'b'..='k' {
            let refs = vec![format!("*{prev}"); 10].join(",");
            bomb.push_str(&format!("{c}: &{c} [{refs}]\n"));
            prev = c;
        }
        let e = err(&bomb);
        assert!(e.message.contains("repetition limit"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused_with_a_line() {
        let flow = format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let e = err(&flow);
        assert!(e.message.contains("nested deeper than 1000"), "{e}");
        assert_eq!(e.line, Some(1));
        let flow = format!("a:\n  {}{}\n", "{a: ".repeat(200), "}".repeat(200));
        let e = err(&flow);
        assert!(e.message.contains("recursion limit"), "{e}");
        assert_eq!(e.line, Some(2));
        let dashes = format!("{}x\n", "- ".repeat(100_000));
        assert!(err(&dashes).message.contains("recursion limit"));
        let block: String = (0..300)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let e = err(&block);
        assert!(e.message.contains("recursion limit"), "{e}");
        assert_eq!(e.line, Some(129));
    }

    #[test]
    fn documents_building_more_nodes_than_their_budget_are_refused() {
        // 2 bytes a node, 100× its size once built: refused by the streaming pass.
        let tiny = format!("a: [{}]\n", vec!["x"; 400_000].join(","));
        let e = err(&tiny);
        assert!(e.message.contains("nodes, more than the"), "{e}");
        // At Context's density the same size is accepted.
        let words = format!("a: [{}]\n", vec!["abcdefghijklmnop"; 50_000].join(", "));
        assert!(parse_value(&words).is_ok());
        // Aliases count as what they expand to: 100 KB of them, within the YAML crate's
        // repetition limit, once built 2 GB.
        let anchor = vec!["b"; 60].join(",");
        let aliases = vec!["*a"; 33_000].join(",");
        let e = err(&format!("x: &a [{anchor}]\ny: [{aliases}]\n"));
        assert!(e.message.contains("with its aliases expanded"), "{e}");
        // A few aliases are fine.
        assert!(parse_value("x: &a [1, 2]\ny: [*a, *a]\n").is_ok());
    }

    #[test]
    fn values_of_unread_keys_are_not_built() {
        let read = |k: &str| k == "a";
        let big = format!(
            "a: 1\nz: [{}]\nq:\n{}",
            vec!["x"; 1_000_000].join(","),
            "- x\n".repeat(300_000)
        );
        let loaded = parse_value_keeping(&big, &read, NodeBudget::DEFAULT).expect("accepted");
        let v = &loaded.value;
        assert_eq!(v.get("a").and_then(yaml_serde::Value::as_u64), Some(1));
        assert!(v.get("z").is_none() && v.get("q").is_none());
        assert_eq!(loaded.skipped, ["z", "q"]);
        // Only the value in flow style, where the commas must stay.
        for text in ["{a: 1, z: [x, y]}", "{\nz: [x, y], a: 1}", "{a: 1,\nz: 2}"] {
            let flow = parse_value_keeping(text, &read, NodeBudget::DEFAULT).expect(text);
            assert!(
                flow.value.get("z").is_some_and(yaml_serde::Value::is_null),
                "{text}"
            );
            assert!(flow.skipped.is_empty());
        }
        // A repeated key is left for the YAML crate to refuse.
        let e = parse_value_keeping("z: 1\nz: 2\n", &read, NodeBudget::DEFAULT).unwrap_err();
        assert!(e.message.contains("duplicate entry"), "{e}");
        // The same without blanking is over the budget.
        assert!(parse_value(&big).is_err());
        // Errors inside kept values keep their lines.
        let e = parse_value_keeping("z: [1, 2]\na: [\n", &read, NodeBudget::DEFAULT).unwrap_err();
        assert_eq!(e.line, Some(3));
        // An anchor might be defined in an unread value: nothing is blanked then.
        let v = parse_value_keeping("z: &x 7\na: *x\n", &read, NodeBudget::DEFAULT)
            .expect("accepted")
            .value;
        assert_eq!(v.get("a").and_then(yaml_serde::Value::as_u64), Some(7));
        // A mapping in an unread value still decides whether the document has a JSON form.
        let e = parse_json_compatible_keeping("a: 1\nz: {? [x] : 1}\n", &read, NodeBudget::DEFAULT)
            .unwrap_err();
        assert_eq!(e.kind, YamlErrorKind::Unsupported);
        assert!(
            parse_json_compatible_keeping("a: 1\nz: [[x]]\n", &read, NodeBudget::DEFAULT).is_ok()
        );
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        // Built from a cheap repeated byte: what matters is that the size check comes first.
        let big = " ".repeat(MAX_YAML_BYTES + 1);
        let e = err(&big);
        assert!(e.message.contains("larger than"), "{e}");
        assert_eq!(e.line, None);
    }

    #[test]
    fn syntax_errors_and_second_documents_have_lines() {
        assert_eq!(err("a: 1\nb: [\n").line, Some(3));
        // An unclosed quote is reported where it opens, not at the end of the file.
        assert_eq!(err("a: 'open\n").line, Some(1));
        assert_eq!(err("a: 1\nb: \"open\nc: 2\nd: 3\n").line, Some(2));
        assert_eq!(err("---\na: 1\n---\nb: 2\n").line, Some(3));
        assert_eq!(err("a: 1\n--- \nb: 2\n").line, Some(2));
    }

    #[test]
    fn an_integer_out_of_range_is_named_in_the_file_s_terms() {
        let e = err("a:\n  end_line: 123456789012345678901\n");
        assert!(!e.message.contains("u128"), "{e}");
        assert!(
            e.message
                .contains("the integer 123456789012345678901 is out of range"),
            "{e}"
        );
        assert_eq!(e.line, Some(2), "{e}");
        let e = err("a: -123456789012345678901\n");
        assert!(!e.message.contains("i128"), "{e}");
        assert!(
            e.message.contains("-123456789012345678901 is out of range"),
            "{e}"
        );
    }

    #[test]
    fn json_compatibility() {
        let ok = parse_json_compatible("1: a\ntrue: b\n1.5: c\ns: !tag {x: [1, {y: 2}]}\n");
        assert!(ok.is_ok(), "{ok:?}");
        for bad in [
            "? [a]\n: b\n",
            "~: b\n",
            "x: {.nan: 1}\n",
            "x:\n  - ? {a: 1}\n    : 2\n",
        ] {
            let e = parse_json_compatible(bad).unwrap_err();
            assert_eq!(e.kind, YamlErrorKind::Unsupported, "{bad}");
            assert_eq!(e.kind.message(), "Unsupported YAML metadata");
        }
    }
}
