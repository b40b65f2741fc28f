//! serde's `rename_all` rules, so column names match the names serde writes.

/// One of serde's eight `rename_all` cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// The rule serde spells `s`, if any.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// A variant name (written in PascalCase) under this rule.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => words_of_pascal(variant, '_'),
            RenameRule::ScreamingSnake => words_of_pascal(variant, '_').to_ascii_uppercase(),
            RenameRule::Kebab => words_of_pascal(variant, '-'),
            RenameRule::ScreamingKebab => words_of_pascal(variant, '-').to_ascii_uppercase(),
        }
    }

    /// A field name (written in snake_case) under this rule.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => pascal_of_snake(field),
            RenameRule::Camel => lower_first(&pascal_of_snake(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// `s` with its first character in ASCII lower case.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// A PascalCase name split before each upper-case letter (but the first) with `sep`, in lower
/// case: `HttpRequest` -> `http_request`.
fn words_of_pascal(s: &str, sep: char) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, ch) in s.char_indices() {
        if i > 0 && ch.is_uppercase() {
            out.push(sep);
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// A snake_case name in PascalCase: each `_` dropped and the letter after it (and the first)
/// upper-cased.
fn pascal_of_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut upper = true;
    for ch in s.chars() {
        if ch == '_' {
            upper = true;
        } else if upper {
            out.push(ch.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    #[test]
    fn variants() {
        let cases: &[(&str, [&str; 8])] = &[
            (
                "Outcome",
                [
                    "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                    "OUTCOME",
                ],
            ),
            (
                "VeryTasty",
                [
                    "verytasty",
                    "VERYTASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("A", ["a", "A", "A", "a", "a", "A", "a", "A"]),
            (
                "Z42",
                ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"],
            ),
        ];
        let rules = [
            Lower,
            Upper,
            Pascal,
            Camel,
            Snake,
            ScreamingSnake,
            Kebab,
            ScreamingKebab,
        ];
        for (input, expected) in cases {
            for (rule, want) in rules.iter().zip(expected) {
                assert_eq!(rule.apply_to_variant(input), *want, "{rule:?} {input}");
            }
        }
    }

    #[test]
    fn fields() {
        let cases: &[(&str, [&str; 8])] = &[
            (
                "outcome",
                [
                    "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                    "OUTCOME",
                ],
            ),
            (
                "very_tasty",
                [
                    "very_tasty",
                    "VERY_TASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
            (
                "z42",
                ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"],
            ),
        ];
        let rules = [
            Lower,
            Upper,
            Pascal,
            Camel,
            Snake,
            ScreamingSnake,
            Kebab,
            ScreamingKebab,
        ];
        for (input, expected) in cases {
            for (rule, want) in rules.iter().zip(expected) {
                assert_eq!(rule.apply_to_field(input), *want, "{rule:?} {input}");
            }
        }
    }

    #[test]
    fn parse_names() {
        assert_eq!(RenameRule::parse("camelCase"), Some(Camel));
        assert_eq!(
            RenameRule::parse("SCREAMING-KEBAB-CASE"),
            Some(ScreamingKebab)
        );
        assert_eq!(RenameRule::parse("Camelcase"), None);
        assert_eq!(lower_first_empty(), "");
    }

    fn lower_first_empty() -> String {
        super::lower_first("")
    }
}
