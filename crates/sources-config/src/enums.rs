//! The enumerations of the format: entry kinds and every closed set of string values.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

/// A closed set of string values, decoded with `invalid-value` (and a did-you-mean) for others.
pub trait Enumeration: Sized + Copy + 'static {
    /// Every value, in declaration order.
    const ALL: &'static [Self];
    /// The name users write.
    fn as_str(self) -> &'static str;
    /// The value with this name.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.as_str() == name)
    }
    /// Every name, in declaration order.
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|value| value.as_str()).collect()
    }
}

macro_rules! enumeration {
    ($(#[doc = $doc:literal])* $name:ident { $($(#[doc = $vdoc:literal])* $variant:ident => $text:literal),* $(,)? }) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[doc = $vdoc])* $variant),*
        }

        impl Enumeration for $name {
            const ALL: &'static [Self] = &[$($name::$variant),*];
            fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({ "type": "string", "enum": [$($text),*] })
            }
        }
    };
}

enumeration! {
    /// The `type` of an entry: a leaf kind or an operator kind.
    Kind {
        /// Fetches over HTTP.
        Http => "http",
        /// Runs a command.
        Exec => "exec",
        /// Reads a file.
        File => "file",
        /// Streams WebSocket frames.
        Websocket => "websocket",
        /// Inline data.
        Static => "static",
        /// Concatenates several sources (leaf form of `union`).
        Merge => "merge",
        /// Passes another entry through unchanged.
        Passthrough => "passthrough",
        /// Keeps the rows of another entry where an expression holds.
        Filter => "filter",
        /// Reshapes each row into new keys.
        Project => "project",
        /// Adds computed keys to each row.
        Derive => "derive",
        /// Sorts the rows of another entry.
        Sort => "sort",
        /// Concatenates several entries.
        Union => "union",
        /// Builds one object from several entries.
        Compose => "compose",
        /// Looks rows of a driver up in parameterised sources.
        Join => "join",
        /// Holds one snapshot of another entry.
        Cache => "cache",
    }
}

impl Kind {
    /// Whether the kind fetches from outside the program (`http` … `merge`).
    pub fn is_leaf(self) -> bool {
        matches!(
            self,
            Kind::Http | Kind::Exec | Kind::File | Kind::Websocket | Kind::Static | Kind::Merge
        )
    }

    /// Whether the kind transforms other entries.
    pub fn is_operator(self) -> bool {
        !self.is_leaf()
    }

    /// Whether the kind may be a `pipe` stage.
    pub fn is_stage(self) -> bool {
        matches!(
            self,
            Kind::Filter | Kind::Project | Kind::Derive | Kind::Sort | Kind::Cache
        )
    }
}

enumeration! {
    /// How a response is read.
    Format {
        /// Parsed as JSON.
        Json => "json",
        /// Kept as a raw string.
        Text => "text",
    }
}

enumeration! {
    /// What a merge, union, compose or join does when one input fails.
    OnError {
        /// Abort on any error.
        Fail => "fail",
        /// Drop the failed input and return the rest.
        Skip => "skip",
    }
}

enumeration! {
    /// How `paginate` finds the next page.
    Strategy {
        /// The response carries the next page URL.
        Link => "link",
    }
}

enumeration! {
    /// A sort direction.
    Order {
        /// Ascending.
        Asc => "asc",
        /// Descending.
        Desc => "desc",
    }
}

enumeration! {
    /// How a join emits its results.
    Emit {
        /// The driver row and the lookup results side by side.
        Separate => "separate",
        /// The lookup results merged into the driver row.
        Merged => "merged",
    }
}

enumeration! {
    /// Where an anchored window opens.
    Anchor {
        /// At the newest item, walking older on scroll up.
        Newest => "newest",
        /// At the oldest item, walking newer.
        Oldest => "oldest",
    }
}

enumeration! {
    /// The type of a parameter's value.
    ParamType {
        /// Any text.
        String => "string",
        /// A whole number.
        Int => "int",
        /// `true` or `false`.
        Bool => "bool",
        /// A Go-style duration.
        Duration => "duration",
    }
}

enumeration! {
    /// Where an event log opens.
    EventlogStart {
        /// At the newest event.
        Newest => "newest",
        /// At the oldest event.
        Oldest => "oldest",
    }
}

enumeration! {
    /// An HTTP method (when `method` holds no template token).
    Method {
        /// GET.
        Get => "GET",
        /// POST.
        Post => "POST",
        /// PUT.
        Put => "PUT",
        /// PATCH.
        Patch => "PATCH",
        /// DELETE.
        Delete => "DELETE",
        /// HEAD.
        Head => "HEAD",
        /// OPTIONS.
        Options => "OPTIONS",
    }
}
