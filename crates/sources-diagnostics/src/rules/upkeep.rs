//! The rules of what keeps a configuration and its lint setup honest: fields without effect, suppression comments and settings files.

/// Appends this group's rules to those gathered and hands them all to the next macro of the
/// chain that `declare_rules!` ends.
macro_rules! upkeep_rules {
    ($next:ident $(, $rest:ident)*; $($gathered:tt)*) => {
        $next! { $($rest),*; $($gathered)*
            /// Finds a field that has no effect where it stands: `timeout` on a following websocket, `cache` on a
            /// streamed source.
            ///
            /// **Why:** a websocket's `timeout` does nothing with `follow: true`, and a `cache` never holds
            /// streamed events. It is a warning because the configuration still runs.
            ///
            /// **Example** (warns: a websocket always streams, so `cache` does nothing):
            ///
            /// ```yaml lint=ineffective-field
            /// data:
            ///   sources:
            ///     ticks:
            ///       type: websocket
            ///       url: wss://stream.example.com/ticks
            ///       cache: {ttl: 30s}
            /// ```
            ///
            /// **Fix:** remove the field.
            IneffectiveField => "ineffective-field", Warning, "A field that has no effect where it stands.";
            /// Finds a suppression comment that silences nothing: `# sources: ignore[CODE]` where no `CODE`
            /// diagnostic starts on the line it covers, `# sources: ignore-file[CODE]` in a file without one,
            /// a code that names no rule, or a `# sources:` comment that is not a well-formed suppression.
            ///
            /// **Why:** a suppression is a promise that a finding was looked at. Once the finding is gone,
            /// a stale suppression would silently hide the next, unrelated finding on that line; an unknown
            /// code (a typo) silences nothing at all. Suppressions go at the end of the line a diagnostic
            /// starts on, or on a line of their own just above it; `ignore-file` anywhere covers the file.
            ///
            /// **Example** (warns: nothing on the `url` line is an `unknown-field` diagnostic):
            ///
            /// ```yaml lint=unused-suppression
            /// data:
            ///   sources:
            ///     apps:
            ///       type: http
            ///       url: https://api.example.com/apps  # sources: ignore[unknown-field]
            /// ```
            ///
            /// **Fix:** remove the suppression (`sources lint --fix` does), or correct the rule code
            /// (`sources lint --fix` renames a misspelt code to the code it resembles, keeping the reason).
            UnusedSuppression => "unused-suppression", Warning, "A suppression comment that silences nothing, or names an unknown rule.";
            /// Finds a settings file (`sources-lint.toml` or `.sources-lint.toml`) that cannot be used: TOML
            /// that does not parse, a table other than `[rules]` and `[files]`, a rule code that names no
            /// rule, a level other than `error`, `warning` or `off`, a `[files]` key other than `include`
            /// and `exclude`, or a glob that does not compile. Every mistake of the file is reported, each
            /// at its key or value in the settings file, with a did-you-mean for a misspelt name.
            ///
            /// **Why:** the settings file decides which findings are errors and which files a directory
            /// walk lints, so a file it governs cannot be linted as its authors meant until the settings
            /// file is fixed: `sources lint` reports the settings file and skips the files below it, and
            /// lints every other folder as usual.
            ///
            /// **Example** (fails three times: a misspelt rule code, a level that does not exist and a
            /// misspelt table):
            ///
            /// ```toml lint=invalid-settings
            /// [rules]
            /// unknown-feild = "off"
            /// unknown-field = "warn"
            ///
            /// [filez]
            /// include = ["dashboards/**"]
            /// ```
            ///
            /// **Fix:** correct each name (`unknown-field`, `[files]`) and write a level as `"error"`,
            /// `"warning"` or `"off"`; `sources lint --show-settings FILE` then shows each rule's level.
            InvalidSettings => "invalid-settings", Error, "A settings file with a mistake: an unknown table, key or rule code, a bad level or glob.";
        }
    };
}
