//! Proc macros behind `ito::format!` and `ito::concat!`. Use those; the
//! entry points here take a private input format produced by ito's
//! `macro_rules!` front end:
//!
//! ```text
//! format_impl!($crate; "fmt string" [name (expr)] [(expr)] ...)
//! concat_impl!($crate; [expr] [expr] ...)
//! ```
//!
//! The format string is parsed here, at compile time, with std's grammar
//! (`{}`, `{0}`, `{name}`, `{:spec}`, `{{`, `}}`), arguments are resolved
//! (positional, named, inline captures, `N$`/`name$` and `.*` parameters),
//! unused or missing arguments are compile errors, and the output is
//! measure-then-write code for ito's `__rt` runtime:
//!
//! ```text
//! match (&(a), &(b), &captured) { (__ito_a0, __ito_a1, __ito_a2) => {
//!     let __ito_p0 = (&&&Arg(__ito_a0)).__ito_kind().measure(&mut ctx); // plain {}
//!     let __ito_p1 = ctx.render(format_args!("{0:>1$}", __ito_a1, *__ito_a2)); // with a spec
//!     let len = LITERAL_BYTES + __ito_p0.len() + __ito_p1.len();
//!     let mut buf = InlineBuf::uninit(); // used only when len <= 23
//!     let mut w = Writer::new(len, &mut buf); // the only allocation, exact size
//!     w.write_known("lit", FACTS); w.piece(&__ito_p0, &ctx); ...
//!     w.finish()
//! }}
//! ```
//!
//! No `syn`/`quote`: the input is already split into one group per argument
//! by the `macro_rules!` front end, so a small hand parser suffices and the
//! crate has no dependencies. Code is generated as text with marker
//! identifiers that are then replaced by the real tokens (the `$crate` path,
//! the user's expressions with their spans, and captured identifiers with
//! the format string's span so they resolve at the call site).

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::fmt::Write as _;
use std::str::FromStr;

type Error = (String, Span);

/// `ito::format!` back end (internal).
#[proc_macro]
pub fn format_impl(input: TokenStream) -> TokenStream {
    expand_format(input).unwrap_or_else(|(msg, span)| compile_error(&msg, span))
}

/// `ito::concat!` back end (internal).
#[proc_macro]
pub fn concat_impl(input: TokenStream) -> TokenStream {
    expand_concat(input).unwrap_or_else(|(msg, span)| compile_error(&msg, span))
}

fn compile_error(msg: &str, span: Span) -> TokenStream {
    let mut lit = Literal::string(msg);
    lit.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut group = Group::new(Delimiter::Parenthesis, TokenTree::Literal(lit).into());
    group.set_span(span);
    [
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(group),
    ]
    .into_iter()
    .collect()
}

/// Strip invisible (`$x:expr`/`$x:literal`) groups around a single token.
fn unwrap_none(mut tt: TokenTree) -> TokenTree {
    loop {
        match &tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                let mut inner = g.stream().into_iter();
                match (inner.next(), inner.next()) {
                    (Some(one), None) => tt = one,
                    _ => return tt,
                }
            }
            _ => return tt,
        }
    }
}

/// One argument expression and how it is referred to.
struct Arg {
    name: Option<String>,
    /// The expression as a parenthesised group, or a captured identifier.
    expr: ArgExpr,
    used: bool,
}

enum ArgExpr {
    Tokens(TokenTree),
    Capture(String),
}

enum Piece {
    Lit(String),
    Ph(Placeholder),
}

struct Placeholder {
    arg: ArgRef,
    spec: Option<Spec>,
}

#[derive(Clone)]
enum ArgRef {
    Next,
    Index(usize),
    Name(String),
}

enum Count {
    None,
    Lit(String),
    Arg(ArgRef),
    Star,
}

struct Spec {
    fill_align: String,
    flags: String,
    width: Count,
    precision: Count,
    ty: String,
}

fn split_header(input: TokenStream) -> Result<(TokenTree, Vec<TokenTree>), Error> {
    let mut it = input.into_iter();
    let krate = it
        .next()
        .ok_or_else(|| ("missing crate path".to_string(), Span::call_site()))?;
    match it.next() {
        Some(TokenTree::Punct(p)) if p.as_char() == ';' => {}
        _ => return Err(("expected `;` after crate path".into(), Span::call_site())),
    }
    Ok((krate, it.collect()))
}

fn expand_format(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, rest) = split_header(input)?;
    let mut rest = rest.into_iter();
    let lit_tt = unwrap_none(rest.next().ok_or_else(|| {
        (
            "requires at least a format string argument".to_string(),
            Span::call_site(),
        )
    })?);
    let lit_span = lit_tt.span();
    let fmt = match &lit_tt {
        TokenTree::Literal(l) => string_literal_value(&l.to_string()).ok_or_else(|| {
            (
                "format argument must be a string literal".to_string(),
                lit_span,
            )
        })?,
        _ => return Err(("format argument must be a string literal".into(), lit_span)),
    };
    let mut args: Vec<Arg> = Vec::new();
    let mut seen_named = false;
    for tt in rest {
        let TokenTree::Group(g) = tt else {
            return Err(("malformed arguments".into(), lit_span));
        };
        let mut inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let (name, expr) = match inner.len() {
            1 => (None, inner.pop().unwrap()),
            2 => {
                let expr = inner.pop().unwrap();
                let name = match inner.pop().unwrap() {
                    TokenTree::Ident(i) => i.to_string(),
                    other => return Err(("malformed named argument".into(), other.span())),
                };
                (Some(name), expr)
            }
            _ => return Err(("malformed arguments".into(), g.span())),
        };
        if name.is_none() && seen_named {
            return Err((
                "positional arguments cannot follow named arguments".into(),
                expr.span(),
            ));
        }
        if let Some(n) = &name {
            if args.iter().any(|a| a.name.as_deref() == Some(n)) {
                return Err((format!("duplicate argument named `{n}`"), expr.span()));
            }
            seen_named = true;
        }
        args.push(Arg {
            name,
            expr: ArgExpr::Tokens(expr),
            used: false,
        });
    }
    let pieces = parse_format(&fmt).map_err(|m| (m, lit_span))?;
    let explicit = args.len();
    let resolved = resolve(pieces, &mut args).map_err(|m| (m, lit_span))?;
    for (i, a) in args.iter().enumerate().take(explicit) {
        if !a.used {
            let span = match &a.expr {
                ArgExpr::Tokens(t) => t.span(),
                ArgExpr::Capture(_) => lit_span,
            };
            let what = match &a.name {
                Some(n) => format!("named argument `{n}` never used"),
                None => format!("argument {i} never used"),
            };
            return Err((what, span));
        }
    }
    Ok(generate(&krate, &args, &resolved, lit_span))
}

fn expand_concat(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, rest) = split_header(input)?;
    let mut args = Vec::new();
    let mut pieces = Vec::new();
    for tt in rest {
        let TokenTree::Group(g) = tt else {
            return Err(("malformed arguments".into(), tt.span()));
        };
        let mut inner = g.stream().into_iter();
        let (Some(e), None) = (inner.next(), inner.next()) else {
            return Err(("malformed arguments".into(), g.span()));
        };
        let e = unwrap_none(e);
        if let TokenTree::Literal(l) = &e {
            let text = l.to_string();
            if let Some(s) = string_literal_value(&text) {
                pieces.push(RPiece::Lit(s));
                continue;
            }
            if let Some(c) = char_literal_value(&text) {
                pieces.push(RPiece::Lit(c.to_string()));
                continue;
            }
        }
        let index = args.len();
        let expr = TokenTree::Group(Group::new(Delimiter::Parenthesis, e.into()));
        args.push(Arg {
            name: None,
            expr: ArgExpr::Tokens(expr),
            used: true,
        });
        pieces.push(RPiece::Plain(index));
    }
    Ok(generate(&krate, &args, &pieces, Span::call_site()))
}

/// A resolved piece: literal text, a plain `{}` of argument `i`, or a
/// placeholder with a spec rendered through `format_args!`.
enum RPiece {
    Lit(String),
    Plain(usize),
    Spec {
        value: usize,
        /// The rebuilt `{0:...}` format string.
        fmt: String,
        /// Extra `usize` arguments (width, precision) in order `1$`, `2$`.
        params: Vec<usize>,
    },
}

fn resolve(pieces: Vec<Piece>, args: &mut Vec<Arg>) -> Result<Vec<RPiece>, String> {
    let explicit = args.len();
    let mut next = 0usize;
    let mut out = Vec::new();
    let lookup = |r: &ArgRef, next: &mut usize, args: &mut Vec<Arg>| -> Result<usize, String> {
        let i = match r {
            ArgRef::Next => {
                let i = *next;
                *next += 1;
                if i >= explicit {
                    return Err(format!(
                        "{} positional argument{} in format string, but there {} {} argument{}",
                        i + 1,
                        if i == 0 { "" } else { "s" },
                        if explicit == 1 { "is" } else { "are" },
                        explicit,
                        if explicit == 1 { "" } else { "s" },
                    ));
                }
                i
            }
            ArgRef::Index(i) => {
                if *i >= explicit {
                    return Err(format!(
                        "invalid reference to positional argument {i} (there {} {explicit} argument{})",
                        if explicit == 1 { "is" } else { "are" },
                        if explicit == 1 { "" } else { "s" },
                    ));
                }
                *i
            }
            ArgRef::Name(n) => {
                if let Some(i) = args.iter().position(|a| a.name.as_deref() == Some(n)) {
                    i
                } else {
                    args.push(Arg {
                        name: Some(n.clone()),
                        expr: ArgExpr::Capture(n.clone()),
                        used: true,
                    });
                    args.len() - 1
                }
            }
        };
        args[i].used = true;
        Ok(i)
    };
    for p in pieces {
        match p {
            Piece::Lit(s) => out.push(RPiece::Lit(s)),
            Piece::Ph(Placeholder { arg, spec: None }) => {
                out.push(RPiece::Plain(lookup(&arg, &mut next, args)?))
            }
            Piece::Ph(Placeholder {
                arg,
                spec: Some(spec),
            }) => {
                // `.*` takes its precision from the next positional argument
                // *before* the value.
                let star = if matches!(spec.precision, Count::Star) {
                    Some(lookup(&ArgRef::Next, &mut next, args)?)
                } else {
                    None
                };
                let value = lookup(&arg, &mut next, args)?;
                let mut params = Vec::new();
                let mut fmt = String::from("{0:");
                fmt.push_str(&spec.fill_align);
                fmt.push_str(&spec.flags);
                match &spec.width {
                    Count::None | Count::Star => {}
                    Count::Lit(n) => fmt.push_str(n),
                    Count::Arg(r) => {
                        params.push(lookup(r, &mut next, args)?);
                        let _ = write!(fmt, "{}$", params.len());
                    }
                }
                match &spec.precision {
                    Count::None => {}
                    Count::Lit(n) => {
                        fmt.push('.');
                        fmt.push_str(n);
                    }
                    Count::Arg(r) => {
                        params.push(lookup(r, &mut next, args)?);
                        let _ = write!(fmt, ".{}$", params.len());
                    }
                    Count::Star => {
                        params.push(star.expect("star precision resolved"));
                        let _ = write!(fmt, ".{}$", params.len());
                    }
                }
                fmt.push_str(&spec.ty);
                fmt.push('}');
                out.push(RPiece::Spec { value, fmt, params });
            }
        }
    }
    Ok(out)
}

fn literal_facts(s: &str) -> u8 {
    let ascii = s.is_ascii();
    let safe = !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\');
    u8::from(ascii) | (u8::from(safe) << 1)
}

fn generate(krate: &TokenTree, args: &[Arg], pieces: &[RPiece], lit_span: Span) -> TokenStream {
    let mut code = String::new();
    // Merge adjacent literals.
    let mut merged: Vec<&RPiece> = Vec::new();
    let mut lits: Vec<String> = Vec::new();
    let mut lit_slots: Vec<Option<usize>> = Vec::new();
    for p in pieces {
        if let RPiece::Lit(s) = p {
            if s.is_empty() {
                continue;
            }
            if let Some(Some(last)) = lit_slots.last() {
                lits[*last].push_str(s);
                continue;
            }
            lits.push(s.clone());
            lit_slots.push(Some(lits.len() - 1));
            merged.push(p);
        } else {
            lit_slots.push(None);
            merged.push(p);
        }
    }
    let has_args = merged.iter().any(|p| !matches!(p, RPiece::Lit(_)));
    if !has_args {
        let text: String = lits.concat();
        if text.is_empty() {
            code.push_str("__ITO_CRATE__::Str::new()");
        } else {
            let _ = write!(code, "__ITO_CRATE__::Str::from_static({text:?})");
        }
        return finish(&code, krate, args, lit_span);
    }
    code.push_str("{ match (");
    for i in 0..args.len() {
        let _ = write!(code, "&__ITO_EXPR_{i}__, ");
    }
    code.push_str(") { (");
    for i in 0..args.len() {
        let _ = write!(code, "__ito_a{i}, ");
    }
    code.push_str(") => {\n");
    code.push_str(
        "#[allow(unused_imports)] use __ITO_CRATE__::__rt::{ViaStr as _, ViaInt as _, ViaDisplay as _};\n",
    );
    code.push_str("#[allow(unused_mut)] let mut __ito_ctx = __ITO_CRATE__::__rt::Ctx::new();\n");
    let mut lit_total = 0usize;
    let mut lit_index = 0usize;
    let mut writes = String::new();
    let mut lens = String::new();
    for (k, p) in merged.iter().enumerate() {
        match p {
            RPiece::Lit(_) => {
                let s = &lits[lit_index];
                lit_index += 1;
                lit_total += s.len();
                let _ = writeln!(
                    writes,
                    "__ito_w.write_known({s:?}, {}u8);",
                    literal_facts(s)
                );
            }
            RPiece::Plain(i) => {
                let _ = writeln!(
                    code,
                    "let __ito_p{k} = (&&&__ITO_CRATE__::__rt::Arg(__ito_a{i})).__ito_kind().measure(&mut __ito_ctx);"
                );
                let _ = write!(lens, " + __ito_p{k}.len()");
                let _ = writeln!(writes, "__ito_w.piece(&__ito_p{k}, &__ito_ctx);");
            }
            RPiece::Spec { value, fmt, params } => {
                let _ = write!(
                    code,
                    "let __ito_p{k} = __ito_ctx.render(::core::format_args!({fmt:?}, *__ito_a{value}"
                );
                for p in params {
                    let _ = write!(code, ", *__ito_a{p}");
                }
                code.push_str("));\n");
                let _ = write!(lens, " + __ito_p{k}.len()");
                let _ = writeln!(writes, "__ito_w.piece(&__ito_p{k}, &__ito_ctx);");
            }
        }
    }
    let _ = writeln!(code, "let __ito_len: usize = {lit_total}usize{lens};");
    code.push_str("let mut __ito_buf = __ITO_CRATE__::__rt::InlineBuf::uninit();\n");
    code.push_str(
        "let mut __ito_w = __ITO_CRATE__::__rt::Writer::new(__ito_len, &mut __ito_buf);\n",
    );
    code.push_str(&writes);
    code.push_str("__ito_w.finish()\n} } }");
    finish(&code, krate, args, lit_span)
}

fn finish(code: &str, krate: &TokenTree, args: &[Arg], lit_span: Span) -> TokenStream {
    let ts = TokenStream::from_str(code).expect("generated code parses");
    substitute(ts, krate, args, lit_span)
}

fn substitute(ts: TokenStream, krate: &TokenTree, args: &[Arg], lit_span: Span) -> TokenStream {
    ts.into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut ng =
                    Group::new(g.delimiter(), substitute(g.stream(), krate, args, lit_span));
                ng.set_span(g.span());
                TokenTree::Group(ng)
            }
            TokenTree::Ident(ref i) => {
                let s = i.to_string();
                if s == "__ITO_CRATE__" {
                    return krate.clone();
                }
                if let Some(n) = s
                    .strip_prefix("__ITO_EXPR_")
                    .and_then(|r| r.strip_suffix("__"))
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    return match &args[n].expr {
                        ArgExpr::Tokens(t) => t.clone(),
                        ArgExpr::Capture(name) => TokenTree::Ident(Ident::new(name, lit_span)),
                    };
                }
                tt
            }
            other => other,
        })
        .collect()
}

/// The value of a string literal token (`"..."` or `r#"..."#`), or `None`
/// if it is not one.
fn string_literal_value(text: &str) -> Option<String> {
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        let body = body.strip_prefix('"')?.strip_suffix('"')?;
        return Some(body.to_string());
    }
    let body = text.strip_prefix('"')?;
    let end = body.rfind('"')?; // ignore any literal suffix
    unescape(&body[..end])
}

fn char_literal_value(text: &str) -> Option<char> {
    let body = text.strip_prefix('\'')?;
    let end = body.rfind('\'')?;
    let s = unescape(&body[..end])?;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' => out.push('\\'),
            '0' => out.push('\0'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'x' => {
                let h: String = [it.next()?, it.next()?].iter().collect();
                out.push(char::from(u8::from_str_radix(&h, 16).ok()?));
            }
            'u' => {
                if it.next()? != '{' {
                    return None;
                }
                let mut h = String::new();
                loop {
                    match it.next()? {
                        '}' => break,
                        '_' => {}
                        d => h.push(d),
                    }
                }
                out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
            }
            '\n' | '\r' => {
                while it.peek().is_some_and(|c| c.is_whitespace()) {
                    it.next();
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

fn parse_format(s: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '{' => {
                if it.peek() == Some(&'{') {
                    it.next();
                    lit.push('{');
                    continue;
                }
                let mut inner = String::new();
                loop {
                    match it.next() {
                        Some('}') => break,
                        Some(ch) => inner.push(ch),
                        None => {
                            return Err(
                                "invalid format string: expected `}` but string was terminated"
                                    .into(),
                            )
                        }
                    }
                }
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(Piece::Ph(parse_placeholder(&inner)?));
            }
            '}' => {
                if it.peek() == Some(&'}') {
                    it.next();
                    lit.push('}');
                } else {
                    return Err("invalid format string: unmatched `}` found".into());
                }
            }
            _ => lit.push(c),
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn parse_arg_ref(s: &str) -> Result<ArgRef, String> {
    if s.is_empty() {
        return Ok(ArgRef::Next);
    }
    if s.chars().all(|c| c.is_ascii_digit()) {
        return s
            .parse()
            .map(ArgRef::Index)
            .map_err(|_| format!("invalid argument index `{s}`"));
    }
    let mut chars = s.chars();
    if chars.next().is_some_and(is_ident_start) && chars.all(is_ident_continue) {
        return Ok(ArgRef::Name(s.to_string()));
    }
    Err(format!(
        "invalid format string: invalid argument name `{s}`"
    ))
}

fn parse_placeholder(inner: &str) -> Result<Placeholder, String> {
    let (arg, spec) = match inner.find(':') {
        Some(i) => (&inner[..i], Some(&inner[i + 1..])),
        None => (inner, None),
    };
    let arg = parse_arg_ref(arg.trim_end())?;
    let spec = match spec {
        None | Some("") => None,
        Some(s) => Some(parse_spec(s)?),
    };
    Ok(Placeholder { arg, spec })
}

fn parse_count(chars: &[char], i: &mut usize) -> Count {
    let start = *i;
    if *i < chars.len() && chars[*i].is_ascii_digit() {
        while *i < chars.len() && chars[*i].is_ascii_digit() {
            *i += 1;
        }
        let digits: String = chars[start..*i].iter().collect();
        if *i < chars.len() && chars[*i] == '$' {
            *i += 1;
            return Count::Arg(ArgRef::Index(digits.parse().unwrap_or(usize::MAX)));
        }
        return Count::Lit(digits);
    }
    if *i < chars.len() && is_ident_start(chars[*i]) {
        while *i < chars.len() && is_ident_continue(chars[*i]) {
            *i += 1;
        }
        if *i < chars.len() && chars[*i] == '$' {
            let name: String = chars[start..*i].iter().collect();
            *i += 1;
            return Count::Arg(ArgRef::Name(name));
        }
        *i = start;
    }
    Count::None
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let is_align = |c: char| matches!(c, '<' | '^' | '>');
    let mut i = 0;
    let mut fill_align = String::new();
    if n >= 2 && is_align(chars[1]) {
        fill_align.extend(&chars[..2]);
        i = 2;
    } else if n >= 1 && is_align(chars[0]) {
        fill_align.push(chars[0]);
        i = 1;
    }
    let mut flags = String::new();
    if i < n && matches!(chars[i], '+' | '-') {
        flags.push(chars[i]);
        i += 1;
    }
    if i < n && chars[i] == '#' {
        flags.push('#');
        i += 1;
    }
    if i < n && chars[i] == '0' && !(i + 1 < n && chars[i + 1] == '$') {
        flags.push('0');
        i += 1;
    }
    let width = parse_count(&chars, &mut i);
    let mut precision = Count::None;
    if i < n && chars[i] == '.' {
        i += 1;
        if i < n && chars[i] == '*' {
            i += 1;
            precision = Count::Star;
        } else {
            precision = parse_count(&chars, &mut i);
            if matches!(precision, Count::None) {
                return Err("invalid format string: expected precision after `.`".into());
            }
        }
    }
    let ty: String = chars[i..].iter().collect();
    if !matches!(
        ty.as_str(),
        "" | "?" | "x?" | "X?" | "x" | "X" | "o" | "b" | "e" | "E" | "p"
    ) {
        return Err(format!(
            "invalid format string: unknown format trait `{ty}`"
        ));
    }
    Ok(Spec {
        fill_align,
        flags,
        width,
        precision,
        ty,
    })
}
