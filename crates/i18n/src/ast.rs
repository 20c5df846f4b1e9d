//! Reading a catalogue's syntax tree: which messages it has and which variables they use.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

/// For each message of `source`, the `$variables` its value and attributes reference. Entries
/// that do not parse are skipped (the bundle reports them, see `Catalogues::problems`).
pub(crate) fn variables(source: &'static str) -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    let resource = fluent_syntax::parser::parse(source).unwrap_or_else(|(resource, _)| resource);
    resource
        .body
        .into_iter()
        .filter_map(|entry| match entry {
            Entry::Message(message) => Some(message),
            _ => None,
        })
        .map(|message| {
            let mut found = BTreeSet::new();
            let patterns = message
                .value
                .iter()
                .chain(message.attributes.iter().map(|a| &a.value));
            for pattern in patterns {
                in_pattern(pattern, &mut found);
            }
            (message.id.name, found)
        })
        .collect()
}

fn in_pattern(pattern: &Pattern<&'static str>, found: &mut BTreeSet<&'static str>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            in_expression(expression, found);
        }
    }
}

fn in_expression(expression: &Expression<&'static str>, found: &mut BTreeSet<&'static str>) {
    match expression {
        Expression::Select { selector, variants } => {
            in_inline(selector, found);
            for variant in variants {
                in_pattern(&variant.value, found);
            }
        }
        Expression::Inline(inline) => in_inline(inline, found),
    }
}

fn in_inline(inline: &InlineExpression<&'static str>, found: &mut BTreeSet<&'static str>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            found.insert(id.name);
        }
        InlineExpression::FunctionReference { arguments, .. }
        | InlineExpression::TermReference {
            arguments: Some(arguments),
            ..
        } => {
            for argument in &arguments.positional {
                in_inline(argument, found);
            }
            for argument in &arguments.named {
                in_inline(&argument.value, found);
            }
        }
        InlineExpression::Placeable { expression } => in_expression(expression, found),
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::variables;

    #[test]
    fn finds_variables_in_selectors_variants_and_calls() {
        let source = "plain = no variables\n\
            simple = { $a } and { $b }\n\
            select = { $n ->\n    [one] one { $x }\n   *[other] { NUMBER($y) } { { $z } }\n}\n\
            attrs =\n    .title = { $t }\n\
            -term = T\n";
        let found = variables(source);
        let names = |id: &str| found[id].iter().copied().collect::<Vec<_>>();
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(names("plain").is_empty());
        assert_eq!(names("simple"), ["a", "b"]);
        assert_eq!(names("select"), ["n", "x", "y", "z"]);
        assert_eq!(names("attrs"), ["t"]);
    }
}
