//! Go's regular expressions (package `regexp`, RE2 syntax), as the dashboard compiles a color
//! rule's `~` pattern, read by the `regex` crate: the one compile behind lint's check of the
//! pattern and the colours `sources try` draws.
//!
//! The dashboard compiles `(?i)` and the pattern with `regexp.Compile` each time it colours a
//! text, and a pattern that does not compile matches nothing. The two syntaxes are close but not
//! the same, so the pattern is first rewritten into one `regex` reads as Go reads the original:
//! a `{` that does not start a repetition count is a literal (`{id}`, `a{,3}`, `a{01}`); `\Q…\E`
//! quotes a literal; an octal escape (`\012`) is a character; an escaped punctuation mark is that
//! mark (`\<` is `<`, not a word boundary); inside a class `[` is a literal and `&&`, `--`, `~~`
//! are no set operations; `\d`, `\s`, `\w` and `\b` are ASCII; `\p{^Greek}` is `\P{Greek}`; a
//! flag may repeat (`(?ii)`) and `(?)` sets none. What Go refuses and `regex` would read is
//! refused with Go's reason: a repetition of a repetition (`a**`, `a{2}*`), a count over 1000,
//! flags other than `i`, `m`, `s` and `U` (`(?x)`), lookaround, `\u`, a one-digit back
//! reference (`\1`), a capture name that is not a word (`(?P<a.b>…)`). A capture's name is
//! dropped: it changes no match, and Go takes names `regex` refuses (`(?P<1a>…)`, a name twice).
//!
//! Not followed: Go also refuses nested counts whose product passes 1000 (`(a{100}){100}`), here
//! at most too large; a surrogate escape (`\x{D800}`), which Go reads and never matches, is
//! refused here.

pub use regex::Regex;
use regex::RegexBuilder;
use regex_syntax::ast::ErrorKind;

/// The most a compiled pattern may take (a rule is one line of a configuration).
const SIZE_LIMIT: usize = 1 << 16;

/// The names of Go's ASCII classes (`[[:alpha:]]`), each also `regex`'s.
const ASCII_CLASSES: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// The largest count Go takes in `{n}`, `{n,}` and `{n,m}`.
const MAX_COUNT: u64 = 1000;

/// Why a pattern does not compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// Go refuses it: the reason, in a few words (`unclosed group`).
    Invalid(String),
    /// Go compiles it, but it is larger, or nests deeper, than is compiled here.
    TooLarge,
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatternError::Invalid(why) => f.write_str(why),
            PatternError::TooLarge => f.write_str("too large to compile here"),
        }
    }
}

/// Whether Go compiles `pattern` as the dashboard does, `Err` with Go's reason when it does not:
/// the pattern is read, not built into a matcher, so lint's check of every rule of a file stays
/// cheap. A pattern `check` passes may still be [`PatternError::TooLarge`] for [`compile`].
pub fn check(pattern: &str) -> Result<(), PatternError> {
    parse(pattern).map(drop)
}

/// `pattern` rewritten in the `regex` crate's syntax and read by its parser, or why it cannot
/// be. Read with case: ignoring it ([`compile`]) refuses nothing more, and folding every letter's
/// case is most of the reading's cost. Past the syntax, only a Unicode class's name (`\p{…}`,
/// `\P{…}`) can be refused, so the syntax tree is translated only where one may be written.
fn parse(pattern: &str) -> Result<String, PatternError> {
    let rust = translate(pattern).map_err(PatternError::Invalid)?;
    let read = if rust.contains("\\p") || rust.contains("\\P") {
        regex_syntax::ParserBuilder::new()
            .build()
            .parse(&rust)
            .map(drop)
    } else {
        regex_syntax::ast::parse::ParserBuilder::new()
            .build()
            .parse(&rust)
            .map(drop)
            .map_err(regex_syntax::Error::Parse)
    };
    if let Err(error) = read {
        return Err(match error {
            regex_syntax::Error::Parse(error)
                if matches!(error.kind(), ErrorKind::NestLimitExceeded(_)) =>
            {
                PatternError::TooLarge
            }
            regex_syntax::Error::Parse(error) => PatternError::Invalid(error.kind().to_string()),
            regex_syntax::Error::Translate(error) => {
                PatternError::Invalid(error.kind().to_string())
            }
            error => PatternError::Invalid(error.to_string()),
        });
    }
    Ok(rust)
}

/// `pattern` compiled as the dashboard compiles it: Go's syntax, ignoring case.
pub fn compile(pattern: &str) -> Result<Regex, PatternError> {
    let rust = parse(pattern)?;
    RegexBuilder::new(&rust)
        .case_insensitive(true)
        .size_limit(SIZE_LIMIT)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(_) => PatternError::TooLarge,
            error => PatternError::Invalid(error.to_string()),
        })
}

/// `pattern`, in Go's syntax, rewritten in the `regex` crate's to mean what Go means by it; `Err`
/// with Go's reason where Go refuses what `regex` would read. What both refuse is left to `regex`.
fn translate(pattern: &str) -> Result<String, String> {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut rest = pattern;
    // Where the repetition just read starts: Go refuses another one right after it.
    let mut repeated: Option<&str> = None;
    while let Some(c) = rest.chars().next() {
        let at = rest;
        rest = &rest[c.len_utf8()..];
        let mut repetition = false;
        match c {
            '\\' => rest = escape(rest, &mut out)?,
            '[' => rest = class(rest, &mut out)?,
            '(' if rest.starts_with('?') => rest = group(at, &mut out)?,
            '*' | '+' | '?' => {
                out.push(c);
                rest = lazy(rest, &mut out);
                repetition = true;
            }
            '{' => match counts(rest) {
                Some((min, max, after)) => {
                    let written = &at[..at.len() - after.len()];
                    if min > MAX_COUNT || max.is_some_and(|max| max > MAX_COUNT || max < min) {
                        return Err(format!("invalid repeat count `{written}`"));
                    }
                    out.push_str(written);
                    rest = lazy(after, &mut out);
                    repetition = true;
                }
                None => out.push_str(r"\{"),
            },
            _ => out.push(c),
        }
        if repetition {
            if let Some(previous) = repeated {
                let written = &previous[..previous.len() - rest.len()];
                return Err(format!("invalid nested repetition operator `{written}`"));
            }
            repeated = Some(at);
        } else {
            repeated = None;
        }
    }
    Ok(out)
}

/// The `?` that makes the repetition before `rest` lazy, copied; the rest after it.
fn lazy<'a>(rest: &'a str, out: &mut String) -> &'a str {
    match rest.strip_prefix('?') {
        Some(after) => {
            out.push('?');
            after
        }
        None => rest,
    }
}

/// Go's counts after a `{`: `n}`, `n,}` or `n,m}` (no upper bound: `None`), and the rest; `None`
/// when the text is no count, and Go reads the `{` as a literal.
fn counts(text: &str) -> Option<(u64, Option<u64>, &str)> {
    let (min, text) = number(text)?;
    let (max, text) = match text.strip_prefix(',') {
        None => (Some(min), text),
        Some(text) if text.starts_with('}') => (None, text),
        Some(text) => {
            let (max, text) = number(text)?;
            (Some(max), text)
        }
    };
    Some((min, max, text.strip_prefix('}')?))
}

/// A count's decimal number (Go takes no leading zero) and the rest.
fn number(text: &str) -> Option<(u64, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && text.starts_with('0')) {
        return None;
    }
    let value = text[..digits].parse().unwrap_or(u64::MAX);
    Some((value, &text[digits..]))
}

/// An escape outside a class (`text` follows its `\`): written into `out`; the rest after it.
fn escape<'a>(text: &'a str, out: &mut String) -> Result<&'a str, String> {
    let Some(c) = text.chars().next() else {
        return Err("trailing backslash at end of expression".to_owned());
    };
    let rest = &text[c.len_utf8()..];
    match c {
        'A' | 'z' => {
            out.push('\\');
            out.push(c);
        }
        'b' => out.push_str(r"(?-u:\b)"),
        'B' => out.push_str(r"(?-u:\B)"),
        'Q' => {
            let (quoted, after) = rest.split_once(r"\E").unwrap_or((rest, ""));
            for c in quoted.chars() {
                literal(c, out);
            }
            return Ok(after);
        }
        'p' | 'P' => return Ok(unicode_class(c, rest, out)),
        _ => match perl_class(c) {
            Some((class, true)) => {
                out.push('[');
                out.push_str(class);
                out.push(']');
            }
            Some((class, false)) => {
                out.push_str("[^");
                out.push_str(class);
                out.push(']');
            }
            None => return character_escape(text, out),
        },
    }
    Ok(rest)
}

/// Go's ASCII classes `\d`, `\s`, `\w` as the inside of a class, and whether `c` is the class
/// itself (lower case) or its complement; `None` for another letter.
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    let class = match c.to_ascii_lowercase() {
        'd' => "0-9",
        's' => r"\t\n\x0C\r ",
        'w' => "0-9A-Za-z_",
        _ => return None,
    };
    Some((class, c.is_ascii_lowercase()))
}

/// A Unicode class after `\p` or `\P` (`kind`): `\pL`, `\p{Greek}`, `\p{^Greek}` (Go's complement,
/// written `\P{Greek}` here); the rest after it. A malformed one is copied for `regex` to refuse.
fn unicode_class<'a>(kind: char, rest: &'a str, out: &mut String) -> &'a str {
    if let Some(name) = rest.strip_prefix("{^")
        && let Some((name, after)) = name.split_once('}')
    {
        out.push('\\');
        out.push(if kind == 'p' { 'P' } else { 'p' });
        out.push('{');
        out.push_str(name);
        out.push('}');
        return after;
    }
    out.push('\\');
    out.push(kind);
    let end = match rest.strip_prefix('{') {
        Some(braced) => braced.find('}').map_or(rest.len(), |at| at + 2),
        None => rest.chars().next().map_or(0, char::len_utf8),
    };
    out.push_str(&rest[..end]);
    &rest[end..]
}

/// One character escape, valid inside a class and out (`text` follows its `\`): the character,
/// written into `out` as `regex` reads it anywhere; the rest after it.
fn character_escape<'a>(text: &'a str, out: &mut String) -> Result<&'a str, String> {
    let Some(c) = text.chars().next() else {
        return Err("trailing backslash at end of expression".to_owned());
    };
    let rest = &text[c.len_utf8()..];
    let invalid = |written: &str| Err(format!("invalid escape sequence `\\{written}`"));
    let octal = |text: &str| text.starts_with(|c: char| ('0'..='7').contains(&c));
    let (value, rest) = match c {
        // A lone digit after `\` is a back reference, which Go does not have.
        '1'..='7' if !octal(rest) => return invalid(&text[..1]),
        '0'..='7' => {
            let digits = 1 + rest
                .bytes()
                .take(2)
                .take_while(|b| (b'0'..=b'7').contains(b))
                .count();
            let value = u32::from_str_radix(&text[..digits], 8).unwrap_or_default();
            (value, &text[digits..])
        }
        'x' => {
            let (digits, after) = match rest.strip_prefix('{') {
                Some(braced) => match braced.split_once('}') {
                    Some((digits, after)) => (digits, after),
                    None => return invalid(text),
                },
                None => rest.split_at(rest.char_indices().nth(2).map_or(rest.len(), |(at, _)| at)),
            };
            let ok = |digits: &str| {
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(digits, 16).ok())
                    .flatten()
                    .filter(|value| *value <= 0x10FFFF)
            };
            match ok(digits) {
                Some(value) if rest.starts_with('{') || digits.len() == 2 => (value, after),
                _ => return invalid(&text[..text.len() - after.len()]),
            }
        }
        'a' => (0x07, rest),
        'f' => (0x0C, rest),
        't' => (0x09, rest),
        'n' => (0x0A, rest),
        'r' => (0x0D, rest),
        'v' => (0x0B, rest),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => (u32::from(c), rest),
        _ => return invalid(&text[..c.len_utf8()]),
    };
    out.push_str(&format!("\\x{{{value:X}}}"));
    Ok(rest)
}

/// `c` as a literal `regex` reads anywhere: ASCII punctuation escaped as its code.
fn literal(c: char, out: &mut String) {
    if c.is_ascii() && !c.is_ascii_alphanumeric() {
        out.push_str(&format!("\\x{{{:X}}}", u32::from(c)));
    } else {
        out.push(c);
    }
}

/// A class (`text` follows its `[`): written into `out`; the rest after its `]`. As Go reads it,
/// a `]` first is a literal, `[` is a literal unless it opens `[:name:]`, `-` makes a range
/// between two characters and is a literal elsewhere.
fn class<'a>(text: &'a str, out: &mut String) -> Result<&'a str, String> {
    let mut rest = text;
    out.push('[');
    if let Some(after) = rest.strip_prefix('^') {
        out.push('^');
        rest = after;
    }
    let mut first = true;
    loop {
        if rest.is_empty() {
            // `regex` refuses the unclosed class.
            return Ok(rest);
        }
        if !first && let Some(after) = rest.strip_prefix(']') {
            out.push(']');
            return Ok(after);
        }
        first = false;
        if rest.starts_with("[:")
            && let Some(end) = rest[2..].find(":]")
        {
            let named = &rest[..end + 4];
            let name = &named[2..end + 2];
            if !ASCII_CLASSES.contains(&name.strip_prefix('^').unwrap_or(name)) {
                return Err(format!("invalid character class range `{named}`"));
            }
            out.push_str(named);
            rest = &rest[end + 4..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('\\') {
            if let Some(kind @ ('p' | 'P')) = after.chars().next() {
                rest = unicode_class(kind, &after[1..], out);
                continue;
            }
            if let Some((class, positive)) = after.chars().next().and_then(perl_class) {
                match positive {
                    true => out.push_str(class),
                    false => {
                        out.push_str("[^");
                        out.push_str(class);
                        out.push(']');
                    }
                }
                rest = &after[1..];
                continue;
            }
        }
        rest = class_character(rest, out)?;
        if let Some(after) = rest.strip_prefix('-')
            && !after.is_empty()
            && !after.starts_with(']')
        {
            out.push('-');
            rest = class_character(after, out)?;
        }
    }
}

/// One character of a class, an escape or itself; the rest after it.
fn class_character<'a>(text: &'a str, out: &mut String) -> Result<&'a str, String> {
    if let Some(after) = text.strip_prefix('\\') {
        return character_escape(after, out);
    }
    let c = text.chars().next().unwrap_or_default();
    literal(c, out);
    Ok(&text[c.len_utf8()..])
}

/// A group that starts `(?` (`text` starts at its `(`): flags, a named capture or a plain group,
/// written into `out`; the rest after its opening.
fn group<'a>(text: &'a str, out: &mut String) -> Result<&'a str, String> {
    let after = &text[2..];
    let unsupported = |end: usize| {
        let written = text.get(..end).unwrap_or(text);
        Err(format!("invalid or unsupported Perl syntax `{written}`"))
    };
    // A name changes nothing a match answers, and Go takes names `regex` refuses (`(?P<1a>…)`,
    // one name twice): the group is written without it.
    if let Some(name_on) = after.strip_prefix("P<").or_else(|| after.strip_prefix('<')) {
        let Some((name, rest)) = name_on.split_once('>') else {
            return Err(format!("invalid named capture `{text}`"));
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            let written = &text[..text.len() - rest.len()];
            return Err(format!("invalid named capture `{written}`"));
        }
        out.push('(');
        return Ok(rest);
    }
    // Flags: on (`i`, `m`, `s`, `U`), then off after a `-`; Go lets a flag repeat, and a flag both
    // on and off is off.
    let (mut on, mut off) = (String::new(), String::new());
    let mut negated = false;
    let mut seen = false;
    for (index, c) in after.char_indices() {
        let end = 2 + index + c.len_utf8();
        match c {
            'i' | 'm' | 's' | 'U' => {
                seen = true;
                let (add, remove) = if negated {
                    (&mut off, &mut on)
                } else {
                    (&mut on, &mut off)
                };
                remove.retain(|flag| flag != c);
                if !add.contains(c) {
                    add.push(c);
                }
            }
            '-' if !negated => {
                negated = true;
                seen = false;
            }
            ':' | ')' => {
                if negated && !seen {
                    return unsupported(end);
                }
                let flags = match off.is_empty() {
                    true => on,
                    false => format!("{on}-{off}"),
                };
                match (c, flags.is_empty()) {
                    (')', true) => {}
                    _ => {
                        out.push_str("(?");
                        out.push_str(&flags);
                        out.push(c);
                    }
                }
                return Ok(&text[end..]);
            }
            _ => return unsupported(end),
        }
    }
    Err(format!("missing closing ) `{text}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Go 1.19's `regexp.Compile("(?i)" + pattern)` answered for each pattern (`None`:
    /// it compiled), and Go 1.25's where it differs (`(?<n>a)`, which Go 1.22 added).
    const GO: &[(&str, Option<&str>)] = &[
        ("a{", None),
        ("a{x}", None),
        ("{foo}", None),
        ("}", None),
        ("a{2}", None),
        ("a{100}", None),
        ("a{1001}", Some("invalid repeat count `{1001}`")),
        ("a{2,1}", Some("invalid repeat count `{2,1}`")),
        ("a{1,1001}", Some("invalid repeat count `{1,1001}`")),
        ("a{1001,}", Some("invalid repeat count `{1001,}`")),
        (
            "a{99999999999}",
            Some("invalid repeat count `{99999999999}`"),
        ),
        ("a{01}", None),
        ("a{0}", None),
        ("a{,3}", None),
        ("a{ 2 }", None),
        ("x{2}{", None),
        ("a**", Some("invalid nested repetition operator `**`")),
        ("a*?", None),
        ("a*??", Some("invalid nested repetition operator `*??`")),
        (
            "a{2}{3}",
            Some("invalid nested repetition operator `{2}{3}`"),
        ),
        ("a{2}*", Some("invalid nested repetition operator `{2}*`")),
        (
            "(?:a)*{2}",
            Some("invalid nested repetition operator `*{2}`"),
        ),
        (r"\Qa.b\E", None),
        (r"\Qa.b", None),
        (r"a\Q*\E+", None),
        (r"\<x\>", None),
        ("(?x)a b", Some("invalid or unsupported Perl syntax `(?x`")),
        ("(?u)a", Some("invalid or unsupported Perl syntax `(?u`")),
        ("(?R)a", Some("invalid or unsupported Perl syntax `(?R`")),
        ("(?)", None),
        ("(?ii)a", None),
        ("(?i-i)a", None),
        ("(?i-)a", Some("invalid or unsupported Perl syntax `(?i-)`")),
        ("(?-)a", Some("invalid or unsupported Perl syntax `(?-)`")),
        ("(?P<n>a)", None),
        ("(?<n>a)", None),
        ("(?P<a.b>a)", Some("invalid named capture `(?P<a.b>`")),
        ("(?P<>x)", Some("invalid named capture `(?P<>`")),
        ("(?P<n>a)(?P<n>b)", None),
        ("(?P<1a>x)", None),
        ("(?P=n)", Some("invalid or unsupported Perl syntax `(?P`")),
        ("(?=a)", Some("invalid or unsupported Perl syntax `(?=`")),
        (r"\012", None),
        (r"\0", None),
        (r"\1", Some(r"invalid escape sequence `\1`")),
        (r"\18", Some(r"invalid escape sequence `\1`")),
        (r"\8", Some(r"invalid escape sequence `\8`")),
        ("[[a]]", None),
        ("[a[]", None),
        ("[a&&b]", None),
        ("[a--b]", Some("invalid character class range")),
        ("[a~~b]", None),
        (r"\pL", None),
        (r"\p{Greek}", None),
        (r"\p{^Greek}", None),
        (r"\z", None),
        (r"\Z", Some(r"invalid escape sequence `\Z`")),
        (r"\e", Some(r"invalid escape sequence `\e`")),
        (r"\u0041", Some(r"invalid escape sequence `\u`")),
        (r"\C", Some(r"invalid escape sequence `\C`")),
        (r"\w{100}", None),
        (r"\b{start}", None),
        (r"\%", None),
        (r"\_", None),
        (r"\ ", None),
        (r"[\<]", None),
        (r"[\d-z]", None),
        (r"[a-\d]", Some(r"invalid escape sequence `\d`")),
        (r"[\b]", Some(r"invalid escape sequence `\b`")),
        ("[]a]", None),
        ("[^]a]", None),
        ("[]", Some("unclosed character class")),
        ("[z-a]", Some("invalid character class range")),
        ("[[:alpha:]]", None),
        ("[[:word:]]", None),
        ("[[:^alpha:]]", None),
        ("[a-]", None),
        ("[-a]", None),
        ("[a-b-c]", None),
        (r"[\x41-\x{5A}]", None),
        (r"\p{Greek", Some("")),
        ("[[:foo:]]", Some("invalid character class range `[:foo:]`")),
        ("[[:alpha:]", Some("unclosed character class")),
        (r"\x{110000}", Some(r"invalid escape sequence `\x{110000}`")),
        (r"\x4", Some(r"invalid escape sequence `\x4`")),
        (r"\x{}", Some(r"invalid escape sequence `\x{}`")),
        ("(", Some("unclosed group")),
        (")", Some("unopened group")),
        ("a|*", Some("repetition operator missing expression")),
        ("^*", None),
        ("$+", None),
        (r"\b*", None),
        ("\\", Some("trailing backslash at end of expression")),
        ("é{2}", None),
        (r"\é", Some(r"invalid escape sequence `\é`")),
        (r"[\é]", Some(r"invalid escape sequence `\é`")),
        ("(?U)a+", None),
        ("(?:)", None),
        (r"\pN", None),
        (r"\p{Any}", None),
        (r"\p{Han}", None),
        (r"[\p{L}]", None),
        (r"[\P{^L}]", None),
        (r"\Q\E*", Some("repetition operator missing expression")),
        (r"[\Q]", Some(r"invalid escape sequence `\Q`")),
    ];

    #[test]
    fn patterns_compile_where_go_compiles_them() {
        for (pattern, go) in GO {
            let ours = compile(pattern).err();
            match (go, &ours) {
                (None, None) => {}
                (Some(why), Some(PatternError::Invalid(ours))) => {
                    assert!(ours.contains(why), "{pattern}: Go: {why}; here: {ours}")
                }
                _ => panic!("{pattern}: Go: {go:?}; here: {ours:?}"),
            }
            // Lint's check, which reads without building, gives the same verdict.
            let checked = check(pattern).err();
            match (go, &checked) {
                (None, None) => {}
                (Some(_), Some(PatternError::Invalid(checked))) => {
                    assert_eq!(Some(&PatternError::Invalid(checked.clone())), ours.as_ref());
                }
                _ => panic!("{pattern}: Go: {go:?}; check: {checked:?}"),
            }
        }
    }

    /// What Go 1.19's `regexp.MustCompile("(?i)" + pattern).MatchString(text)` answered.
    const GO_MATCHES: &[(&str, &str, bool)] = &[
        ("crash|err", "CrashLoopBackOff", true),
        (r"^\w+$", "café", false),
        (r"^\d$", "٣", false),
        (r"\bb", "éb", true),
        (r"\s", "\u{0B}", false),
        ("{id}", "x{ID}y", true),
        ("a{,3}", "a{,3}", true),
        ("a{01}", "a{01}", true),
        ("[[a]]", "[]", true),
        ("[[a]]", "a", false),
        (r"\<x\>", "<X>", true),
        ("[a&&b]", "&", true),
        (r"\Qa.b\E", "a.b", true),
        (r"\Qa.b\E", "axb", false),
        (r"\012", "\n", true),
        (r"\p{^Greek}", "α", false),
        ("[^]a]", "]", false),
        ("(?-i)A", "a", false),
        ("k", "\u{212A}", true),
    ];

    #[test]
    fn patterns_match_what_go_matches() {
        for (pattern, text, go) in GO_MATCHES {
            let regex = compile(pattern).expect(pattern);
            assert_eq!(regex.is_match(text), *go, "{pattern} on {text:?}");
        }
    }

    #[test]
    fn a_pattern_too_large_to_compile_here_says_so() {
        // Go compiles both.
        assert_eq!(compile("a{1000}").err(), Some(PatternError::TooLarge));
        assert_eq!(check("a{1000}"), Ok(()), "lint says nothing of it");
    }

    #[test]
    fn an_unknown_unicode_class_is_refused_by_the_check_too() {
        for pattern in [r"\p{Foo}", r"\pX", r"[\P{Nope}a]", r"x\p{^Foo}"] {
            assert!(
                matches!(check(pattern), Err(PatternError::Invalid(_))),
                "{pattern}: {:?}",
                check(pattern)
            );
        }
        let deep = format!("{}a{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(compile(&deep).err(), Some(PatternError::TooLarge));
    }
}
