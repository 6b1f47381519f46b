//! Search.
pub const MAX: usize = 10;

pub struct Searcher {
    limit: usize,
}

impl Searcher {
    pub fn new(limit: usize) -> Self {
        Searcher { limit }
    }

    pub fn search_slice(&self, hay: &[u8]) -> usize {
        fn helper(x: u8) -> bool {
            x == b'a'
        }
        hay.iter().filter(|b| helper(**b)).count().min(self.limit)
    }
}

pub trait Sink {
    fn matched(&mut self, line: u64);
}

pub mod util {
    pub enum Mode {
        Fast,
        Slow,
    }
    pub fn pick() -> Mode {
        Mode::Fast
    }
}
