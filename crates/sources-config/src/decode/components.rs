//! The decoder's reader of `tui.components`: the table components and their columns that bind
//! entries of `data.sources`.

use super::*;

impl Decoder {
    pub(super) fn components(&mut self, node: &Node) -> Vec<Component> {
        match &node.value {
            Value::Map(map) => map
                .entries
                .iter()
                .filter_map(|entry| {
                    let name = Spanned::new(entry.key.name.to_string(), entry.key.span);
                    self.component(Some(name), &entry.value)
                })
                .collect(),
            Value::Seq(items) => items
                .iter()
                .filter_map(|item| self.component(None, item))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn component(&mut self, name: Option<Spanned<String>>, node: &Node) -> Option<Component> {
        let map = as_map(node)?;
        let name = name.or_else(|| {
            ["name", "id"].iter().find_map(|key| {
                match get(map, key).map(|entry| (&entry.value.value, entry.value.span)) {
                    Some((Value::Str(text), span)) => {
                        Some(Spanned::new(text.text.to_string(), span))
                    }
                    _ => None,
                }
            })
        });
        let kind =
            ["kind", "type"]
                .iter()
                .find_map(|key| match get(map, key).map(|entry| &entry.value) {
                    Some(Node {
                        value: Value::Str(text),
                        span,
                    }) => Some(Spanned::new(ComponentKind::from_name(&text.text), *span)),
                    _ => None,
                });
        let source = get(map, "source").and_then(|entry| {
            self.string(Path::Name("source"), entry.value.clone())
                .map(|value| Spanned::new(value, entry.value.span))
        });
        let columns = match get(map, "columns").map(|entry| &entry.value.value) {
            Some(Value::Seq(items)) => items.iter().filter_map(|item| self.column(item)).collect(),
            _ => Vec::new(),
        };
        let start = match kind.as_ref().map(|kind| &kind.value) {
            Some(ComponentKind::Eventlog) => get(map, "start").and_then(|entry| {
                self.enumeration::<EventlogStart>(Path::Name("start"), entry.value.clone())
                    .map(|value| Spanned::new(value, entry.value.span))
            }),
            _ => None,
        };
        let on_cursor = get(map, "on_cursor").and_then(|entry| as_map(&entry.value));
        let cursor_of = on_cursor
            .and_then(|on_cursor| get(on_cursor, "component"))
            .and_then(|entry| {
                let name = entry.value.as_str()?;
                Some(Spanned::new(name.to_owned(), entry.value.span))
            });
        let params = on_cursor
            .and_then(|on_cursor| get(on_cursor, "params"))
            .and_then(|entry| as_map(&entry.value))
            .map(|params| {
                params
                    .entries
                    .iter()
                    .map(|entry| Spanned::new(entry.key.name.to_string(), entry.key.span))
                    .collect()
            })
            .unwrap_or_default();
        Some(Component {
            name,
            span: node.span,
            kind,
            source,
            columns,
            params,
            cursor_of,
            start,
        })
    }

    fn column(&mut self, node: &Node) -> Option<Column> {
        let map = as_map(node)?;
        let title = match get(map, "title").map(|entry| &entry.value) {
            Some(Node {
                value: Value::Str(text),
                span,
            }) => Some(Spanned::new(text.text.to_string(), *span)),
            _ => None,
        };
        let sortable = get(map, "sortable").and_then(|entry| {
            self.boolean(Path::Name("sortable"), entry.value.clone())
                .map(|value| Spanned::new(value, entry.value.span))
        });
        Some(Column {
            span: node.span,
            title,
            sortable,
        })
    }
}
