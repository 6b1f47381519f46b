//! Cutting a file's text into the lines a read returns: the 500-line and 256 KiB budgets,
//! continuation, and the text encoding rules.

use super::*;

/// The lines of a text and where each starts: line `n` (1-based) is
/// `text[starts[n-1]..starts[n]]` (the last one to the end). A final newline does not start
/// an extra, empty line; an empty text has no lines.
pub(super) struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub(super) fn new(text: &str) -> LineIndex {
        let mut starts = Vec::new();
        if !text.is_empty() {
            starts.push(0);
            for i in memchr::memchr_iter(b'\n', text.as_bytes()) {
                if i + 1 < text.len() {
                    starts.push(i + 1);
                }
            }
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    pub(super) fn count(&self) -> u64 {
        self.starts.len() as u64
    }

    /// Byte range of lines `a..=b` (1-based, within bounds).
    pub(super) fn range(&self, a: u64, b: u64) -> (usize, usize) {
        let s = self.starts[(a - 1) as usize];
        let e = self.starts.get(b as usize).copied().unwrap_or(self.len);
        (s, e)
    }
}

/// The lines a read returns, after the line clamp and the byte budget.
pub(super) struct Slice {
    pub(super) start: u64,
    /// Last returned line (`start - 1` when none).
    pub(super) end: u64,
    pub(super) content: String,
    pub(super) has_more: bool,
    /// Cut by the clamp or a budget.
    pub(super) truncated: bool,
    /// Cut by the caller's budget (not by the single-read limits).
    pub(super) budget_cut: bool,
}

/// Line-range validation shared by `read` and `read_many` items.
pub(super) fn requested_range(
    start: Option<i64>,
    end: Option<i64>,
) -> Result<(u64, u64), ReadError> {
    let start = start.unwrap_or(1);
    if start < 1 {
        return Err(err(
            Code::InvalidLineRange,
            format!("Invalid line range: startLine is {start}, and must be at least 1"),
        ));
    }
    let start = start as u64;
    let end = match end {
        None => start + MAX_READ_LINES - 1,
        Some(e) if e < 1 || (e as u64) < start => {
            return Err(err(
                Code::InvalidLineRange,
                format!("Invalid line range: endLine {e} is before startLine {start}"),
            ))
        }
        Some(e) => e as u64,
    };
    Ok((start, end))
}

/// Takes lines `start..=end` of `text` within `max_lines`/`max_bytes` (and the single-read
/// limits). `partial_first` allows cutting the first line when it alone exceeds the bytes.
pub(super) fn slice(
    text: &str,
    start: u64,
    end: u64,
    max_lines: u64,
    max_bytes: usize,
) -> Result<Slice, ReadError> {
    let idx = LineIndex::new(text);
    let total = idx.count();
    if total == 0 && start == 1 {
        return Ok(Slice {
            start,
            end: 0,
            content: String::new(),
            has_more: false,
            truncated: false,
            budget_cut: false,
        });
    }
    if start > total {
        return Err(err(
            Code::LineRangeNotSatisfiable,
            format!("Line range not satisfiable: startLine {start} is past the end of the file ({total} lines)"),
        ));
    }
    let wanted_last = end.min(total);
    let single_last = wanted_last.min(start + MAX_READ_LINES - 1);
    let mut last = wanted_last.min(start + max_lines.min(MAX_READ_LINES) - 1);
    let byte_cap = max_bytes.min(MAX_READ_BYTES);
    let (s, _) = idx.range(start, start);
    // Shrink to whole lines within the byte budget.
    let mut e = idx.range(start, last).1;
    if e - s > byte_cap {
        let limit = s + byte_cap;
        // The number of whole lines whose end is within the limit.
        let fit = idx.starts[start as usize..]
            .iter()
            .take_while(|&&ls| ls <= limit)
            .count() as u64;
        last = start + fit - 1;
        if fit == 0 {
            last = start - 1;
        }
        e = if fit == 0 {
            s
        } else {
            idx.range(start, last).1
        };
    }
    let mut content = text[s..e].to_string();
    let mut end_line = last;
    let mut cut_line = false;
    if last < start && max_bytes >= MAX_READ_BYTES {
        // One line longer than a whole read: return its head so the reader still progresses.
        let mut cut = s + byte_cap;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        content = text[s..cut].to_string();
        end_line = start;
        cut_line = true;
    }
    let truncated = end_line < wanted_last || cut_line;
    Ok(Slice {
        start,
        end: end_line,
        content,
        has_more: end_line < total,
        truncated,
        budget_cut: truncated && end_line < single_last,
    })
}

/// Checks a blob is text the reads can return.
pub(super) fn decode_text(bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(err(
            Code::UnsupportedTextEncoding,
            "Unsupported text encoding: the file is UTF-16; only UTF-8 text can be read",
        ));
    }
    if memchr::memchr(0, &bytes).is_some() {
        return Err(err(
            Code::BinaryFile,
            "Binary file: the file contains NUL bytes",
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        err(
            Code::UnsupportedTextEncoding,
            "Unsupported text encoding: the file is not valid UTF-8",
        )
    })
}
