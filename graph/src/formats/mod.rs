//! The workspace formats: what a knowledge workspace's files say, parsed without git and
//! without building a graph.
//!
//! Invariant: nothing here touches the network or a git repository, and every path it hands
//! out is workspace- or repository-relative and `/`-separated. Hostile input (YAML bombs, deep
//! nesting, huge files, unsafe paths) becomes an error value naming the file and line, never a
//! panic.

pub mod confined;
pub mod headings;
pub mod layout;
pub mod location;
pub mod markers;
pub mod marking;
pub mod page;
pub mod parsed;
pub mod references;
pub mod remote;
pub mod source_ref;
pub mod source_registry;
pub mod structure;
pub mod text;
pub mod yaml;
pub mod yaml_edit;
pub(crate) mod yaml_scan;
