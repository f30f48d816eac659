//! The limits every expression is held to before a parser sees it: not empty, not longer than
//! [`MAX_EXPRESSION_LEN`], brackets not nested deeper than [`MAX_EXPRESSION_NESTING`]. The
//! parsers recurse per level, deeply enough that a few hundred levels overflow a thread's stack.

use std::ops::Range;

use crate::CompileError;

/// The deepest bracket nesting an expression may have. The CEL parser recurses per level and per
/// chained term, deeply enough that a few hundred levels overflow a thread's stack.
pub const MAX_EXPRESSION_NESTING: usize = 32;

/// The longest expression, in bytes, that is compiled.
pub const MAX_EXPRESSION_LEN: usize = 8 * 1024;

/// Refuses `source` with a located error when it is empty, too long or nested too deep.
pub(crate) fn check(source: &str) -> Result<(), CompileError> {
    if source.trim().is_empty() {
        return Err(CompileError {
            message: "the expression is empty".to_owned(),
            range: 0..source.len(),
        });
    }
    if source.len() > MAX_EXPRESSION_LEN {
        return Err(CompileError {
            message: format!(
                "the expression is {} bytes long; expressions longer than {MAX_EXPRESSION_LEN} bytes are not compiled",
                source.len()
            ),
            range: 0..source.len(),
        });
    }
    let (depth, deepest) = nesting(source);
    if depth > MAX_EXPRESSION_NESTING {
        return Err(CompileError {
            message: format!(
                "brackets are nested {depth} levels deep here; at most {MAX_EXPRESSION_NESTING} are allowed"
            ),
            range: deepest,
        });
    }
    Ok(())
}

/// The deepest nesting of `(`, `[` and `{` outside string literals, and the byte range of the
/// bracket that reached it.
pub(crate) fn nesting(source: &str) -> (usize, Range<usize>) {
    let (mut depth, mut deepest, mut at) = (0usize, 0usize, 0..0);
    let mut quote: Option<char> = None;
    let mut chars = source.char_indices();
    while let Some((index, ch)) = chars.next() {
        match quote {
            Some(open) => {
                if ch == '\\' {
                    chars.next();
                } else if ch == open {
                    quote = None;
                }
            }
            None => match ch {
                '\'' | '"' => quote = Some(ch),
                '(' | '[' | '{' => {
                    depth += 1;
                    if depth > deepest {
                        deepest = depth;
                        at = index..index + 1;
                    }
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    (deepest, at)
}
