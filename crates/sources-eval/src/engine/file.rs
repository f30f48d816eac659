//! The `file` leaf: a file read on every fetch, decoded and sliced at `root`.

use super::*;

impl<'c> Engine<'c> {
    pub(super) async fn file(
        &self,
        name: &str,
        file: &'c File,
        params: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let leaf = &file.leaf;
        let scope = Scope::new(params, self.io.as_ref());
        let path = scope.render(text(file.path.as_ref()).ok_or_else(|| fail(missing("path")))?);
        let key = params.clone();
        if let Some(value) = self.cache_get(name, leaf, &key) {
            return Ok(Output::Value(value));
        }
        let bytes = fetch::file(self.io.as_ref(), self.trace.as_ref(), path)
            .await
            .map_err(fail)?;
        let value = decode::decode(&bytes, format_of(leaf), "file")
            .and_then(|raw| self.root(raw, leaf))
            .map_err(fail)?;
        self.cache_put(name, leaf, key, &value);
        Ok(Output::Value(value))
    }
}
