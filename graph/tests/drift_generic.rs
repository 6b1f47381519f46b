//! Lines any code is full of say nothing about where a cited block went: on a real git history
//! (built here with the git CLI, fixed dates), a function of `switch`/`case`/`return` lines
//! rewritten in place is not "relocated" into another function that has the same `case`
//! lines, with symbols (Go) or without (C, which has none here); and a function cited whole
//! follows its name even when a window of its lines is elsewhere (C walk on jq 1.6 → 1.7.1:
//! `jv_get_refcnt` was sent into `jv_equal`, and `--accept-relocated` wrote it there).

mod support;

use ontoly_graph::sources::drift::{
    self, CitedRange, CompareOptions, DriftRepo, LineRange, RangeDrift,
};
use ontoly_graph::sources::git::GitRepo;
use std::path::Path;

/// Three functions that switch over a value's kind, with the same `case` lines.
const GO_OLD: &str = "package value

func Size(v Value) int {
\tswitch v.Kind() {
\tcase KindArray:
\t\treturn len(v.items)
\tcase KindString:
\t\treturn len(v.text)
\tcase KindObject:
\t\treturn len(v.fields)
\tdefault:
\t\treturn 0
\t}
}

func Refcount(v Value) int {
\tswitch v.Kind() {
\tcase KindArray:
\t\treturn v.ptr.refs
\tcase KindString:
\t\treturn v.ptr.refs
\tcase KindObject:
\t\treturn v.ptr.refs
\tdefault:
\t\treturn 1
\t}
}

func Equal(v, w Value) bool {
\tif v.Kind() != w.Kind() {
\t\treturn false
\t}
\tr := false
\tswitch v.Kind() {
\tcase KindArray:
\t\tr = arrayEqual(v, w)
\tcase KindString:
\t\tr = stringEqual(v, w)
\tcase KindObject:
\t\tr = objectEqual(v, w)
\tdefault:
\t\tr = true
\t}
\treturn r
}

func Parse(text string) (Config, error) {
\tfields := strings.Fields(text)
\tif len(fields) < 2 {
\t\treturn Config{}, errTooShort
\t}
\tname := strings.ToLower(fields[0])
\tvalue := strings.TrimSpace(fields[1])
\treturn Config{Name: name, Value: value}, nil
}
";

/// `Size` and `Refcount` rewritten without their `switch`; `Equal` kept, so the `case` lines
/// are now only there; `Parse` keeps its check and leaves the rest to a helper far above it,
/// which holds more of its lines.
const GO_NEW: &str = "package value

func build(fields []string) (Config, error) {
\tif len(fields) < 2 {
\t\treturn Config{}, errTooShort
\t}
\tname := strings.ToLower(fields[0])
\tvalue := strings.TrimSpace(fields[1])
\treturn Config{Name: name, Value: value}, nil
}

func Size(v Value) int {
\tif !v.allocated() {
\t\treturn 0
\t}
\treturn v.ptr.length
}

func Refcount(v Value) int {
\tif v.allocated() {
\t\treturn v.ptr.refs
\t}
\treturn 1
}

func Equal(v, w Value) bool {
\tif v.Kind() != w.Kind() {
\t\treturn false
\t}
\tr := false
\tswitch v.Kind() {
\tcase KindArray:
\t\tr = arrayEqual(v, w)
\tcase KindString:
\t\tr = stringEqual(v, w)
\tcase KindObject:
\t\tr = objectEqual(v, w)
\tdefault:
\t\tr = true
\t}
\treturn r
}

func Parse(text string) (Config, error) {
\tfields := strings.Fields(text)
\tif len(fields) < 2 {
\t\treturn Config{}, errTooShort
\t}
\treturn build(fields)
}
";

/// The same in C, a language drift has no symbols for here: jq's `jv_get_refcnt` and
/// `jv_equal`, in short, far enough apart that a window cannot hold lines of both.
const C_OLD: &str = "#include \"jv.h\"

int jv_size(jv j) {
  switch (jv_get_kind(j)) {
  case JV_KIND_ARRAY:
    return jvp_array_length(j);
  case JV_KIND_STRING:
    return jvp_string_length(j);
  case JV_KIND_OBJECT:
    return jvp_object_size(j);
  default:
    return 0;
  }
}

int jv_get_refcnt(jv j) {
  switch (jv_get_kind(j)) {
  case JV_KIND_ARRAY:
  case JV_KIND_STRING:
  case JV_KIND_OBJECT:
    return j.u.ptr->count;
  default:
    return 1;
  }
}

const char *jv_kind_name(jv_kind k) {
  static const char *names[] = {
    \"<invalid>\",
    \"null\",
    \"false\",
    \"true\",
    \"number\",
    \"string\",
    \"array\",
    \"object\",
  };
  if (k < 0 || k >= (int)(sizeof(names) / sizeof(names[0]))) {
    return \"<unknown>\";
  }
  assert(names[k] != NULL);
  const char *name = names[k];
  return name;
}

int jv_equal(jv a, jv b) {
  int r;
  if (jv_get_kind(a) != jv_get_kind(b)) {
    r = 0;
  } else {
    switch (jv_get_kind(a)) {
    case JV_KIND_ARRAY:
      r = jvp_array_equal(a, b);
      break;
    case JV_KIND_STRING:
      r = jvp_string_equal(a, b);
      break;
    case JV_KIND_OBJECT:
      r = jvp_object_equal(a, b);
      break;
    default:
      r = 1;
      break;
    }
  }
  return r;
}
";

const C_NEW: &str = "#include \"jv.h\"

int jv_size(jv j) {
  if (!JVP_IS_ALLOCATED(j)) {
    return 0;
  }
  return jvp_length(j);
}

int jv_get_refcnt(jv j) {
  if (JVP_IS_ALLOCATED(j)) {
    return j.u.ptr->count;
  } else {
    return 1;
  }
}

const char *jv_kind_name(jv_kind k) {
  static const char *names[] = {
    \"<invalid>\",
    \"null\",
    \"false\",
    \"true\",
    \"number\",
    \"string\",
    \"array\",
    \"object\",
  };
  if (k < 0 || k >= (int)(sizeof(names) / sizeof(names[0]))) {
    return \"<unknown>\";
  }
  assert(names[k] != NULL);
  const char *name = names[k];
  return name;
}

int jv_equal(jv a, jv b) {
  int r;
  if (jv_get_kind(a) != jv_get_kind(b)) {
    r = 0;
  } else {
    switch (jv_get_kind(a)) {
    case JV_KIND_ARRAY:
      r = jvp_array_equal(a, b);
      break;
    case JV_KIND_STRING:
      r = jvp_string_equal(a, b);
      break;
    case JV_KIND_OBJECT:
      r = jvp_object_equal(a, b);
      break;
    default:
      r = 1;
      break;
    }
  }
  return r;
}
";

fn write(dir: &Path, path: &str, text: &str) {
    std::fs::write(dir.join(path), text).expect("writes");
}

/// Two commits: c1 with value.go and jv.c as they were, c2 as they are.
fn history(dir: &Path) -> (String, String) {
    support::git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "value.go", GO_OLD);
    write(dir, "jv.c", C_OLD);
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c1"]);
    let c1 = support::git(dir, &["rev-parse", "HEAD"]);
    write(dir, "value.go", GO_NEW);
    write(dir, "jv.c", C_NEW);
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c2"]);
    let c2 = support::git(dir, &["rev-parse", "HEAD"]);
    (c1, c2)
}

/// The 1-based lines of `text` from the one starting with `first` to the first `last` line
/// after it.
fn lines_of(text: &str, first: &str, last: &str) -> (u64, u64) {
    let lines: Vec<&str> = text.lines().collect();
    let s = lines
        .iter()
        .position(|l| l.starts_with(first))
        .expect(first);
    let e = s + lines[s..].iter().position(|l| *l == last).expect(last);
    (s as u64 + 1, e as u64 + 1)
}

fn drift_of(ranges: &[CitedRange]) -> Vec<RangeDrift> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (c1, c2) = history(tmp.path());
    let repo = DriftRepo::new(&GitRepo::open(tmp.path()).expect("opens"));
    let options = CompareOptions {
        symbols: true,
        digests: true,
        diffs: true,
    };
    drift::compare(&repo, &c1, &c2, ranges, options).expect("compares")
}

fn range(path: &str, (start_line, end_line): (u64, u64)) -> CitedRange {
    CitedRange {
        path: path.into(),
        start_line,
        end_line,
    }
}

fn at((start_line, end_line): (u64, u64)) -> LineRange {
    LineRange {
        start_line,
        end_line,
    }
}

#[test]
fn a_function_of_generic_lines_follows_its_name_not_another_functions_cases() {
    let was = lines_of(GO_OLD, "func Refcount", "}");
    let now = lines_of(GO_NEW, "func Refcount", "}");
    let out = drift_of(&[range("value.go", was)]);
    let d = &out[0];
    assert_eq!(
        d.symbol.as_ref().map(|s| s.qualified.as_str()),
        Some("value.Refcount")
    );
    let s = d.suggestion.as_ref().expect("a namesake");
    assert_eq!((s.start_line, s.end_line), now);
    // Its `switch`, `case` and `default:` lines are in `Equal` now, as they were before: no
    // evidence of where `Refcount` went. A window may read `Refcount` wider, never news.
    assert!(
        d.relocation
            .as_ref()
            .is_none_or(|r| r.mapped_holds.is_none()
                && r.start_line <= now.1
                && now.0 <= r.end_line),
        "{:?}",
        d.relocation
    );
    // `--accept-changed` takes it to `Refcount`, and the diff a reviewer reads is against it.
    assert_eq!(d.accept_at, Some(at(now)));
    let diff = d.diff.as_deref().expect("a diff");
    assert!(diff.contains("+\tif v.allocated() {"), "{diff}");
    assert!(!diff.contains("arrayEqual"), "{diff}");
}

#[test]
fn without_symbols_generic_lines_relocate_nothing() {
    let was = lines_of(C_OLD, "int jv_get_refcnt", "}");
    let now = lines_of(C_NEW, "int jv_get_refcnt", "}");
    let out = drift_of(&[range("jv.c", was)]);
    let d = &out[0];
    // `case JV_KIND_ARRAY:`, `default:`, `return 1;` are in `jv_equal` and `jv_size` too: a
    // window may read `jv_get_refcnt` wider, never news.
    assert!(
        d.relocation
            .as_ref()
            .is_none_or(|r| r.mapped_holds.is_none()
                && r.start_line <= now.1
                && now.0 <= r.end_line),
        "{:?}",
        d.relocation
    );
    // Accepted where the diff maps it: `jv_get_refcnt` rewritten.
    let a = d.accept_at.expect("accepted where the diff maps it");
    assert!(
        now.0 <= a.start_line && a.end_line <= now.1,
        "{a:?} {now:?}"
    );
    let diff = d.diff.as_deref().expect("a diff");
    assert!(diff.contains("+  if (JVP_IS_ALLOCATED(j)) {"), "{diff}");
    assert!(!diff.contains("jvp_array_equal"), "{diff}");
}

#[test]
fn a_function_cited_whole_follows_its_name_though_more_of_its_lines_are_elsewhere() {
    let was = lines_of(GO_OLD, "func Parse", "}");
    let now = lines_of(GO_NEW, "func Parse", "}");
    let helper = lines_of(GO_NEW, "func build", "}");
    let out = drift_of(&[range("value.go", was)]);
    let d = &out[0];
    // Where most of its lines are is said, as a hint: the helper holds five of its seven,
    // `Parse` four.
    let r = d.relocation.as_ref().expect("a relocation");
    assert!(
        helper.0 <= r.start_line && r.end_line <= helper.1,
        "{r:?} {helper:?}"
    );
    // The reference follows `Parse`, by its name, and so does its diff.
    assert_eq!(d.accept_at, Some(at(now)));
    let diff = d.diff.as_deref().expect("a diff");
    assert!(diff.contains("+\treturn build(fields)"), "{diff}");
}

/// fd's global-ignore block (8.7.1 → 10.5.0): moved into a new method with `walker` renamed
/// `builder` and its messages reworded, so half its distinctive lines changed; its `Some(err)
/// => {` and `None => (),` arms came along. Keyword lines find nothing, but a window its other
/// lines found holds them too.
const RS_OLD: &str = "fn scan(paths: &[PathBuf], config: &Config) -> ExitCode {
    let mut walker = WalkBuilder::new(&paths[0]);
    walker.hidden(config.ignore_hidden);

    if config.read_global_ignore {
        if let Ok(basedirs) = etcetera::choose_base_strategy() {
            let global_ignore_file = basedirs.config_dir().join(\"fd\").join(\"ignore\");
            if global_ignore_file.is_file() {
                let result = walker.add_ignore(global_ignore_file);
                match result {
                    Some(ignore::Error::Partial(_)) => (),
                    Some(err) => {
                        print_error(format!(\"Malformed pattern in global ignore file. {}.\", err));
                    }
                    None => (),
                }
            }
        }
    }

    for ignore_file in &config.ignore_files {
        let result = walker.add_ignore(ignore_file);
        match result {
            Some(ignore::Error::Partial(_)) => (),
            Some(err) => {
                print_error(format!(\"Malformed pattern in custom ignore file. {}.\", err));
            }
            None => (),
        }
    }

    let parallel_walker = walker.threads(config.threads).build_parallel();
    spawn_senders(config, parallel_walker)
}
";

const RS_NEW: &str = "fn scan(paths: &[PathBuf], config: Arc<Config>) -> Result<ExitCode> {
    WorkerState::new(config).scan(paths)
}

impl WorkerState {
    fn build_walker(&self, paths: &[PathBuf]) -> Result<WalkParallel> {
        let config = &self.config;
        let mut builder = WalkBuilder::new(&paths[0]);
        builder.hidden(config.ignore_hidden);

        if config.read_global_ignore
            && let Ok(basedirs) = etcetera::choose_base_strategy()
        {
            let global_ignore_file = basedirs.config_dir().join(\"fd\").join(\"ignore\");
            if global_ignore_file.is_file() {
                let result = builder.add_ignore(global_ignore_file);
                match result {
                    Some(ignore::Error::Partial(_)) => (),
                    Some(err) => {
                        print_error(format!(\"Malformed pattern in global ignore file. {err}.\"));
                    }
                    None => (),
                }
            }
        }

        for ignore_file in &config.ignore_files {
            let result = builder.add_ignore(ignore_file);
            match result {
                Some(ignore::Error::Partial(_)) => (),
                Some(err) => {
                    print_error(format!(\"Malformed pattern in custom ignore file. {err}.\"));
                }
                None => (),
            }
        }

        Ok(builder.threads(config.threads).build_parallel())
    }
}
";

#[test]
fn keyword_lines_a_window_holds_count_towards_its_half() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    support::git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "walk.rs", RS_OLD);
    support::git(dir, &["add", "-A"]);
    support::git(dir, &["commit", "-q", "-m", "c1"]);
    let c1 = support::git(dir, &["rev-parse", "HEAD"]);
    write(dir, "walk.rs", RS_NEW);
    support::git(dir, &["commit", "-q", "-am", "c2"]);
    let c2 = support::git(dir, &["rev-parse", "HEAD"]);
    let repo = DriftRepo::new(&GitRepo::open(dir).expect("opens"));
    let options = CompareOptions {
        symbols: true,
        digests: true,
        diffs: true,
    };
    // From `if config.read_global_ignore {` to the custom ignore files' loop's `}`.
    let was = lines_of(RS_OLD, "    if config.read_global_ignore", "    }");
    let was = (was.0, was.0 + 25);
    assert_eq!(RS_OLD.lines().nth(was.1 as usize - 1), Some("    }"));
    let out = drift::compare(&repo, &c1, &c2, &[range("walk.rs", was)], options).expect("compares");
    let d = &out[0];
    let now = lines_of(
        RS_NEW,
        "        if config.read_global_ignore",
        "            }",
    );
    // Five of its eleven distinctive lines, and both keyword arms of each `match`: seven of
    // thirteen lines as cited.
    let r = d.relocation.as_ref().expect("a relocation");
    assert_eq!((r.matched, r.of), (5, 11), "{r:?}");
    assert_eq!(r.start_line, now.0 + 3, "{r:?}");
    // To the custom files' loop, whose next line was edited (`builder`): a window stops at
    // the last line it found.
    let for_line = lines_of(RS_NEW, "        for ignore_file", "        }").0;
    assert_eq!(r.end_line, for_line, "{r:?}");
    // The diff follows the block here too: it is reviewed and accepted where the diff maps
    // it, which the window overlaps.
    let a = d.accept_at.expect("accepted where the diff maps it");
    assert!(
        a.start_line <= r.end_line && r.start_line <= a.end_line,
        "{a:?} {r:?}"
    );
    assert!(!r.followed, "{r:?}");
}

#[test]
fn a_function_cited_with_a_few_lines_of_context_follows_its_name() {
    // `Parse` with the last two lines of `Equal` above it: mostly one definition.
    let parse = lines_of(GO_OLD, "func Parse", "}");
    let was = (parse.0 - 3, parse.1);
    assert_eq!(GO_OLD.lines().nth(was.0 as usize - 1), Some("\treturn r"));
    let now = lines_of(GO_NEW, "func Parse", "}");
    let out = drift_of(&[range("value.go", was)]);
    let d = &out[0];
    assert!(d.cited_whole, "{d:?}");
    assert_eq!(
        d.symbol.as_ref().map(|s| (s.start_line, s.end_line)),
        Some(parse)
    );
    // It follows `Parse` by its name, as the range that is exactly `Parse` does.
    assert_eq!(d.accept_at, Some(at(now)));
    let diff = d.diff.as_deref().expect("a diff");
    assert!(diff.contains("+\treturn build(fields)"), "{diff}");
    // With more than a few lines of another definition, it is a range of two subjects: the
    // whole of `Equal` and `Parse` follow neither name.
    let equal = lines_of(GO_OLD, "func Equal", "}");
    let out = drift_of(&[range("value.go", (equal.0, parse.1))]);
    assert!(!out[0].cited_whole, "{:?}", out[0]);
}
