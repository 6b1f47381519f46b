//! The one vocabulary of diagnostic codes and severities.
