//! How decoding messages name where a value is: a chain of borrowed pieces.

/// Where a value is, as messages name it (`url`, `parameters.id.default`, `command[1]`): a chain of
/// borrowed pieces, written out only when a message or a section's reader needs the text.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    /// A field of the entry, or a name as written.
    Name(&'a str),
    /// `parent.name`: a field of a section, or a key of a map.
    Child(&'a Path<'a>, &'a str),
    /// `parent[index]`: an item of a list.
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// Appends the path's text to `out`.
    pub(crate) fn write_to(&self, out: &mut String) {
        match self {
            Path::Name(name) => out.push_str(name),
            Path::Child(parent, name) => {
                parent.write_to(out);
                out.push('.');
                out.push_str(name);
            }
            Path::Index(parent, index) => {
                parent.write_to(out);
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
        }
    }
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = String::new();
        self.write_to(&mut text);
        f.write_str(&text)
    }
}
