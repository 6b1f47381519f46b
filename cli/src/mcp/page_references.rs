//! The evidence appended to reads of knowledge pages: the references of the sections that
//! overlap the returned lines, rendered by `graph::references` (the same code as
//! `ontoly plugin enrich`), over the files of the repository at the commit that was read.

use std::sync::mpsc;

use ontoly_graph::reads::{EvidenceHook, PageRead};
use ontoly_graph::references::{references_for_range, RangeQuery};
use ontoly_graph::registry::{ReadError, WorkspaceFiles};

/// Renders `references:` (and `diagnostics:`) YAML for a read of a knowledge page.
pub struct PageReferences;

type FileRequest = (String, mpsc::Sender<Option<String>>);

/// Files served by the thread that owns the pinned repository handle. The reader's file
/// access is a thread-local git handle (not `Sync`), while the reference renderer asks for
/// `Sync` file access; requests therefore travel over a channel to the owning thread.
struct ChannelFiles {
    requests: mpsc::Sender<FileRequest>,
}

impl WorkspaceFiles for ChannelFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, ReadError> {
        let (reply, answer) = mpsc::channel();
        self.requests
            .send((path.to_string(), reply))
            .map_err(|_| ReadError::Unreadable)?;
        match answer.recv() {
            Ok(Some(text)) => Ok(text.into_bytes()),
            _ => Err(ReadError::Unreadable),
        }
    }
}

impl EvidenceHook for PageReferences {
    fn references(&self, page: &PageRead<'_>) -> Option<String> {
        // `repo-content:` references name the knowledge repository: its web URL when it has a
        // remote (the reference renderer applies the URL rules).
        let repository = page.remote_key.map(|key| format!("https://{key}"));
        let query = RangeQuery {
            path: page.path,
            start_line: page.start_line,
            end_line: page.end_line,
            include_digest: false,
        };
        let workspace_root = page.workspace_root;
        std::thread::scope(|scope| {
            let (requests, incoming) = mpsc::channel::<FileRequest>();
            let renderer = scope.spawn(move || {
                let files = ChannelFiles { requests };
                references_for_range(&query, &files, workspace_root, repository.as_deref())
                    .to_yaml()
            });
            // Every structure and registry file is read at the commit of the page itself, so
            // the references describe exactly the revision the agent is looking at. The loop
            // ends when the renderer finishes and drops its sender.
            for (path, reply) in incoming {
                let _ = reply.send((page.read_file)(&path));
            }
            renderer.join().ok().flatten()
        })
    }
}
