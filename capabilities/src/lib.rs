//! ontoly-capabilities: the evidence model, capability registry, retrieval, confidence,
//! Evidence Packs, and the repository plugin contract.

pub mod plugin;
