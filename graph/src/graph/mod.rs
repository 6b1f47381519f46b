//! The evidence graph: its model and stable ids ([`model`]), the assembled [`Graph`] with its
//! blake3 hash ([`core`]), the parallel [`build`], build [`findings`] and the [`snapshot`]
//! cache.
//!
//! Invariant: the same inputs give the same nodes, edges, ids and hash, whatever the thread
//! count, the machine, the time, or where (and under which directory name) the workspace sits.

pub mod build;
pub(crate) mod canonical;
pub mod core;
pub mod fasthash;
pub mod findings;
pub mod model;
pub mod prefetch;
pub mod snapshot;
pub mod store;

pub use self::core::Graph;
pub use model::{
    ids, Edge, EdgeKind, MetaKey, Metadata, Node, NodeKind, Origin, Span, GRAPH_VERSION,
};
