//! Tokens of the C subset found inside a SCoP, with source positions.
//!
//! Only what the SCoP grammar needs is distinguished; every token keeps its
//! byte span so statement text can be reprinted verbatim later.

use super::SourceError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Int(i64),
    /// Floating literals, strings, characters: kept verbatim, never analysed.
    Other(String),
    Punct(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// Byte offsets into the file.
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub col: usize,
}

const PUNCTS: [&str; 44] = [
    "<<=", ">>=", "...", "->", "++", "--", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=",
    "|=", "^=", "<<", ">>", "(", ")", "[", "]", "{", "}", ";", ",", "<", ">", "=", "+", "-", "*", "/", "%", "!", "?",
    ":", "&", "|", ".",
];

/// Splits `src[start..end]` into tokens. `line0` is the 1-based line of `start`.
pub fn lex(src: &str, start: usize, end: usize, line0: usize) -> Result<Vec<Token>, SourceError> {
    lex_with(src, start, end, line0, false)
}

/// Tokens of code outside a SCoP, which tss only scans for declarations and
/// uses: preprocessor lines and characters the SCoP grammar does not know
/// are skipped instead of being errors, and an unterminated literal ends
/// the scan.
pub fn lex_outside(src: &str, start: usize, end: usize) -> Vec<Token> {
    let line0 = src[..start].matches('\n').count() + 1;
    lex_with(src, start, end, line0, true).unwrap_or_default()
}

fn lex_with(src: &str, start: usize, end: usize, line0: usize, lenient: bool) -> Result<Vec<Token>, SourceError> {
    let bytes = src.as_bytes();
    let mut toks = Vec::new();
    let (mut i, mut line, mut line_start) = (start, line0, start);
    // Column of byte `i` is counted from the beginning of its line.
    let line_begin = src[..start].rfind('\n').map_or(0, |p| p + 1);
    if line_begin < start {
        line_start = line_begin;
    }
    while i < end {
        let c = bytes[i];
        let col = i - line_start + 1;
        let err = |msg: String| SourceError { line, col, msg };
        if c == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..end].starts_with("//") {
            while i < end && bytes[i] != b'\n' {
                i += 1;
            }
        } else if src[i..end].starts_with("/*") {
            let Some(close) = src[i + 2..end].find("*/") else {
                return if lenient { Ok(toks) } else { Err(err("unterminated comment".into())) };
            };
            for b in &bytes[i..i + 2 + close + 2] {
                if *b == b'\n' {
                    line += 1;
                }
            }
            let next = i + 2 + close + 2;
            if let Some(nl) = src[i..next].rfind('\n') {
                line_start = i + nl + 1;
            }
            i = next;
        } else if c == b'#' && lenient {
            // A directive ends at a newline not escaped by a backslash.
            while i < end && !(bytes[i] == b'\n' && bytes[i - 1] != b'\\') {
                if bytes[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
        } else if c == b'#' {
            return Err(err("preprocessor directive inside a SCoP is not supported".into()));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < end && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            toks.push(Token { tok: Tok::Ident(src[s..i].to_string()), start: s, end: i, line, col });
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < end && bytes[i + 1].is_ascii_digit()) {
            let s = i;
            while i < end {
                let b = bytes[i];
                let exp_sign = (b == b'+' || b == b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
                if b.is_ascii_alphanumeric() || b == b'.' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let text = &src[s..i];
            let tok = match text.trim_end_matches(['u', 'U', 'l', 'L']).parse::<i64>() {
                Ok(v) if !text.starts_with('0') || text == "0" => Tok::Int(v),
                _ => Tok::Other(text.to_string()),
            };
            toks.push(Token { tok, start: s, end: i, line, col });
        } else if c == b'"' || c == b'\'' {
            let s = i;
            i += 1;
            while i < end && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            if i >= end {
                return if lenient { Ok(toks) } else { Err(err("unterminated literal".into())) };
            }
            i += 1;
            toks.push(Token { tok: Tok::Other(src[s..i].to_string()), start: s, end: i, line, col });
        } else if let Some(p) = PUNCTS.iter().find(|p| src[i..end].starts_with(**p)) {
            toks.push(Token { tok: Tok::Punct(p), start: i, end: i + p.len(), line, col });
            i += p.len();
        } else if lenient {
            i += src[i..].chars().next().map_or(1, char::len_utf8);
        } else {
            return Err(err(format!("unexpected character '{}'", src[i..].chars().next().unwrap_or('?'))));
        }
    }
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_kinds() {
        let src = "x\n  for (i = 0; i <= N-1; i++) /* c\n */ A[i] = 1.5e-3;";
        let t = lex(src, 2, src.len(), 2).unwrap();
        assert_eq!(t[0].tok, Tok::Ident("for".into()));
        assert_eq!((t[0].line, t[0].col), (2, 3));
        assert!(t.iter().any(|t| t.tok == Tok::Punct("<=")));
        assert!(t.iter().any(|t| t.tok == Tok::Other("1.5e-3".into())));
        let a = t.iter().find(|t| t.tok == Tok::Ident("A".into())).unwrap();
        assert_eq!((a.line, a.col), (3, 5));
    }

    #[test]
    fn directive_is_an_error() {
        let src = "#define X 1\n";
        let e = lex(src, 0, src.len(), 1).unwrap_err();
        assert!(e.msg.contains("preprocessor"));
    }
}
