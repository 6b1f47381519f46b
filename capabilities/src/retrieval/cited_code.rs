//! Which installed code a workspace cites: what tells a pasted trace's frames of the documented
//! project from the frames of other libraries it passes through.
//!
//! A trace's library frames are read around its message ([`super::pasted`]). In a service
//! nearly every frame is another library's (a Rust panic under axum passes through fifteen
//! frames of tower, hyper and tokio; a Python one through a web framework's; a Java one through
//! Spring's), and their names are words no page of a workspace about one library writes: read
//! as the query's words they diluted what the message matched until a right answer looked
//! unsupported. A frame belongs to the cited code when the package its path is installed under
//! (`site-packages/requests/…`, `node_modules/commander/…`, cargo's `indexmap-2.7.0/…`, Go's
//! `github.com/spf13/viper@v1.10.1/…`) is named by a cited repository or by a directory of a
//! cited file (`src/attr/_make.py` for the package `attr`), or when a Java frame's package
//! (its first three segments) is a directory path of a cited file or names a cited repository's
//! owner and name (`com.acme.server` for `github.com/acme/server`).

use super::index::Index;
use super::pasted::Code;
use std::collections::BTreeSet;

/// The names and directories of the code a workspace cites.
#[derive(Debug, Clone, Default)]
pub struct CitedCode {
    /// Normalised names: each cited repository's last path segment (and its whole path, as Go
    /// modules are named), each directory name of a cited file.
    names: BTreeSet<String>,
    /// Each cited file's directory, between slashes (`/src/main/java/com/acme/`).
    dirs: BTreeSet<String>,
    /// Each cited repository's owner and name (`acme/server` of `github.com/acme/server`), as a
    /// Java project names its packages after its host (`com.acme.server`).
    owned: BTreeSet<String>,
    /// Each cited file's path in its repository (`src/parser.c`), which a C or C++ frame's
    /// path ends with.
    files: BTreeSet<String>,
}

/// How many leading segments of a Java package name its library: `com.fasterxml.jackson` of
/// jackson-databind's and jackson-core's packages, `org.springframework.web` of Spring's.
const JAVA_PACKAGE_SEGMENTS: usize = 3;

impl CitedCode {
    /// The cited code of the workspace `index` was built from (its file documents, whose ids
    /// are `file:REPOSITORY@COMMIT:PATH`).
    pub fn of(index: &Index) -> CitedCode {
        let mut cited = CitedCode::default();
        index.ids_with_prefix("file:", |id| {
            if let Some((repo, path)) = file_id(id) {
                cited.add(repo, path);
            }
            true
        });
        cited
    }

    fn add(&mut self, repo: &str, path: &str) {
        if !self.names.contains(&normal(repo)) {
            self.names.insert(normal(repo));
            let mut segments = repo.rsplit('/');
            let last = segments.next().unwrap_or(repo);
            self.names.insert(normal(without_suffix(last)));
            if let Some(owner) = segments.next() {
                self.owned.insert(format!(
                    "{}/{}",
                    normal(owner),
                    normal(without_suffix(last))
                ));
            }
        }
        self.files.insert(path.to_string());
        if let Some((dir, _)) = path.rsplit_once('/') {
            for segment in dir.split('/').filter(|s| !s.is_empty()) {
                self.names.insert(normal(segment));
            }
            self.dirs.insert(format!("/{dir}/"));
        }
    }

    /// Whether a library frame's code is cited. A workspace that cites no file, and a frame
    /// whose package cannot be read from its path, hold it: nothing tells it apart.
    pub fn holds(&self, code: Code) -> bool {
        if self.names.is_empty() {
            return true;
        }
        match code {
            Code::Path(path) => {
                let names = package_names(path);
                names.is_empty() || names.iter().any(|n| self.names.contains(&normal(n)))
            }
            Code::Java(name) => {
                let package: Vec<&str> = name
                    .split('.')
                    .take_while(|s| !s.starts_with(|c: char| c.is_uppercase()))
                    .take(JAVA_PACKAGE_SEGMENTS)
                    .collect();
                if package.is_empty() {
                    return true;
                }
                let dir = format!("/{}/", package.join("/"));
                let owned = package.get(1..3).map(|p| normal(&p.join("/")));
                owned.is_some_and(|o| self.owned.contains(&o))
                    || self.dirs.iter().any(|d| d.contains(&dir))
            }
            // A C or C++ frame's path is where the code was built (`/build/libfoo/src/a.c`) or
            // relative to it (`src/a.c`, `a.c`): held when it and a cited file's path end alike.
            Code::Native(path) => {
                let path = path.trim().replace('\\', "/");
                let path = path.trim_start_matches("./");
                (self.files.iter()).any(|f| {
                    path == f
                        || path
                            .strip_suffix(f.as_str())
                            .is_some_and(|h| h.ends_with('/'))
                        || f.strip_suffix(path).is_some_and(|h| h.ends_with('/'))
                })
            }
        }
    }
}

/// (`github.com/psf/requests`, `requests/models.py`) of `file:github.com/psf/requests@da99…:requests/models.py`.
fn file_id(id: &str) -> Option<(&str, &str)> {
    let rest = id.strip_prefix("file:")?;
    // The first `@` a commit's hex digits and `:` follow: a path may hold `@` too.
    rest.match_indices('@').find_map(|(at, _)| {
        let (commit, path) = rest[at + 1..].split_once(':')?;
        (!commit.is_empty() && commit.bytes().all(|b| b.is_ascii_hexdigit()))
            .then_some((&rest[..at], path))
    })
}

/// A name as compared: lower case, `-` as `_` (a crate's `hyper-util` is `hyper_util` in
/// code, a Python distribution's `python-dateutil` installs `dateutil`).
fn normal(name: &str) -> String {
    name.to_lowercase().replace('-', "_")
}

/// A repository's name without the language its host spells into it (`commander.js`,
/// `toml-rs`): the package installs under the name before it.
fn without_suffix(name: &str) -> &str {
    let name = name.strip_suffix(".git").unwrap_or(name);
    [".js", ".rs", ".py", ".go", "-js", "-rs", "-py", "-go"]
        .iter()
        .find_map(|s| name.strip_suffix(s).filter(|n| !n.is_empty()))
        .unwrap_or(name)
}

/// The names of the package a library frame's path is installed under: `requests` of
/// `…/site-packages/requests/models.py`, `commander` of `…/node_modules/commander/lib/…`,
/// `tokio` of `…/registry/src/index.crates.io-…/tokio-1.41.1/…`, `github.com/spf13/viper`
/// and `viper` of `…/pkg/mod/github.com/spf13/viper@v1.10.1/…` or `…/vendor/github.com/spf13/
/// viper/…`. None when the path is in no such directory.
fn package_names(path: &str) -> Vec<String> {
    let path = path.trim();
    if let Some(at) = path.rfind("/pkg/mod/") {
        // Go's module cache escapes an upper-case letter as `!` and the lower-case one.
        let module = path[at + "/pkg/mod/".len()..]
            .split('@')
            .next()
            .unwrap_or("")
            .replace('!', "");
        let last = module.rsplit('/').next().unwrap_or("").to_string();
        return [module, last]
            .into_iter()
            .filter(|n| !n.is_empty())
            .collect();
    }
    if let Some(at) = path.rfind(".cargo/registry/src/") {
        // `index.crates.io-6f17d22bba15001f/tokio-1.41.1/…`.
        let rest = &path[at + ".cargo/registry/src/".len()..];
        let krate = rest.split('/').nth(1).unwrap_or("");
        return one(without_version(krate));
    }
    if let Some(at) = path.rfind(".cargo/git/checkouts/") {
        // `indexmap-3f2c1a9b8e7d6c5b/bbceb6c/src/…`: the repository's name and a hash.
        let repo = path[at + ".cargo/git/checkouts/".len()..]
            .split('/')
            .next()
            .unwrap_or("");
        let name = repo
            .rsplit_once('-')
            .filter(|(_, h)| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .map_or(repo, |(n, _)| n);
        return one(name);
    }
    if let Some(at) = path.rfind("node_modules/") {
        let mut parts = path[at + "node_modules/".len()..].split('/');
        let first = parts.next().unwrap_or("");
        return match first.strip_prefix('@') {
            // `@scope/name`: the name is what a repository calls it.
            Some(_) => one(parts.next().unwrap_or("")),
            None => one(first),
        };
    }
    for dir in ["site-packages/", "dist-packages/"] {
        if let Some(at) = path.rfind(dir) {
            let first = path[at + dir.len()..].split('/').next().unwrap_or("");
            return one(first.strip_suffix(".py").unwrap_or(first));
        }
    }
    match vendored(path) {
        Some((module, name, _)) if module != name => vec![module.to_string(), name.to_string()],
        Some((_, name, _)) => one(name),
        None => Vec::new(),
    }
}

/// A vendored file's package: (its module path, its name, the path inside it). Go vendors a
/// module under its import path (`vendor/github.com/spf13/cobra/command.go`, `vendor/gopkg.in/
/// yaml.v3/decode.go`), whose host tells how many segments name it; cargo and others vendor
/// a package under its name, perhaps with its version (`vendor/tokio-1.41.1/src/…`).
fn vendored(path: &str) -> Option<(&str, &str, &str)> {
    let at = path.rfind("/vendor/")?;
    let rest = &path[at + "/vendor/".len()..];
    let dirs = rest.matches('/').count();
    let mut segments = rest.split('/');
    let first = segments.next().unwrap_or("");
    let second = segments.next().unwrap_or("");
    // A host names a Go module (`gopkg.in`); a dot after a dash and digits is a version.
    let take = if !first.contains('.') || without_version(first) != first {
        1
    } else if matches!(first, "github.com" | "gitlab.com" | "bitbucket.org")
        || (first == "golang.org" && second == "x")
    {
        3
    } else {
        2
    };
    if dirs < take {
        return None;
    }
    let end = rest
        .match_indices('/')
        .nth(take - 1)
        .map_or(rest.len(), |(i, _)| i);
    let module = &rest[..end];
    let name = module.rsplit('/').next().unwrap_or(module);
    let name = if take == 1 {
        without_version(name)
    } else {
        name
    };
    Some((module, name, &rest[end + 1..]))
}

/// The paths a repository may hold an installed file at, most specific first: the package's
/// directory and the path inside it (`toml_edit/src/de.rs`, which a repository of several
/// crates holds as `crates/toml_edit/src/de.rs`), then the path inside it (`src/map.rs`).
/// A Python package's directory is its repository's (`requests/models.py`). A C or C++
/// source, built where its repository was checked out, may be any end of its path
/// (`/build/libfoo/src/a.c`: `build/libfoo/src/a.c`, `libfoo/src/a.c`, `src/a.c`, `a.c`).
/// Empty when the path is in no directory of installed code and no C or C++ source.
pub fn installed_paths(path: &str) -> Vec<String> {
    let path = path.trim();
    // (the package's name, the path inside the package)
    let inside: Option<(&str, &str)> = if let Some(at) = path.rfind("/pkg/mod/") {
        path[at..].split_once('@').and_then(|(module, rest)| {
            let name = module.rsplit('/').next().unwrap_or("");
            Some((name, rest.split_once('/')?.1))
        })
    } else if let Some(at) = path.rfind(".cargo/registry/src/") {
        let mut parts = path[at + ".cargo/registry/src/".len()..].splitn(3, '/');
        let (_, krate, rest) = (parts.next(), parts.next(), parts.next());
        krate.zip(rest).map(|(k, r)| (without_version(k), r))
    } else if let Some(at) = path.rfind(".cargo/git/checkouts/") {
        let mut parts = path[at + ".cargo/git/checkouts/".len()..].splitn(3, '/');
        parts.nth(2).map(|r| ("", r))
    } else if let Some(at) = path.rfind("node_modules/") {
        let rest = &path[at + "node_modules/".len()..];
        let rest = match rest.strip_prefix('@') {
            Some(scoped) => scoped.split_once('/').map_or("", |(_, r)| r),
            None => rest,
        };
        rest.split_once('/')
    } else if let Some(at) = ["site-packages/", "dist-packages/"]
        .iter()
        .find_map(|d| path.rfind(d).map(|at| at + d.len()))
    {
        return vec![path[at..].to_string()];
    } else if is_native_source(path) {
        // A C or C++ source is where it was built, which holds the repository's path:
        // each of its ends, longest first (`build/libfoo/src/a.c`, …, `src/a.c`, `a.c`).
        let path = path.trim_start_matches('/');
        let mut ends = vec![path.to_string()];
        ends.extend((path.match_indices('/')).map(|(at, _)| path[at + 1..].to_string()));
        return ends;
    } else {
        vendored(path).map(|(_, name, rest)| (name, rest))
    };
    match inside {
        Some((name, rest)) if !rest.is_empty() => {
            let mut out = Vec::new();
            if !name.is_empty() {
                out.push(format!("{name}/{rest}"));
            }
            out.push(rest.to_string());
            out
        }
        _ => Vec::new(),
    }
}

/// Whether `path`, in no directory of installed packages, is a C or C++ source file, whose
/// frames ([`super::pasted`]) name where it was built.
fn is_native_source(path: &str) -> bool {
    use ontoly_graph::sources::symbols::Lang;
    !path.contains("site-packages/")
        && !path.contains("dist-packages/")
        && matches!(Lang::for_path(path), Some(Lang::C | Lang::Cpp))
}

fn one(name: &str) -> Vec<String> {
    if name.is_empty() {
        Vec::new()
    } else {
        vec![name.to_string()]
    }
}

/// `tokio` of `tokio-1.41.1`, `hyper-util` of `hyper-util-0.1.10`: a crate's directory is its
/// name and version.
fn without_version(dir: &str) -> &str {
    dir.char_indices()
        .filter(|&(i, c)| c == '-' && dir[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
        .map(|(i, _)| &dir[..i])
        .next_back()
        .unwrap_or(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(files: &[(&str, &str)]) -> CitedCode {
        let mut c = CitedCode::default();
        for (repo, path) in files {
            c.add(repo, path);
        }
        c
    }

    #[test]
    fn a_frame_is_the_cited_codes_when_its_package_is_named_by_a_repository_or_a_directory() {
        let c = cited(&[
            ("github.com/indexmap-rs/indexmap", "src/map.rs"),
            ("github.com/python-attrs/attrs", "src/attr/_make.py"),
            ("github.com/tj/commander.js", "lib/command.js"),
            ("github.com/spf13/viper", "viper.go"),
            (
                "github.com/toml-rs/toml",
                "crates/toml_edit/src/parser/mod.rs",
            ),
        ]);
        let reg = "/home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f";
        for path in [
            format!("{reg}/indexmap-2.7.0/src/map.rs:1370:9"),
            format!("{reg}/toml_edit-0.22.22/src/de/mod.rs:1:1"),
            "/v/lib/python3.11/site-packages/attr/_make.py".to_string(),
            "/app/node_modules/commander/lib/command.js:1412:20".to_string(),
            "/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:1185 +0x1d".to_string(),
            "/src/app/vendor/github.com/spf13/viper/viper.go:1185 +0x1d".to_string(),
            "/build/vendor/indexmap-2.7.0/src/map.rs:1370:9".to_string(),
            // No package to read: nothing tells it apart.
            "/opt/vendor/thing.js:3:1".to_string(),
        ] {
            assert!(c.holds(Code::Path(&path)), "{path}");
        }
        for path in [
            format!("{reg}/tokio-1.41.1/src/runtime/task/core.rs:331:17"),
            format!("{reg}/hyper-util-0.1.10/src/service/oneshot.rs:55:38"),
            "/v/lib/python3.11/site-packages/urllib3/connectionpool.py".to_string(),
            "/app/node_modules/@nestjs/core/router/router-proxy.js:9:17".to_string(),
            "/home/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go:987 +0x1d".to_string(),
            "/src/app/vendor/github.com/spf13/cobra/command.go:987 +0x1d".to_string(),
            "/src/app/vendor/gopkg.in/yaml.v3/decode.go:299 +0x5a".to_string(),
            "/src/app/vendor/golang.org/x/net/http2/server.go:1245 +0x3b".to_string(),
            "/build/vendor/tokio/src/runtime/task/core.rs:331:17".to_string(),
        ] {
            assert!(!c.holds(Code::Path(&path)), "{path}");
        }
    }

    #[test]
    fn a_java_frame_is_the_cited_codes_by_its_packages_first_segments() {
        let c = cited(&[(
            "github.com/FasterXML/jackson-bundle-debian",
            "databind/src/main/java/com/fasterxml/jackson/databind/ObjectMapper.java",
        )]);
        assert!(c.holds(Code::Java(
            "com.fasterxml.jackson.core.json.ReaderBasedJsonParser._handleOddName"
        )));
        assert!(!c.holds(Code::Java(
            "org.springframework.web.servlet.FrameworkServlet.service"
        )));
        // A project's packages named after its host's owner and name.
        let c = cited(&[("github.com/acme/server", "src/Cache.java")]);
        assert!(c.holds(Code::Java("com.acme.server.Cache.evictOldest")));
        assert!(!c.holds(Code::Java("com.acme.client.Cache.evictOldest")));
        // Nothing cited, nothing told apart.
        assert!(CitedCode::default().holds(Code::Java("org.springframework.web.X.y")));
    }

    #[test]
    fn an_installed_file_is_looked_for_by_its_package_and_its_path_inside() {
        assert_eq!(
            installed_paths(
                "/h/.cargo/registry/src/index.crates.io-6f17d22bba15001f/indexmap-2.7.0/src/map.rs"
            ),
            ["indexmap/src/map.rs", "src/map.rs"]
        );
        assert_eq!(
            installed_paths("/app/node_modules/@nestjs/core/router/proxy.js"),
            ["core/router/proxy.js", "router/proxy.js"]
        );
        assert_eq!(
            installed_paths("/g/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go"),
            ["viper/viper.go", "viper.go"]
        );
        assert_eq!(
            installed_paths("/v/lib/python3.11/site-packages/requests/models.py"),
            ["requests/models.py"]
        );
        assert_eq!(
            installed_paths("/src/app/vendor/github.com/spf13/viper/internal/encoding/decoder.go"),
            [
                "viper/internal/encoding/decoder.go",
                "internal/encoding/decoder.go"
            ]
        );
        assert_eq!(
            installed_paths("/src/app/vendor/gopkg.in/yaml.v3/decode.go"),
            ["yaml.v3/decode.go", "decode.go"]
        );
        assert_eq!(
            installed_paths("/build/vendor/tokio-1.41.1/src/lib.rs"),
            ["tokio/src/lib.rs", "src/lib.rs"]
        );
        assert!(installed_paths("/app/src/main.py").is_empty());
        assert_eq!(
            installed_paths("/build/calc/src/parser.c"),
            [
                "build/calc/src/parser.c",
                "calc/src/parser.c",
                "src/parser.c",
                "parser.c"
            ]
        );
    }

    /// The indexmap walk's async backtrace (stop 53), its frames cut to one of each crate.
    const ASYNC: &str = "thread 'tokio-runtime-worker' panicked at src/routes.rs:77:5:
IndexMap: key not found
stack backtrace:
   3: core::option::Option<T>::expect
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/option.rs:933:21
   4: <indexmap::map::IndexMap<K,V,S> as core::ops::index::IndexMut<&Q>>::index_mut
             at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/indexmap-2.7.0/src/map.rs:1370:9
   5: gateway::routes::update_header::{{closure}}
             at ./src/routes.rs:77:5
   6: <axum::handler::future::IntoServiceFuture<F> as core::future::future::Future>::poll
             at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/axum-0.7.9/src/macros.rs:42:17
  14: hyper::proto::h1::dispatch::Dispatcher<D,Bs,I,T>::poll_catch
             at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/hyper-1.5.1/src/proto/h1/dispatch.rs:126:28
  15: tokio::runtime::task::core::Core<T,S>::poll::{{closure}}
             at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.41.1/src/runtime/task/core.rs:331:17";

    #[test]
    fn frames_of_code_the_workspace_does_not_cite_are_the_traces_structure() {
        let c = cited(&[("github.com/indexmap-rs/indexmap", "src/map.rs")]);
        let r = super::super::pasted::read_citing(ASYNC, &|code| c.holds(code)).expect("a panic");
        assert_eq!(r.said, "IndexMap: key not found");
        assert_eq!(
            r.around,
            "<indexmap::map::IndexMap<K,V,S> as core::ops::index::IndexMut<&Q>>::index_mut"
        );
        let innermost = r.innermost.expect("a frame of the cited code");
        assert!(
            innermost.0.ends_with("indexmap-2.7.0/src/map.rs"),
            "{innermost:?}"
        );
        assert_eq!(innermost.1, 1370);
        // Read without knowing what is cited, every installed crate's frame is around.
        let all = super::super::pasted::read(ASYNC).expect("a panic");
        assert!(all.around.contains("tokio::runtime") && all.around.contains("hyper::proto"));
        assert!(all
            .innermost
            .is_some_and(|(p, _)| p.contains("indexmap-2.7.0")));
    }

    /// A Go program built with `go mod vendor` prints its dependencies' frames under
    /// `vendor/`: they are the cited module's or structure, never the asker's own code.
    #[test]
    fn a_vendored_go_modules_frames_are_library_frames() {
        let trace = "panic: viper: config type not supported\n\ngoroutine 1 [running]:\n\
            github.com/spf13/viper.(*Viper).unmarshalReader(0xc000134000, {0x6f1e40, 0xc0000a6000}, 0xc0000b8000)\n\
            \t/src/app/vendor/github.com/spf13/viper/viper.go:1636 +0x1d\n\
            github.com/spf13/cobra.(*Command).execute(0xc000136000, {0xc00001e0a0, 0x0, 0x0})\n\
            \t/src/app/vendor/github.com/spf13/cobra/command.go:987 +0x1d\n\
            main.main()\n\
            \t/src/app/main.go:12 +0x25\n";
        let c = cited(&[("github.com/spf13/viper", "viper.go")]);
        let r = super::super::pasted::read_citing(trace, &|code| c.holds(code)).expect("a panic");
        assert!(r.around.contains("unmarshalReader"), "{r:?}");
        assert!(
            !r.around.contains("cobra") && !r.said.contains("cobra"),
            "{r:?}"
        );
        let innermost = r.innermost.expect("a frame of the cited code");
        assert!(
            innermost
                .0
                .ends_with("vendor/github.com/spf13/viper/viper.go"),
            "{innermost:?}"
        );
        assert_eq!(innermost.1, 1636);
    }

    #[test]
    fn the_innermost_frame_is_a_pythons_last_and_a_panics_own_location() {
        let c = cited(&[("github.com/psf/requests", "requests/models.py")]);
        let py = "Traceback (most recent call last):\n  File \"/app/main.py\", line 3, in <module>\n    r.json()\n  File \"/v/lib/python3.11/site-packages/requests/models.py\", line 910, in json\n    return complexjson.loads(self.text)\n  File \"/v/lib/python3.11/site-packages/simplejson/decoder.py\", line 40, in loads\n    raise JSONDecodeError()\nrequests.exceptions.JSONDecodeError: Expecting value";
        let r = super::super::pasted::read_citing(py, &|code| c.holds(code)).expect("a traceback");
        assert_eq!(
            r.innermost,
            Some((
                "/v/lib/python3.11/site-packages/requests/models.py".to_string(),
                910
            ))
        );
        assert!(!r.around.contains("simplejson"), "{}", r.around);
        // `#[track_caller]`: the panic is located in the library, its caller's frames are not.
        let c = cited(&[("github.com/indexmap-rs/indexmap", "src/map/core.rs")]);
        let rust = "thread 'main' panicked at /h/.cargo/registry/src/index.crates.io-6f17d22bba15001f/indexmap-2.7.0/src/map/core.rs:675:17:\nindex out of bounds: the len is 3 but the index is 7";
        let r = super::super::pasted::read_citing(rust, &|code| c.holds(code)).expect("a panic");
        assert_eq!(r.innermost.map(|(_, l)| l), Some(675));
    }

    #[test]
    fn names_read_from_paths_and_ids() {
        assert_eq!(without_version("hyper-util-0.1.10"), "hyper-util");
        assert_eq!(without_version("tokio"), "tokio");
        assert_eq!(
            file_id("file:github.com/psf/requests@da9996fe4dc6:requests/models.py"),
            Some(("github.com/psf/requests", "requests/models.py"))
        );
        assert_eq!(without_suffix("commander.js"), "commander");
        assert_eq!(without_suffix("toml-rs"), "toml");
    }

    /// A C library's frames under four tools, the workspace citing `src/parser.c` and
    /// `src/lexer.c` of `acme/calc`: the asker's `main.c` calls into the library, which calls
    /// the C library.
    const GDB: &str = "Program received signal SIGSEGV, Segmentation fault.
0x000055555555516d in next_token (lx=0x0) at /home/ann/calc/src/lexer.c:88
88	    return lx->input[lx->pos];
(gdb) bt
#0  0x000055555555516d in next_token (lx=0x0) at /home/ann/calc/src/lexer.c:88
#1  0x00005555555551c2 in yyparse (state=0x5555555592a0) at /home/ann/calc/src/parser.c:214
#2  0x0000555555555213 in run_file (path=0x7fffffffe3c1 \"x.calc\") at app/main.c:31
#3  0x00007ffff7c29d90 in __libc_start_call_main (main=main@entry=0x555555555229 <main>, argc=argc@entry=2) at ../sysdeps/nptl/libc_start_call_main.h:58
#4  0x00007ffff7c29e40 in __libc_start_main_impl () from /lib/x86_64-linux-gnu/libc.so.6
#5  0x0000555555555085 in _start ()";

    const LLDB: &str = "* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x0)
  * frame #0: 0x0000000100003e5c calc`next_token(lx=0x0000000000000000) at lexer.c:88:12
    frame #1: 0x0000000100003eb0 calc`yyparse(state=0x0000600000004000) at parser.c:214:9
    frame #2: 0x0000000100003f6c calc`main(argc=2, argv=0x000000016fdff2a8) at main.c:5:3
    frame #3: 0x000000018c5b0274 dyld`start + 2840";

    const ASAN: &str = "=================================================================
==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x4c7a1b bp 0x7ffc sp 0x7ff4
READ of size 4 at 0x602000000010 thread T0
    #0 0x4c7a1b in next_token /build/calc/src/lexer.c:88:12
    #1 0x4c7b02 in yyparse /build/calc/src/parser.c:214:9
    #2 0x4c7c10 in main /build/calc/app/main.c:5:3
    #3 0x7f2b1c829d8f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58:16
    #4 0x41b0a9 in _start (/build/calc/a.out+0x41b0a9)

0x602000000010 is located 0 bytes inside of 4-byte region [0x602000000010,0x602000000014)
freed by thread T0 here:
    #0 0x49345d in free (/build/calc/a.out+0x49345d)
    #1 0x4c7a70 in lexer_free /build/calc/src/lexer.c:40:5

SUMMARY: AddressSanitizer: heap-use-after-free /build/calc/src/lexer.c:88:12 in next_token
Shadow bytes around the buggy address:
  0x0c047fff7fb0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
=>0x0c047fff8000: fa fa[fd]fa fa fa fa fa fa fa fa fa fa fa fa fa
Shadow byte legend (one shadow byte represents 8 application bytes):
  Addressable:           00
==4242==ABORTING";

    const VALGRIND: &str = "==7031== Memcheck, a memory error detector
==7031== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.
==7031== Command: ./calc x.calc
==7031==
==7031== Invalid read of size 4
==7031==    at 0x1091A6: next_token (lexer.c:88)
==7031==    by 0x109202: yyparse (parser.c:214)
==7031==    by 0x109263: main (main.c:5)
==7031==  Address 0x4a8e040 is 0 bytes inside a block of size 4 free'd
==7031==    at 0x484B27F: free (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==7031==    by 0x1091F0: lexer_free (lexer.c:40)
==7031==
==7031== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)";

    #[test]
    fn c_frames_of_gdb_lldb_asan_and_valgrind_are_read_against_the_cited_code() {
        let c = cited(&[
            ("github.com/acme/calc", "src/parser.c"),
            ("github.com/acme/calc", "src/lexer.c"),
        ]);
        let read = |q: &str| {
            super::super::pasted::read_citing(q, &|code| c.holds(code)).expect("a C trace")
        };
        // The cited library's frames are around (function and file), the asker's `main.c` and
        // the C library's are not; the innermost cited frame is the library's first.
        // The debugger's and sanitizer's words about how the program stopped are the tool's,
        // as Go's signal line is: not what the asker says.
        let r = read(GDB);
        assert_eq!(r.said, "");
        assert_eq!(r.runtime, "SIGSEGV, Segmentation fault");
        assert_eq!(
            r.around,
            "next_token\nlexer.c\nreturn lx->input[lx->pos];\nnext_token\nlexer.c\nyyparse\nparser.c"
        );
        assert_eq!(r.code, "return lx->input[lx->pos];");
        assert_eq!(
            r.innermost,
            Some(("/home/ann/calc/src/lexer.c".to_string(), 88))
        );
        let r = read(LLDB);
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("", "EXC_BAD_ACCESS")
        );
        assert_eq!(r.around, "next_token\nlexer.c\nyyparse\nparser.c");
        assert_eq!(r.innermost, Some(("lexer.c".to_string(), 88)));
        let r = read(ASAN);
        assert_eq!(
            r.around,
            "next_token\nlexer.c\nyyparse\nparser.c\nlexer_free\nlexer.c"
        );
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("", "heap-use-after-free")
        );
        assert_eq!(
            r.innermost,
            Some(("/build/calc/src/lexer.c".to_string(), 88))
        );
        let r = read(VALGRIND);
        assert_eq!(
            r.said,
            "Invalid read of size 4\nAddress 0x4a8e040 is 0 bytes inside a block of size 4 free'd"
        );
        assert_eq!(
            r.around,
            "next_token\nlexer.c\nyyparse\nparser.c\nlexer_free\nlexer.c"
        );
        assert_eq!(r.innermost, Some(("lexer.c".to_string(), 88)));
        // A workspace citing other code reads every frame as the asker's or the system's.
        let other = cited(&[("github.com/acme/other", "src/other.c")]);
        let r =
            super::super::pasted::read_citing(ASAN, &|code| other.holds(code)).expect("a trace");
        assert_eq!((r.around.as_str(), r.innermost), ("", None));
        // A C++ frame's signature is dropped from its name.
        let cpp = "    #0 0x4c7a1b in calc::Lexer::next(int) const /build/calc/src/lexer.cc:12:3";
        let lexer = cited(&[("github.com/acme/calc", "src/lexer.cc")]);
        let r = super::super::pasted::read_citing(cpp, &|code| lexer.holds(code)).expect("a frame");
        assert_eq!(r.around, "calc::Lexer::next\nlexer.cc");
    }
}
