//! A generator of large, realistic configs, shared by the parse and lint benchmarks.
//!
//! Behind the `bench-support` feature; not part of the toolchain's behaviour.

use std::fmt::Write as _;

/// A YAML config whose `data.sources` holds `sources` entries (about 15 lines each), cycling through
/// http sources with parameters and headers, windowed http sources, windowed exec sources, static
/// sources and merges of earlier entries, with an `app` and a `tui` section around them.
pub fn generate_config(sources: usize) -> String {
    let mut out = String::with_capacity(sources * 400 + 1024);
    out.push_str("app:\n  title: Generated benchmark config\n  refresh_on_focus: true\n");
    out.push_str("tui:\n  components:\n");
    // Tables bind the windowed http entries (index 1 modulo 5), which declare `sort_param`.
    for i in (1..sources).step_by(97 * 5) {
        let _ = write!(
            out,
            "    - kind: table\n      source: src_{i}\n      columns:\n        - title: Name\n          sortable: true\n        - title: Region\n"
        );
    }
    out.push_str("data:\n  sources:\n");
    for i in 0..sources {
        match i % 5 {
            0 => http(&mut out, i),
            1 => windowed_http(&mut out, i),
            2 => windowed_exec(&mut out, i),
            3 => static_rows(&mut out, i),
            _ => merge(&mut out, i),
        }
    }
    out
}

fn http(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"    src_{i}:
      type: http
      url: "https://api.example.com/v1/apps/${{params.app}}/items?page={i}"
      method: GET
      headers:
        Authorization: "Bearer ${{params.token}}"
        Accept: application/json
      parameters:
        app:
          type: string
          default: "app-{i}"
          description: Application id
        token:
          type: string
          default: "t-{i}"
      root: data.items
      refresh: 30s
      timeout: 5s
"#
    );
}

fn windowed_http(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"    src_{i}:
      type: http
      url: https://api.example.com/v1/apps
      root: rows
      window:
        page_size: 100
        prefetch: 1
        offset_param: offset
        limit_param: limit
        search_param: q
        sort_param: sort
        sort_desc_prefix: "-"
        total_path: total
        filters:
          Region: region
"#
    );
}

fn windowed_exec(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"    src_{i}:
      type: exec
      command: [kubectl, get, pods, "--offset=${{window.offset}}", "--limit=${{window.limit}}", "--selector=${{window.search}}"]
      env:
        KUBECONFIG: /etc/kube/config-{i}
      format: json
      window:
        page_size: 50
      cache:
        ttl: 1m
        size: 10
      timeout: 20s
"#
    );
}

fn static_rows(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"    src_{i}:
      type: static
      data:
        - {{ name: alpha-{i}, region: eu-west-1, replicas: 3, ready: true }}
        - {{ name: beta-{i}, region: us-east-1, replicas: 1, ready: false }}
        - name: gamma-{i}
          region: ap-south-1
          replicas: 5
          ready: true
          labels: [web, "tier: front"]
      root: ""
      format: json
      pipe:
        - type: filter
          where: ready
        - type: sort
          by: name
          order: asc
"#
    );
}

fn merge(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"    src_{i}:
      type: merge
      children:
        - source: src_{a}
          tags:
            origin: primary
        - source: src_{b}
          tags:
            origin: secondary
      meta_key: _meta
      on_error: skip
      refresh: 1m
      timeout: 15s
"#,
        a = i - 4,
        b = i - 1,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Map, Node, Syntax, parse};

    #[test]
    fn the_generated_config_is_valid_and_the_promised_size() {
        let text = generate_config(10_000);
        let lines = text.lines().count();
        assert!((140_000..=160_000).contains(&lines), "{lines} lines");
        let parse = parse(&text, Syntax::Yaml);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors.first());
        let root = parse.root.expect("root");
        let sources = root
            .as_map()
            .and_then(|m| m.value("data"))
            .and_then(Node::as_map);
        let count = sources
            .and_then(|data| data.value("sources"))
            .and_then(Node::as_map)
            .map(Map::len);
        assert_eq!(count, Some(10_000));
    }
}
