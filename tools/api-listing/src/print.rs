//! Prints token streams on one line with a fixed spacing (rustfmt's for the usual cases), so
//! the same source always gives the same text and a change of layout in the source changes
//! nothing.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;

#[derive(Clone, Debug, PartialEq)]
enum Atom {
    /// An identifier, a lifetime or a literal.
    Word(String),
    /// An operator of one or more characters.
    Op(String),
    Open(char),
    Close(char),
}

/// `node` printed on one line.
pub fn tokens<T: ToTokens + ?Sized>(node: &T) -> String {
    let mut atoms = Vec::new();
    flatten(node.to_token_stream(), &mut atoms);
    join(&atoms)
}

fn flatten(ts: TokenStream, out: &mut Vec<Atom>) {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Ident(id) => out.push(Atom::Word(id.to_string())),
            TokenTree::Literal(l) => out.push(Atom::Word(l.to_string())),
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ('(', ')'),
                    Delimiter::Bracket => ('[', ']'),
                    Delimiter::Brace => ('{', '}'),
                    Delimiter::None => {
                        flatten(g.stream(), out);
                        i += 1;
                        continue;
                    }
                };
                out.push(Atom::Open(open));
                flatten(g.stream(), out);
                out.push(Atom::Close(close));
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                if c == '\'' {
                    if let Some(TokenTree::Ident(id)) = trees.get(i + 1) {
                        out.push(Atom::Word(format!("'{id}")));
                        i += 2;
                        continue;
                    }
                }
                let mut op = c.to_string();
                // Joins the multi-character operators; `>` stays single (`Vec<Vec<u8>>`).
                let mut spacing = p.spacing();
                while spacing == Spacing::Joint && c != '>' {
                    let Some(TokenTree::Punct(next)) = trees.get(i + 1) else {
                        break;
                    };
                    let joined = format!("{op}{}", next.as_char());
                    if ![
                        "::", "->", "=>", "..", "..=", "...", "==", "!=", "<=", ">=", "&&", "||",
                    ]
                    .contains(&joined.as_str())
                    {
                        break;
                    }
                    op = joined;
                    spacing = next.spacing();
                    i += 1;
                }
                out.push(Atom::Op(op));
            }
        }
        i += 1;
    }
}

fn join(atoms: &[Atom]) -> String {
    let mut out = String::new();
    for (i, atom) in atoms.iter().enumerate() {
        if i > 0 && space(&atoms[i - 1], atom, i.checked_sub(2).map(|j| &atoms[j])) {
            out.push(' ');
        }
        match atom {
            Atom::Word(s) | Atom::Op(s) => out.push_str(s),
            Atom::Open(c) | Atom::Close(c) => out.push(*c),
        }
    }
    out
}

fn is_op(a: &Atom, s: &str) -> bool {
    matches!(a, Atom::Op(o) if o == s)
}

/// Whether a space goes between `prev` and `next` (`before` is the atom before `prev`).
fn space(prev: &Atom, next: &Atom, before: Option<&Atom>) -> bool {
    use Atom::*;
    // Openers and closers.
    if matches!(prev, Open('(') | Open('[')) || matches!(next, Close(')') | Close(']')) {
        return false;
    }
    if matches!(prev, Open('{')) || matches!(next, Close('}')) {
        return true;
    }
    if matches!(next, Op(o) if o == "," || o == ";" || o == "::" || o == ".")
        || is_op(prev, "::")
        || is_op(prev, ".")
    {
        return is_op(next, "::") && is_op(prev, ":");
    }
    if is_op(next, ":") {
        return false;
    }
    if is_op(prev, "<") || is_op(next, ">") {
        return false;
    }
    if is_op(next, "<") {
        return !(matches!(prev, Word(_)) || is_op(prev, "&"));
    }
    if is_op(prev, ">") {
        return !matches!(next, Open('(') | Open('['));
    }
    // Prefix operators: `&T`, `*const T`, `!Send`, `?Sized`, `#[..]`, `-1`.
    if matches!(prev, Op(o) if o == "&" || o == "&&" || o == "!" || o == "?" || o == "#") {
        return false;
    }
    if is_op(prev, "*") && matches!(next, Word(w) if w == "const" || w == "mut") {
        return false;
    }
    if is_op(prev, "-") && !matches!(before, Some(Word(_)) | Some(Close(_))) {
        return false;
    }
    if matches!(next, Open('(')) && matches!(prev, Word(_)) {
        return false;
    }
    if matches!(next, Open('[')) && is_op(prev, "#") {
        return false;
    }
    true
}

/// Collapses runs of whitespace to one space, trims, and drops a trailing comma before `>`
/// (`Foo<A, B,>` as `Foo<A, B>`).
pub fn squash(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(",>", ">")
}

#[cfg(test)]
mod tests {
    use super::tokens;

    fn ty(src: &str) -> String {
        tokens(&syn::parse_str::<syn::Type>(src).unwrap())
    }

    #[test]
    fn types_print_as_rustfmt_would() {
        assert_eq!(ty("Vec < Vec<u8> >"), "Vec<Vec<u8>>");
        assert_eq!(ty("&'a mut [ u8 ]"), "&'a mut [u8]");
        assert_eq!(
            ty("std :: result :: Result<T , Error>"),
            "std::result::Result<T, Error>"
        );
        assert_eq!(ty("impl Fn(u8)->u8 + Send"), "impl Fn(u8) -> u8 + Send");
        assert_eq!(ty("[u8 ; 4]"), "[u8; 4]");
        assert_eq!(ty("*const T"), "*const T");
        assert_eq!(
            ty("Box<dyn Iterator<Item = (u8, u16)> + 'a>"),
            "Box<dyn Iterator<Item = (u8, u16)> + 'a>"
        );
        assert_eq!(ty("<T as Trait>::Out"), "<T as Trait>::Out");
        assert_eq!(ty("& <T as Trait>::Out"), "&<T as Trait>::Out");
    }

    #[test]
    fn where_clauses_and_bounds_print_as_rustfmt_would() {
        let g: syn::WhereClause =
            syn::parse_str("where T: ?Sized + Clone, for<'a> &'a T: IntoIterator").unwrap();
        assert_eq!(
            tokens(&g),
            "where T: ?Sized + Clone, for<'a> &'a T: IntoIterator"
        );
    }
}
