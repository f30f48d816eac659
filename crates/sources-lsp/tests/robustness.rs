//! No request crashes the server: mangled versions of a realistic configuration (characters
//! deleted, YAML/TOML punctuation and template openers inserted) get every request at many
//! positions, and every answer is a result, never an error.

mod support;

use serde_json::json;
use support::{TestClient, utf16_position};

const YAML: &str = "\
data:
  sources:
    apps:
      type: http
      url: https://example.invalid/apps/${params.region}
      refresh: 30s
      parameters:
        region: {type: string, default: eu}
      window: {offset_param: o, limit_param: l, search_param: q, cursor: id}
    view:
      type: join
      driver: {from: apps}
      lookups:
        info: {from: apps, on: {region: name}}
tui:
  components:
    - {kind: table, source: apps}
";

const TOML: &str = "\
[data.sources.apps]
type = \"exec\"
command = [\"ls\", \"${window.offset}\", \"${params.dir}\"]
parameters.dir = { required = true }
[data.sources.top]
type = \"sort\"
from = \"apps\"
by = \"name\"
";

/// A small deterministic generator (xorshift), so failures reproduce.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound.max(1) as u64) as usize
    }
}

fn boundary(text: &str, offset: usize) -> usize {
    (0..=offset.min(text.len()))
        .rev()
        .find(|index| text.is_char_boundary(*index))
        .unwrap_or(0)
}

fn mangle(text: &str, random: &mut Random) -> String {
    let mut text = text.to_owned();
    for _ in 0..=random.below(3) {
        let at = boundary(&text, random.below(text.len() + 1));
        if random.below(2) == 0 {
            let end = boundary(&text, at + 1 + random.below(6));
            text.replace_range(at..end.max(at), "");
        } else {
            let pieces = [
                ":",
                "[",
                "{",
                "${",
                "${params.",
                "\"",
                "- ",
                "\n  ",
                "=",
                "é😀",
                "}",
                "]",
            ];
            text.insert_str(at, pieces[random.below(pieces.len())]);
        }
    }
    text
}

async fn survive(name: &str, language: &str, original: &str, seed: u64) {
    let mut client = TestClient::utf16().await;
    client.open(name, language, original).await;
    let mut random = Random(seed);
    for version in 2..60 {
        let text = mangle(original, &mut random);
        client.replace(name, version, &text).await;
        for _ in 0..4 {
            let offset = boundary(&text, random.below(text.len() + 1));
            let position = utf16_position(&text, offset);
            for method in [
                "textDocument/hover",
                "textDocument/completion",
                "textDocument/definition",
                "textDocument/prepareRename",
            ] {
                let answer = client.at(method, name, position, json!({})).await;
                assert!(
                    answer.is_ok(),
                    "{method} at {offset} of {text:?}: {answer:?}"
                );
            }
            let references = client
                .at(
                    "textDocument/references",
                    name,
                    position,
                    json!({ "context": { "includeDeclaration": true } }),
                )
                .await;
            assert!(
                references.is_ok(),
                "references at {offset} of {text:?}: {references:?}"
            );
        }
        let uri = json!({ "uri": support::uri(name) });
        let symbols = client
            .request(
                "textDocument/documentSymbol",
                json!({ "textDocument": uri }),
            )
            .await;
        assert!(symbols.is_ok(), "symbols of {text:?}: {symbols:?}");
        let whole = json!({ "start": { "line": 0, "character": 0 }, "end": utf16_position(&text, text.len()) });
        let actions = client
            .request(
                "textDocument/codeAction",
                json!({ "textDocument": uri, "range": whole, "context": { "diagnostics": [] } }),
            )
            .await;
        assert!(actions.is_ok(), "code actions of {text:?}: {actions:?}");
    }
}

#[tokio::test]
async fn mangled_yaml_never_gets_an_error() {
    survive("f.yaml", "yaml", YAML, 0x9e37_79b9_7f4a_7c15).await;
}

#[tokio::test]
async fn mangled_toml_never_gets_an_error() {
    survive("f.toml", "toml", TOML, 0x2545_f491_4f6c_dd1d).await;
}
