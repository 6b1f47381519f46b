//! What a capability runs against: the graph, its search index, the workspace's identity, and
//! (for a workspace opened from disk) its [`Session`], through which a capability reads
//! repositories at a commit and the parses the graph was built from. Capabilities do no file
//! I/O except through the session.

use crate::evidence::{Identity, Provenance};
use crate::retrieval::Index;
use ontoly_graph::graph::Graph;
use ontoly_graph::{Session, SessionError};

/// The context of every capability call. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    /// The evidence graph.
    pub graph: &'a Graph,
    /// Its search index.
    pub index: &'a Index,
    identity: Identity,
    session: Option<&'a Session>,
}

impl<'a> Context<'a> {
    /// The context of a workspace opened as `session`, with its graph and `index`.
    pub fn new(session: &'a Session, index: &'a Index) -> Result<Context<'a>, SessionError> {
        Ok(Context {
            graph: session.graph()?,
            index,
            identity: Identity {
                name: session.name().to_string(),
                root: session.display_root().to_string(),
                knowledge_commit: session.knowledge_commit(),
            },
            session: Some(session),
        })
    }

    /// The context of a graph with no workspace on disk behind it (built in memory): every
    /// capability answers from the graph; none can read a repository.
    pub fn detached(graph: &'a Graph, index: &'a Index, identity: Identity) -> Context<'a> {
        Context {
            graph,
            index,
            identity,
            session: None,
        }
    }

    /// The workspace's name and root as provenance shows them.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The provenance of every result from this context.
    pub fn provenance(&self) -> Provenance {
        Provenance::of(self.graph, &self.identity)
    }

    /// The session behind the graph, when it was opened from disk.
    pub fn session(&self) -> Option<&'a Session> {
        self.session
    }
}
