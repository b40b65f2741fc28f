//! The message-type text form of a schema (grammar in the [`schema`](crate::core::schema) module
//! documentation): printing (`Display`) and parsing ([`Schema::parse`]).
//!
//! [`Schema::parse`]: crate::core::schema::Schema::parse

mod parse;
mod print;
#[cfg(test)]
mod tests;

/// Characters that end a word.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '{' | '}' | '(' | ')' | ';' | ',' | '=' | '"')
}

/// Whether `s` can be written as a bare word.
fn is_plain_word(s: &str) -> bool {
    !s.is_empty() && !s.chars().any(is_delimiter)
}
