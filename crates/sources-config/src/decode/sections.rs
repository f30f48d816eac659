//! The decoder's readers of the sections an entry's fields hold: a merge child, a parameter,
//! `paginate`, `window`, `growing` and its `while`, `cache`, and a `join`'s driver and lookup.

use super::*;

impl Decoder {
    pub(crate) fn merge_child(&mut self, f: &mut Fields) -> MergeChild {
        let child = MergeChild {
            source: self.field(f, "source", Decoder::string),
            tags: self.field(f, "tags", |d, n, v| d.named_map(n, v, Decoder::scalar_text)),
        };
        self.require(
            f,
            &child.source,
            "source",
            Block::Section(Section::MergeChild),
        );
        child
    }

    pub(crate) fn parameter(&mut self, f: &mut Fields) -> Parameter {
        Parameter {
            kind: self.field(f, "type", Decoder::enumeration),
            required: self.field(f, "required", Decoder::boolean),
            default: self.field(f, "default", Decoder::scalar_text),
            description: self.field(f, "description", Decoder::string),
            label: self.field(f, "label", Decoder::string),
            placeholder: self.field(f, "placeholder", Decoder::string),
            options: self.field(f, "options", |d, n, v| d.list(n, v, Decoder::scalar_text)),
            mask: self.field(f, "mask", Decoder::boolean),
            order: self.field(f, "order", Decoder::integer),
        }
    }

    pub(crate) fn paginate(&mut self, f: &mut Fields) -> Paginate {
        let paginate = Paginate {
            strategy: self.field(f, "strategy", Decoder::enumeration),
            next_path: self.field(f, "next_path", Decoder::string),
            max_pages: self.field(f, "max_pages", Decoder::integer),
            on_page_error: self.field(f, "on_page_error", Decoder::enumeration),
        };
        let block = Block::Section(Section::Paginate);
        self.require(f, &paginate.strategy, "strategy", block);
        if paginate.strategy.is_some() {
            self.require(f, &paginate.next_path, "next_path", block);
        }
        paginate
    }

    pub(crate) fn window(&mut self, f: &mut Fields) -> Window {
        Window {
            page_size: self.field(f, "page_size", Decoder::integer),
            prefetch: self.field(f, "prefetch", Decoder::integer),
            total_path: self.field(f, "total_path", Decoder::string),
            filters: self.field(f, "filters", |d, n, v| d.named_map(n, v, Decoder::string)),
            offset_param: self.field(f, "offset_param", Decoder::string),
            limit_param: self.field(f, "limit_param", Decoder::string),
            search_param: self.field(f, "search_param", Decoder::string),
            sort_param: self.field(f, "sort_param", Decoder::string),
            sorts: self.field(f, "sorts", |d, n, v| d.named_map(n, v, Decoder::string)),
            sort_desc_prefix: self.field(f, "sort_desc_prefix", Decoder::string),
            cursor: self.field(f, "cursor", Decoder::string),
            older: self.field(f, "older", |d, n, v| {
                d.named_map(n, v, |_, _, v| Some(AnyValue(v)))
            }),
            newer: self.field(f, "newer", |d, n, v| {
                d.named_map(n, v, |_, _, v| Some(AnyValue(v)))
            }),
            anchor: self.field(f, "anchor", Decoder::enumeration),
            growing: self.field(f, "growing", Decoder::growing),
            follow_every: self.field(f, "follow_every", Decoder::duration),
            rejected: f.rejected.clone(),
        }
    }

    pub(super) fn growing(&mut self, name: Path<'_>, node: Node) -> Option<Growing> {
        match node.value {
            Value::Bool(flag) => Some(Growing::Flag(flag)),
            Value::Map(_) => self
                .section(name, node, Section::Growing, Decoder::growing_while)
                .map(Growing::While),
            _ => {
                self.wrong_type(name, "`true` or a map with `source` and `while`", &node);
                None
            }
        }
    }

    pub(crate) fn growing_while(&mut self, f: &mut Fields) -> GrowingWhile {
        GrowingWhile {
            source: self.field(f, "source", Decoder::string),
            condition: self.field(f, "while", Decoder::text),
        }
    }

    pub(crate) fn cache_spec(&mut self, f: &mut Fields) -> CacheSpec {
        let cache = CacheSpec {
            ttl: self.field(f, "ttl", Decoder::duration),
            size: self.field(f, "size", Decoder::integer),
        };
        self.require(f, &cache.ttl, "ttl", Block::Section(Section::Cache));
        cache
    }

    pub(crate) fn join_driver(&mut self, f: &mut Fields) -> JoinDriver {
        let driver = JoinDriver {
            from: self.field(f, "from", Decoder::string),
        };
        self.require(f, &driver.from, "from", Block::Section(Section::JoinDriver));
        driver
    }

    pub(crate) fn join_lookup(&mut self, f: &mut Fields) -> JoinLookup {
        let lookup = JoinLookup {
            from: self.field(f, "from", Decoder::string),
            on: self.field(f, "on", |d, n, v| d.named_map(n, v, Decoder::text)),
        };
        let block = Block::Section(Section::JoinLookup);
        self.require(f, &lookup.from, "from", block);
        self.require(f, &lookup.on, "on", block);
        lookup
    }
}
