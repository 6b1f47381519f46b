//! What a pruned search saves: the query bench's questions (`benches/common/queries.rs`) over
//! a workspace, each searched exhaustively (every posting scored) and pruned to the best
//! sections a ranking keeps, and ranked whole; the minimum of seven runs each, so a shared
//! host's noise mostly drops out.
//!
//! ```sh
//! cargo run --release -p ontoly-capabilities --example search_cost -- <workspace>
//! ```

#[path = "../benches/common/queries.rs"]
mod queries;

use ontoly_capabilities::retrieval::index::Params;
use ontoly_capabilities::retrieval::rank::{analyze, rank, PROPAGATE_TOP};
use ontoly_capabilities::Index;
use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::{CachePolicy, Session, SessionOptions};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), String> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: search_cost <workspace>")?,
    );
    let opts = SessionOptions::new(&root)
        .workspace(&root)
        .cache(CachePolicy::ReadWrite);
    let session = Session::open(opts).map_err(|e| e.to_string())?;
    let g = session.graph().map_err(|e| e.to_string())?;
    let index = Index::open(&session).map_err(|e| e.to_string())?;
    let queries = queries::queries(g);
    let p = Params::default();
    let (mut all, mut pruned, mut ranked) = (Vec::new(), Vec::new(), Vec::new());
    let (mut matched, mut unscored) = (0usize, 0usize);
    let min_of_7 = |f: &mut dyn FnMut()| {
        (0..7)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::MAX, f64::min)
    };
    for q in &queries {
        let (_, terms) = analyze(&index, q);
        all.push(min_of_7(&mut || {
            black_box(index.search(&terms, &[], &p));
        }));
        pruned.push(min_of_7(&mut || {
            black_box(index.search_best(&terms, &[], &p, PROPAGATE_TOP));
        }));
        ranked.push(min_of_7(&mut || {
            black_box(rank(g, &index, q));
        }));
        let best = index.search_best(&terms, &[], &p, PROPAGATE_TOP);
        unscored += best.unscored();
        matched += best.unscored()
            + best
                .iter()
                .filter(|&(_, k, s)| k == NodeKind::Section && s > 0.0)
                .count();
    }
    let p50 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{}: {} queries; sections matched {matched}, left unscored {unscored} ({:.0} %); p50 ms: search every posting {:.3}, pruned {:.3}, whole ranking {:.3}",
        root.display(),
        queries.len(),
        100.0 * unscored as f64 / matched.max(1) as f64,
        p50(&mut all),
        p50(&mut pruned),
        p50(&mut ranked)
    );
    Ok(())
}
