//! Stage 2: parse the structure, every page and the registries, reusing each file's cached
//! parse when its hash is unchanged. This is the only place a workspace's files are parsed:
//! later readers (the references of `ontoly refs`, line numbers of findings) ask the
//! [`Parsed`] it returns, which the snapshot keeps beside the graph.

use super::inputs::Inputs;
use super::{BuildError, BuildReport, CacheStatus, Progress};
use crate::formats::layout::STRUCTURE_FILE;
use crate::formats::page::parse_page;
use crate::formats::parsed::{parse_structure_file, Parsed};
use crate::formats::source_registry::{
    FileProblem, FileReadError, Registries, RegistryKind, RegistryState,
};
use rayon::prelude::*;

/// Parses what changed since `cached` (the structure and pages by hash; the registries are
/// small and always parsed) and records in `report` what was reused.
pub(super) fn parse_all(
    inputs: &Inputs,
    mut cached: Parsed,
    progress: Option<&dyn Progress>,
    report: &mut BuildReport,
) -> Result<Parsed, BuildError> {
    // Read, or vouched for by the snapshot's manifest (then the build read it only if the
    // parse cache did not hold its parse).
    let structure_file = inputs.get(STRUCTURE_FILE);
    let structure_hash = match (structure_file, inputs.vouched_hash(STRUCTURE_FILE)) {
        (Some(f), _) => f.hash.clone(),
        (None, Some(h)) => h.to_string(),
        (None, None) => return Err(BuildError(format!("{STRUCTURE_FILE} is missing"))),
    };
    let pages: Vec<&str> = inputs.pages().collect();
    let cached_structure = std::mem::take(&mut cached.structure);
    let ((structure, structure_parsed), page_parses) = rayon::join(
        || {
            if cached_structure.0 == structure_hash {
                (cached_structure.1, false)
            } else {
                let bytes = match structure_file {
                    Some(f) => f.bytes.as_deref().map_err(String::as_str),
                    None => Err("file not read"),
                };
                (parse_structure_file(bytes), true)
            }
        },
        || {
            pages
                .par_iter()
                .map(|&p| {
                    let file = inputs.get(&format!("knowledge/{p}"));
                    let r = match (cached.pages.get(p), file) {
                        (Some(c), Some(f)) if c.hash == f.hash => {
                            let mut c = c.clone();
                            if let Ok(b) = &f.bytes {
                                c.restore_texts(b);
                            }
                            (c, false)
                        }
                        (_, Some(f)) => (
                            parse_page(p, f.bytes.as_deref().map_err(String::as_str), &f.hash),
                            true,
                        ),
                        (_, None) => (parse_page(p, Err("file not found"), ""), true),
                    };
                    if let Some(pr) = progress {
                        pr.advance(1);
                    }
                    r
                })
                .collect::<Vec<_>>()
        },
    );
    report.structure_parsed = structure_parsed;
    report.pages_parsed = page_parses.iter().filter(|p| p.1).count();
    report.pages_reused = page_parses.len() - report.pages_parsed;
    if report.cache != CacheStatus::Disabled
        && (report.pages_reused > 0 || !report.structure_parsed)
    {
        report.cache = CacheStatus::Partial;
    }
    Ok(Parsed {
        structure: (structure_hash, structure),
        pages: pages
            .iter()
            .map(|p| p.to_string())
            .zip(page_parses.into_iter().map(|p| p.0))
            .collect(),
        registries: load_registries(inputs),
        unlisted: inputs
            .unlisted()
            .map(|(dir, why)| (dir.to_string(), why.to_string()))
            .collect(),
    })
}

/// Reads the three registries from the already read inputs (so they are part of the cache key
/// and read once).
fn load_registries(inputs: &Inputs) -> Registries {
    let files = |path: &str| -> Result<Vec<u8>, FileReadError> {
        match inputs.get(path).map(|f| &f.bytes) {
            Some(Ok(b)) => Ok(b.clone()),
            Some(Err(m)) if m.starts_with(super::inputs::TOO_LARGE) => Err(FileReadError::TooLarge),
            _ => Err(FileReadError::Unreadable),
        }
    };
    let mut registries = Registries::load(&files, "");
    // A registry that is there but was not read (a link out of the workspace, a FIFO) is
    // unusable, not absent: "does not exist, create it" at every reference was wrong advice.
    for kind in [RegistryKind::Repo, RegistryKind::File, RegistryKind::Lark] {
        if let (RegistryState::Absent, Some(Err(why))) = (
            registries.get(kind),
            inputs.get(&kind.index_path()).map(|f| &f.bytes),
        ) {
            let why = why.clone();
            registries.set(kind, RegistryState::Unusable(FileProblem::Refused(why)));
        }
    }
    registries
}
