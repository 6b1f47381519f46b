//! ontoly-capabilities: the evidence model, the capability registry, retrieval, confidence,
//! Evidence Packs, and the repository plugin contract.
//!
//! A query flows: [`index::Index`] (BM25 over identifier-aware tokens, built with the graph and
//! stored in the snapshot) → [`rank`] (propagation along the graph) → [`confidence`] →
//! [`pack::EvidencePack`]. Every capability runs through [`registry::run`] and answers with an
//! [`evidence::CapabilityResult`]; same graph and input, byte-identical JSON.

pub mod check;
pub mod confidence;
pub mod evidence;
pub mod index;
pub mod pack;
pub mod plugin;
mod queries;
pub mod rank;
pub mod registry;
pub mod render;
mod walk;

pub use evidence::CapabilityResult;
pub use index::Index;
pub use pack::EvidencePack;
pub use registry::{run, run_json, Context};
