//! The workspace session.
