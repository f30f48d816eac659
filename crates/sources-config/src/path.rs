//! Where a byte offset is in the document: the chain of keys (and list indices) from the root down
//! to the innermost key or value containing it — what hover and completion need.

use sources_syntax::{Node, Span, Value};

/// One step of a [`path_at`] path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The key's text, or the list index as text.
    pub name: String,
    /// The key's span, or the list item's span.
    pub span: Span,
    /// Whether the offset is on this step's key itself (not inside its value).
    pub on_key: bool,
}

/// The keys from the root down to the innermost node containing `offset`:
/// `data / sources / users / window / page_size`. Empty when the offset is outside every entry.
pub fn path_at(root: &Node, offset: usize) -> Vec<PathStep> {
    let mut path = Vec::new();
    let mut node = root;
    loop {
        let next = match &node.value {
            Value::Map(map) => map.entries.iter().find_map(|entry| {
                if entry.key.span.contains(offset) {
                    path.push(PathStep {
                        name: entry.key.name.to_string(),
                        span: entry.key.span,
                        on_key: true,
                    });
                    None
                } else if entry.value.span.contains(offset) {
                    path.push(PathStep {
                        name: entry.key.name.to_string(),
                        span: entry.key.span,
                        on_key: false,
                    });
                    Some(&entry.value)
                } else {
                    None
                }
            }),
            Value::Seq(items) => items.iter().enumerate().find_map(|(index, item)| {
                item.span.contains(offset).then(|| {
                    path.push(PathStep {
                        name: index.to_string(),
                        span: item.span,
                        on_key: false,
                    });
                    item
                })
            }),
            _ => None,
        };
        match next {
            Some(child) => node = child,
            None => return path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::path_at;
    use sources_syntax::Syntax;

    #[test]
    fn finds_the_keys_down_to_the_offset() {
        let text = "data:\n  sources:\n    users:\n      type: http\n      window:\n        page_size: 10\n      command: [a, b]\n";
        let root = sources_syntax::parse(text, Syntax::Yaml)
            .root
            .expect("root");
        let names = |offset: usize| -> Vec<String> {
            path_at(&root, offset).into_iter().map(|s| s.name).collect()
        };
        let at = text.find("page_size").expect("page_size");
        assert_eq!(
            names(at),
            ["data", "sources", "users", "window", "page_size"]
        );
        assert!(path_at(&root, at).last().is_some_and(|step| step.on_key));
        assert_eq!(
            names(text.find("10").expect("10")),
            ["data", "sources", "users", "window", "page_size"]
        );
        assert_eq!(
            names(text.find("b]").expect("b")),
            ["data", "sources", "users", "command", "1"]
        );
    }
}
