// Runs the real yaml-language-server over stdio with schema/sources.schema.json and checks that it
// reports a misspelled field of a `data.sources` entry, at that field, for the schema named both
// ways the README documents: the `# yaml-language-server: $schema=…` modeline and the `yaml.schemas`
// setting; and that hover and completion come from the schema. Exits 1 with what was received when
// a check fails.
// Usage: node yaml-ls-check.mjs
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const tools = dirname(fileURLToPath(import.meta.url));
const root = resolve(tools, "..");
const schemaUri = pathToFileURL(join(root, "schema", "sources.schema.json")).href;
const server = join(tools, "node_modules", "yaml-language-server", "bin", "yaml-language-server");

const body = `data:
  sources:
    apps:
      type: http
      urll: http://127.0.0.1:8099/apps
`;
const documents = [
  { uri: pathToFileURL(join(root, "target", "modeline.yaml")).href, text: `# yaml-language-server: $schema=${schemaUri}\n${body}`, line: 5 },
  { uri: pathToFileURL(join(root, "target", "sources.yaml")).href, text: body, line: 4 },
];
const settings = {
  yaml: {
    validate: true,
    hover: true,
    completion: true,
    schemaStore: { enable: false },
    schemas: { [schemaUri]: ["sources.yaml"] },
  },
};

const child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
let nextId = 1;
const pending = new Map();
const send = (message) => {
  const json = JSON.stringify({ jsonrpc: "2.0", ...message });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
};
const request = (method, params) =>
  new Promise((resolvePromise) => {
    const id = nextId++;
    pending.set(id, resolvePromise);
    send({ id, method, params });
  });
const notify = (method, params) => send({ method, params });

const found = new Map();
let finish;
const done = new Promise((resolvePromise) => (finish = resolvePromise));
const check = () => {
  if (documents.every((doc) => found.get(doc.uri)?.some((d) => matches(d, doc)))) finish(true);
};
const matches = (diagnostic, doc) => /urll/.test(diagnostic.message) && diagnostic.range.start.line === doc.line;

let buffer = Buffer.alloc(0);
child.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
    buffer = buffer.subarray(headerEnd + 4 + length);
    if (message.id !== undefined && message.method) {
      // A request from the server: configuration is answered with the settings, the rest with null.
      const result =
        message.method === "workspace/configuration"
          ? message.params.items.map((item) => (item.section ? settings[item.section] ?? null : settings))
          : null;
      send({ id: message.id, result });
    } else if (message.id !== undefined) {
      pending.get(message.id)?.(message.result);
    } else if (message.method === "textDocument/publishDiagnostics") {
      found.set(message.params.uri, message.params.diagnostics);
      check();
    }
  }
});

const timer = setTimeout(() => finish(false), 30000);
await request("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(root).href,
  capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } }, textDocument: { publishDiagnostics: {} } },
  initializationOptions: settings,
});
notify("initialized", {});
notify("workspace/didChangeConfiguration", { settings });
for (const doc of documents) {
  notify("textDocument/didOpen", { textDocument: { uri: doc.uri, languageId: "yaml", version: 1, text: doc.text } });
}
const ok = await done;
clearTimeout(timer);

// Hover over `type` in the `yaml.schemas` document shows the field's markdownDescription; completion
// at a new key of the `http` entry offers that kind's fields (the `if`/`then` dispatch).
const plain = documents[1];
const hover = await request("textDocument/hover", { textDocument: { uri: plain.uri }, position: { line: 3, character: 7 } });
const hoverText = JSON.stringify(hover?.contents ?? "");
const hoverOk = /The entry's kind/.test(hoverText);
console.log(`${hoverOk ? "ok  " : "FAIL"} yaml-language-server hover on \`type\`: ${hoverText.slice(0, 160)}`);
const withNewKey = plain.text + "      \n";
notify("textDocument/didChange", { textDocument: { uri: plain.uri, version: 2 }, contentChanges: [{ text: withNewKey }] });
const completion = await request("textDocument/completion", { textDocument: { uri: plain.uri }, position: { line: 5, character: 6 } });
const labels = (Array.isArray(completion) ? completion : completion?.items ?? []).map((item) => item.label);
const completionOk = ["method", "headers", "window", "paginate"].every((label) => labels.includes(label)) && !labels.includes("command");
console.log(`${completionOk ? "ok  " : "FAIL"} yaml-language-server completion in an http entry: ${labels.slice(0, 12).join(", ")}${labels.length > 12 ? ", …" : ""}`);
child.kill();
for (const doc of documents) {
  const diagnostics = found.get(doc.uri) ?? [];
  const hit = diagnostics.find((d) => matches(d, doc));
  const how = doc.text.startsWith("#") ? "modeline" : "yaml.schemas";
  if (hit) {
    console.log(`ok   yaml-language-server (${how}): line ${hit.range.start.line + 1}: ${hit.message}`);
  } else {
    console.log(`FAIL yaml-language-server (${how}): no diagnostic about \`urll\` on line ${doc.line + 1}; got ${JSON.stringify(diagnostics)}`);
  }
}
process.exit(ok && hoverOk && completionOk ? 0 : 1);
