//! `ontoly mcp`: the Model Context Protocol server over stdio.
//!
//! Built on the official Rust SDK (`rmcp`). The graph is loaded once, in the background while
//! the client completes the handshake; every tool call then runs on the blocking pool against
//! the shared, immutable state, so concurrent calls proceed in parallel and a slow call never
//! stalls the protocol loop. Stdout carries protocol messages only; logs go to stderr.

mod backend;
mod error;
mod tools;
mod transport;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, ServerInitializeError};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tokio::sync::watch;

use backend::{Backend, ToolOutput};
use error::ToolError;
use ontoly_graph::diagnostics::Code;
use tools::{
    expected_args, parse_args, CapabilitiesInput, CapabilityInput, DriftInput, EvidencePackInput,
    ImpactInput, ReadInput, ReadManyInput, ResolveInput, SearchInput, TOOL_NAMES,
};

/// What agents are told at `initialize`: how the tools fit together.
const INSTRUCTIONS: &str = "\
ontoly answers questions from an evidence graph built from a knowledge workspace and the git \
repositories it cites, and reads those repositories at pinned commits.
1. Call `EvidencePack` with the question first. Its `answer`, `confidence`, `topNodes` and \
`diagnostics` are often enough; cite its `provenance` (graphHash) when you present an answer.
2. To verify, or whenever confidence is not `high` or `fallbacks` is non-empty, read the \
`filesToInspect` entries with `read` (or `read_many` for several ranges of one repository): pass \
the entry's `repository`, its `commit` as `revision`, `path`, `startLine` and `endLine`. Stay \
on the returned commits for the whole answer; never switch to a branch midway. A read returns \
the lines asked for unless `truncated` is true (then read on from `nextStartLine`); `hasMore` \
only says the file goes on past them.
3. Knowledge pages (`knowledge/**.md`, a pack's section `file`) are read from the workspace's \
own repository, the pack's `provenance.repository`, by that path even when the workspace is a \
directory of the repository (the result's `path` says where). Reading one returns the page text followed \
by the `references:` of the sections on those lines; read those sources at their pinned commits \
next.
4. `resolve` pins a branch to a full commit once, before several reads; `search` finds text at a \
pinned commit (no match is not proof of absence).
5. A pack's `nextToolCalls` are its next steps as tool calls to send as they are (`{tool, \
arguments}`), first a `read` of its top section's page lines; its `suggestedCommands` are the same for a shell. `capabilities` lists further \
graph queries; run one with `capability {name, input}`.
Tool failures come back as results with isError whose text is a JSON {code, message} body; read \
the message, fix the arguments and retry.";

/// The outcome of loading the workspace: shared by every call once ready.
type Loaded = Result<Arc<Backend>, ToolError>;

/// The MCP server: the tool table over a backend that becomes ready once the graph is loaded.
#[derive(Clone)]
pub struct OntolyServer {
    backend: watch::Receiver<Option<Loaded>>,
    reload: Arc<Reload>,
    tools: Arc<Vec<Tool>>,
    /// Tool calls answered at once ([`MAX_CALLS_AT_ONCE`]); the others wait their turn.
    calls: Arc<tokio::sync::Semaphore>,
}

/// How many tool calls run at once. A call may hold a whole blob (a read of a 40 MB file
/// decompresses it) and a search a core: a client that pipelines a thousand calls without
/// waiting for answers (a hostile walk, stop 43: 14 GB, then the server died) waits instead,
/// its requests answered in turn. Two per core keeps the cores busy while one call waits on
/// the disk.
const MAX_CALLS_AT_ONCE: usize = 8;

/// Replaces the backend when a call found the mapped snapshot corrupt or changed, or the
/// workspace changed.
struct Reload {
    tx: watch::Sender<Option<Loaded>>,
    lock: std::sync::Mutex<()>,
    /// The workspace as the server was started on, nothing loaded: a load that failed (the
    /// workspace was mid-edit, or broken) is tried again from it on the next call.
    origin: ontoly_graph::Session,
}

impl Reload {
    /// A backend for a call that found the last load failed: loaded again (once, whichever
    /// call comes first), or the error again. Blocking.
    fn retried(&self) -> Loaded {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Ok(b)) = self.tx.borrow().clone() {
            return Ok(b);
        }
        let loaded = Backend::load(self.origin.reopened()).map(Arc::new);
        self.tx.send_replace(Some(loaded.clone()));
        loaded
    }

    /// Answers `call` from `backend`, or from a backend loaded again first when a cache file
    /// it maps changed on disk or the workspace changed since it was loaded. When a read of the
    /// snapshot failed its checksum while answering, that answer may miss what the block held:
    /// it is discarded, a backend is loaded from a snapshot checked whole (rebuilt when it
    /// fails) and published for later calls, and the call is answered from it. Blocking.
    fn answer(&self, call: Call, backend: Arc<Backend>) -> Result<ToolOutput, ToolError> {
        // A cache file changed under the mapping (rewritten or truncated in place by a copy, a
        // restore, `rsync --inplace`): reading it could fault or give other bytes.
        let backend = if backend.cache_changed() {
            self.reloaded(&backend, Why::CacheChanged)?
        } else if backend.workspace_changed() {
            // A page, the structure, a registry or a clone changed since the graph was loaded:
            // answering from it would contradict a read of the same file.
            self.reloaded(&backend, Why::WorkspaceChanged)?
        } else {
            backend
        };
        let out = call.clone().run(backend.as_ref());
        if !backend.is_corrupt() {
            return out;
        }
        let fresh = self.reloaded(&backend, Why::Corrupt)?;
        call.run(fresh.as_ref())
    }

    /// The backend published after `stale`, loading one when no other call has yet. Blocking.
    fn reloaded(&self, stale: &Arc<Backend>, why: Why) -> Result<Arc<Backend>, ToolError> {
        let _one_at_a_time = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let current = self.tx.borrow().clone();
        match current {
            Some(Ok(b))
                if !Arc::ptr_eq(&b, stale)
                    && !b.is_corrupt()
                    && !b.cache_changed()
                    && !b.workspace_changed() =>
            {
                Ok(b)
            }
            _ => {
                eprintln!("ontoly mcp: {}", why.message());
                let loaded = match why {
                    Why::WorkspaceChanged => stale.reload(),
                    Why::CacheChanged | Why::Corrupt => stale.reload_verified(),
                }
                .map(Arc::new);
                self.tx.send_replace(Some(loaded.clone()));
                loaded
            }
        }
    }
}

/// Why a backend is loaded again.
#[derive(Clone, Copy)]
enum Why {
    /// A cache file it maps changed on disk.
    CacheChanged,
    /// A read of its snapshot failed its checksum.
    Corrupt,
    /// The workspace's inputs changed since it was loaded.
    WorkspaceChanged,
}

impl Why {
    fn message(self) -> &'static str {
        match self {
            Why::CacheChanged => "the snapshot under .ontoly/ changed on disk; reloading it",
            Why::Corrupt => {
                "the snapshot under .ontoly/ failed its checksum; reloading from a rebuilt one"
            }
            Why::WorkspaceChanged => "the workspace changed since it was loaded; rebuilding",
        }
    }
}

impl OntolyServer {
    /// Loads `session`'s graph and index on the blocking pool and returns a server whose
    /// calls wait for them.
    pub fn start(session: ontoly_graph::Session) -> Self {
        let (tx, rx) = watch::channel(None);
        let reload = Arc::new(Reload {
            tx,
            lock: std::sync::Mutex::new(()),
            origin: session.reopened(),
        });
        let loader = reload.clone();
        tokio::task::spawn_blocking(move || {
            let loaded = Backend::load(session).map(Arc::new);
            if let Err(e) = &loaded {
                eprintln!("ontoly mcp: {}", e.text());
            }
            loader.tx.send_replace(Some(loaded));
        });
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            backend: rx,
            reload,
            tools: Arc::new(tools::all()),
            calls: Arc::new(tokio::sync::Semaphore::new(
                (2 * cores).clamp(2, MAX_CALLS_AT_ONCE),
            )),
        }
    }

    async fn backend(&self) -> Loaded {
        let mut rx = self.backend.clone();
        let loaded = match rx.wait_for(Option::is_some).await {
            Ok(loaded) => loaded.clone(),
            Err(_) => None,
        };
        loaded.unwrap_or_else(|| Err(unavailable("the loader stopped before finishing")))
    }
}

fn unavailable(why: &str) -> ToolError {
    ToolError::new(
        Code::GraphUnavailable,
        format!("the graph is not available: {why}"),
    )
}

/// A successful call: the structured result plus the text renderer's drawing of it (a read's
/// position and a search's totals first, as a client showing only text needs them).
fn success(out: ToolOutput) -> CallToolResult {
    let rendered = crate::render::render(&out.report, crate::render::Format::Text, false);
    let text = rendered
        .map(|r| r.stderr.unwrap_or_default() + &r.stdout)
        .unwrap_or_default();
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(out.structured);
    result
}

/// A failed call: `isError` with the `{code, message}` JSON as its text and no structured
/// content, which would have to match the tool's success-shaped `outputSchema` (see
/// [`ToolError::body`]).
fn failure(error: &ToolError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.body())])
}

/// One parsed tool call. Arguments are checked before the graph is needed, so a malformed call
/// fails fast with `INVALID_ARGUMENTS` even while the workspace is still loading.
#[derive(Clone)]
enum Call {
    EvidencePack(EvidencePackInput),
    Capabilities,
    Capability(CapabilityInput),
    Resolve(ResolveInput),
    Read(ReadInput),
    ReadMany(ReadManyInput),
    Search(SearchInput),
    Drift(DriftInput),
    Impact(ImpactInput),
}

impl Call {
    fn parse(name: &str, args: Option<rmcp::model::JsonObject>) -> Result<Call, ToolError> {
        let expected = expected_args(name);
        Ok(match name {
            "EvidencePack" => {
                let input: EvidencePackInput = parse_args(name, args, expected)?;
                // As `ontoly evidence ""` is a usage error: an empty question is the caller's
                // mistake, not a question nothing answers.
                if input.query.trim().is_empty() {
                    return Err(ToolError::new(
                        Code::InvalidArguments,
                        format!("invalid arguments for `{name}`: `query` is empty, ask a question; expected {expected}"),
                    ));
                }
                Call::EvidencePack(input)
            }
            "capabilities" => {
                let _: CapabilitiesInput = parse_args(name, args, expected)?;
                Call::Capabilities
            }
            "capability" => Call::Capability(parse_args(name, args, expected)?),
            "resolve" => Call::Resolve(parse_args(name, args, expected)?),
            "read" => Call::Read(parse_args(name, args, expected)?),
            "read_many" => Call::ReadMany(parse_args(name, args, expected)?),
            "search" => Call::Search(parse_args(name, args, expected)?),
            "Drift" => Call::Drift(parse_args(name, args, expected)?),
            "Impact" => Call::Impact(parse_args(name, args, expected)?),
            other => {
                return Err(ToolError::new(
                    Code::UnknownTool,
                    format!("unknown tool `{other}`"),
                ))
            }
        })
    }

    /// Runs the call against the backend. Blocking.
    fn run(self, backend: &Backend) -> Result<ToolOutput, ToolError> {
        match self {
            Call::EvidencePack(a) => backend.evidence_pack(&a.query, a.limit),
            Call::Capabilities => Ok(backend.capabilities()),
            Call::Capability(a) => backend.capability(&a.name, a.input),
            Call::Resolve(a) => backend.resolve(&a),
            Call::Read(a) => backend.read(&a),
            Call::ReadMany(a) => backend.read_many(&a),
            Call::Search(a) => backend.search(&a),
            Call::Drift(a) => backend.drift(&a),
            Call::Impact(a) => backend.impact(&a),
        }
    }
}

impl ServerHandler for OntolyServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("ontoly", env!("CARGO_PKG_VERSION"))
                    .with_title("ontoly evidence graph"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        if !TOOL_NAMES.contains(&name.as_str()) {
            // An unknown tool is a protocol error (the request cannot be routed), as the MCP
            // specification prescribes; it names the tools that exist.
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{name}`; the tools are {}",
                    TOOL_NAMES.join(", ")
                ),
                None,
            ));
        }
        let call = match Call::parse(&name, request.arguments) {
            Ok(call) => call,
            Err(e) => return Ok(failure(&e).into()),
        };
        // Held until the answer is built: the blocking work below is what costs memory.
        let Ok(_turn) = self.calls.clone().acquire_owned().await else {
            return Ok(failure(&unavailable("the server is shutting down")).into());
        };
        let reload = self.reload.clone();
        let backend = match self.backend().await {
            Ok(backend) => backend,
            Err(_) => {
                let again = reload.clone();
                match tokio::task::spawn_blocking(move || again.retried()).await {
                    Ok(Ok(backend)) => backend,
                    Ok(Err(e)) => return Ok(failure(&e).into()),
                    Err(_) => return Ok(failure(&unavailable("the loader failed")).into()),
                }
            }
        };
        let outcome = tokio::task::spawn_blocking(move || reload.answer(call, backend)).await;
        let result = match outcome {
            Ok(Ok(out)) => success(out),
            Ok(Err(e)) => failure(&e),
            Err(join) => {
                eprintln!("ontoly mcp: a tool call failed unexpectedly: {join}");
                failure(&ToolError::new(
                    Code::InternalError,
                    "the tool failed unexpectedly; the server keeps running",
                ))
            }
        };
        Ok(result.into())
    }
}

/// Serves `server` over stdin/stdout until the client closes stdin; returns the exit code.
async fn serve_stdio(server: OntolyServer) -> u8 {
    let transport = transport::LineTransport::new(
        tokio::io::BufReader::new(tokio::io::stdin()),
        tokio::io::stdout(),
        transport::MAX_MESSAGE_BYTES,
    );
    let running = match rmcp::serve_server(server, transport).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => {
            eprintln!("ontoly mcp: stdin closed before initialization; exiting");
            return 0;
        }
        Err(e) => {
            eprintln!("ontoly mcp: initialization failed: {e}");
            return 2;
        }
    };
    match running.waiting().await {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("ontoly mcp: the session ended abnormally: {e}");
            1
        }
    }
}

/// Runs the server until the client closes stdin; the session's graph is loaded in the
/// background while the client completes the handshake. Returns the process exit code.
pub fn run(session: ontoly_graph::Session) -> u8 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("ontoly mcp: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let code = runtime.block_on(async move {
        let server = OntolyServer::start(session);
        serve_stdio(server).await
    });
    // A blocking stdin read cannot be cancelled; do not wait on it at exit.
    runtime.shutdown_timeout(Duration::from_millis(200));
    code
}
