//! ontoly-capabilities: the evidence model, the capability registry and every capability,
//! retrieval and ranking, confidence, Evidence Packs, the CI gate and the repository plugin
//! contract.
//!
//! A query flows: [`retrieval::Index`] (BM25F over identifier-aware tokens, built with the
//! graph and stored in the snapshot) → [`retrieval::rank`] (propagation along the graph) →
//! [`pack::confidence`] → [`pack::EvidencePack`]. Every capability runs through
//! [`registry::run`] against a [`Context`] and answers with an [`evidence::CapabilityResult`];
//! same graph and input, byte-identical JSON. Capabilities return typed results; rendering
//! them (text, Mermaid, annotations…) is the CLI's job.
//!
//! Invariant: capabilities do no file I/O except through the [`ontoly_graph::Session`] of
//! their [`Context`].

#![deny(missing_docs)]

pub mod context;
pub mod drift;
pub mod evidence;
pub mod gate;
pub mod impact;
pub mod inputs;
pub mod pack;
pub mod plugin;
mod queries;
pub mod registry;
pub mod retrieval;
pub mod walk;

pub use context::Context;
pub use evidence::CapabilityResult;
pub use pack::EvidencePack;
pub use registry::{run, run_json};
pub use retrieval::Index;
