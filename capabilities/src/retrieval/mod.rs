//! Retrieval: the search index over the graph's texts (BM25 over identifier-aware tokens,
//! built once per graph and stored beside the snapshot) and the ranking that propagates its
//! scores along the graph.
//!
//! Invariant: a ranking depends only on the graph, the index and the query; work is bounded by
//! counts, never by time, and ties break by id.

mod builder;
pub mod cited_code;
pub mod columns;
pub mod english;
pub mod index;
pub mod pasted;
pub mod rank;
pub mod semantic;
mod stored;
pub mod tokens;
mod update;

pub use index::Index;
