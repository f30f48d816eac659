// End-to-end test of the VS Code extension in real VS Code: installs the packaged extension into
// code-server, opens a workspace holding a configuration with mistakes in headless Chromium and
// checks what a user sees: the squiggle, the Problems entry, hover text, the completion list,
// semantic highlighting, the "▶ try" code lens, a quick fix that edits the text and, once the file
// is corrected, "▶ try" opening an entry's data.
//
//   node editors/vscode/test/e2e.mjs --vsix editors/vscode/sources-lsp.vsix --out target/vscode-e2e/positive
//
// No `sources` is on the PATH code-server runs with, so without `--server` the server the extension
// starts is the binary its package carries. `--server` becomes the `sources.server.path` setting;
// pointing it at a path that does not exist is the negative control (every check must then fail).
// `--untrusted` opens the workspace in restricted mode (workspace trust on, the folder not trusted)
// with a workspace setting that points `sources.server.path` nowhere, and runs the restricted-mode
// checks instead: the workspace cannot choose the server, diagnostics still come, and no "▶ try"
// lens is offered. Exit status: 0 when every check passed, 1 when a check failed, 2 when the harness
// itself could not run (install, code-server or Chromium).
// Everything lives in the fresh `--out` directory: VS Code's user data and extensions, the
// workspace, the browser profile, code-server's log and `screenshot.png`.

import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const codeServerEntry = path.join(here, "node_modules", "code-server", "out", "node", "entry.js");

/** How long VS Code and the server get to show the first diagnostics (server start included). */
const FIRST_RESULT_MS = 30_000;
/** How long any later check waits for its answer. */
const CHECK_MS = 5_000;
/** How often the completion check asks for suggestions before it fails. */
const SUGGEST_ATTEMPTS = 3;

class HarnessError extends Error {}

const { values: options } = parseArgs({
  options: {
    server: { type: "string" },
    vsix: { type: "string" },
    out: { type: "string" },
    untrusted: { type: "boolean", default: false },
  },
});
const untrusted = options.untrusted;
for (const name of ["vsix", "out"]) {
  if (!options[name]) {
    console.error(`usage: node e2e.mjs [--server PATH] --vsix PATH --out DIR (missing --${name})`);
    process.exit(2);
  }
}
const out = path.resolve(options.out);
const vsix = path.resolve(options.vsix);
// A bare name stays a bare name (looked up in PATH); anything with a slash becomes absolute.
// Without `--server` the setting stays unset: the extension runs the binary its package carries.
const server =
  options.server === undefined
    ? undefined
    : options.server.includes("/")
      ? path.resolve(options.server)
      : options.server;
// No `sources` on the PATH code-server and the extension see: only the package's binary (or the
// setting) can start the server.
const pathWithoutSources = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => dir !== "" && !existsSync(path.join(dir, "sources")))
  .join(path.delimiter);

// --- Setup: a throwaway VS Code profile, the extension, the workspace ---------------------------

rmSync(out, { recursive: true, force: true });
const dirs = {
  userData: path.join(out, "user-data"),
  extensions: path.join(out, "extensions"),
  workspace: path.join(out, "workspace"),
  browser: path.join(out, "browser-profile"),
  xdg: path.join(out, "xdg"),
  tmp: path.join(out, "tmp"),
};
for (const dir of Object.values(dirs)) {
  mkdirSync(dir, { recursive: true });
}
const configFile = path.join(out, "code-server.yaml");
writeFileSync(configFile, "bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n");
copyFileSync(path.join(here, "fixture", "sources.yaml"), path.join(dirs.workspace, "sources.yaml"));
const fixture = readFileSync(path.join(dirs.workspace, "sources.yaml"), "utf8");
/** In restricted mode the workspace asks for a server that does not exist; VS Code must ignore it. */
const workspaceServer = path.join(out, "workspace-chosen", "sources");
if (untrusted) {
  mkdirSync(path.join(dirs.workspace, ".vscode"), { recursive: true });
  writeFileSync(
    path.join(dirs.workspace, ".vscode", "settings.json"),
    JSON.stringify({ "sources.server.path": workspaceServer }, null, 2),
  );
}
mkdirSync(path.join(dirs.userData, "User"), { recursive: true });
writeFileSync(
  path.join(dirs.userData, "User", "settings.json"),
  JSON.stringify(
    {
      ...(server === undefined ? {} : { "sources.server.path": server }),
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "workbench.enableExperiments": false,
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "workbench.colorTheme": "Default Dark Modern",
      // Restricted mode: trust on, no prompt, and the workspace folder never trusted.
      ...(untrusted
        ? {
            "security.workspace.trust.enabled": true,
            "security.workspace.trust.startupPrompt": "never",
            "security.workspace.trust.banner": "never",
            "security.workspace.trust.untrustedFiles": "open",
          }
        : { "security.workspace.trust.enabled": false }),
      "editor.semanticHighlighting.enabled": true,
      "editor.codeLens": true,
      // Only the language server may answer completion: no suggestions from the document's words.
      "editor.wordBasedSuggestions": "off",
      "editor.hover.delay": 200,
      "editor.minimap.enabled": false,
      "chat.commandCenter.enabled": false,
    },
    null,
    2,
  ),
);

/** code-server's command line with the throwaway profile; HOME's config and data stay untouched. */
const codeServerArgs = [
  codeServerEntry,
  "--config",
  configFile,
  "--user-data-dir",
  dirs.userData,
  "--extensions-dir",
  dirs.extensions,
];
const codeServerEnv = {
  ...process.env,
  PATH: pathWithoutSources,
  XDG_CONFIG_HOME: path.join(dirs.xdg, "config"),
  XDG_DATA_HOME: path.join(dirs.xdg, "data"),
  XDG_CACHE_HOME: path.join(dirs.xdg, "cache"),
  // The server writes "▶ try" results to a temporary file: keep them in the run's directory.
  TMPDIR: dirs.tmp,
};

function installExtension() {
  const result = spawnSync(process.execPath, [...codeServerArgs, "--install-extension", vsix], {
    env: codeServerEnv,
    encoding: "utf8",
    timeout: 120_000,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0 || !/successfully installed/i.test(output)) {
    throw new HarnessError(`installing ${vsix} into code-server failed:\n${output}${result.error ?? ""}`);
  }
}

/** Starts code-server on a free loopback port; resolves to its URL once it listens. */
function startCodeServer() {
  const log = createWriteStream(path.join(out, "code-server.log"));
  const child = spawn(
    process.execPath,
    [
      ...codeServerArgs,
      "--auth",
      "none",
      "--bind-addr",
      "127.0.0.1:0",
      "--disable-telemetry",
      "--disable-update-check",
      ...(untrusted ? [] : ["--disable-workspace-trust"]),
      "--disable-getting-started-override",
      "--disable-proxy",
      "--ignore-last-opened",
    ],
    { env: codeServerEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new HarnessError(`code-server did not listen within 60 s:\n${seen}`)),
      60_000,
    );
    const watch = (chunk) => {
      log.write(chunk);
      seen += chunk.toString();
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", watch);
    child.stderr.on("data", watch);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new HarnessError(`code-server exited (${code}) before listening:\n${seen}`));
    });
  });
  return { child, url };
}

// --- Driving the workbench ----------------------------------------------------------------------

/** Polls `probe` until it returns a truthy value or `ms` pass; returns the last value. */
async function until(probe, ms) {
  const deadline = Date.now() + ms;
  let value;
  for (let attempt = 0; attempt < 1000; attempt++) {
    value = await probe();
    if (value || Date.now() >= deadline) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return value;
}

/** The editor's text as rendered, one string per visible line (VS Code renders spaces as U+00A0). */
async function editorLines(page) {
  return page.$$eval(".editor-instance .monaco-editor .view-lines .view-line", (lines) =>
    lines
      .map((line) => ({ top: parseFloat(line.style.top), text: line.textContent.replace(/\u00a0/g, " ") }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text),
  );
}

/** Runs a command from the command palette by its exact label. */
async function runCommand(page, label) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: CHECK_MS });
  await input.fill(`>${label}`);
  const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: label }).first();
  await row.waitFor({ state: "visible", timeout: CHECK_MS });
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden", timeout: CHECK_MS });
}

/** Puts the cursor at the first `needle` in the fixture, `shift` characters in. */
async function goTo(page, needle, shift = 0) {
  // Positions come from the file as written (the editor may be scrolled); the quick fix, the only
  // edit, comes last.
  const lines = fixture.split("\n");
  const index = lines.findIndex((line) => line.includes(needle));
  if (index < 0) {
    throw new Error(`\`${needle}\` is not in the fixture`);
  }
  // Columns count UTF-16 code units, as VS Code and JavaScript strings do.
  const column = lines[index].indexOf(needle) + shift + 1;
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: CHECK_MS });
  await input.fill(`:${index + 1}:${column}`);
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden", timeout: CHECK_MS });
}

/** The text of "Developer: Inspect Editor Tokens and Scopes" at `needle` (plus `shift`). */
async function inspectToken(page, needle, shift) {
  await goTo(page, needle, shift);
  await runCommand(page, "Developer: Inspect Editor Tokens and Scopes");
  const widget = page.locator(".token-inspect-widget");
  const text = await until(async () => {
    const texts = await widget.allInnerTexts();
    // The semantic part arrives after the TextMate part; wait for it up to the deadline.
    return texts.find((t) => t.includes("semantic token type"));
  }, CHECK_MS);
  const seen = text ?? (await widget.allInnerTexts()).join("\n");
  await page.keyboard.press("Escape");
  return seen.replace(/\s+/g, " ");
}

/**
 * Applies the quick fix whose title contains `title` at `needle` from the light-bulb menu; passes
 * when the editor then shows the line `after` and no longer `before`.
 */
async function quickFix(page, needle, title, after, before) {
  await goTo(page, needle, 1);
  await page.keyboard.press("Control+.");
  // The code action menu: move the keyboard focus to the fix and apply it with Enter.
  const actions = page.locator(".action-widget .monaco-list-row.action");
  const wanted = (label) => label !== null && label.includes(title);
  const offered = await until(async () => (await actions.count()) > 0, CHECK_MS);
  const menu = await actions.evaluateAll((rows) => rows.map((row) => row.getAttribute("aria-label")));
  if (!offered || !menu.some(wanted)) {
    await page.keyboard.press("Escape");
    return { ok: false, detail: `no quick fix to ${title} offered: ${JSON.stringify(menu)}` };
  }
  const focused = page.locator(".action-widget .monaco-list-row.action.focused");
  for (let step = 0; step < menu.length && !wanted(await focused.getAttribute("aria-label")); step++) {
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  const fixed = await until(async () => {
    const lines = await editorLines(page);
    return lines.includes(after) && !lines.some((line) => line.includes(before));
  }, CHECK_MS);
  return { ok: fixed, detail: `text: ${JSON.stringify(await editorLines(page))}` };
}

/** The screen rectangle of the first `needle` in the editor's text. */
async function textRect(page, needle) {
  return page.evaluate((needle) => {
    const root = document.querySelector(".editor-instance .monaco-editor .view-lines");
    if (!root) {
      return null;
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent.indexOf(needle);
      if (at >= 0) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        const { left, right, top, bottom } = range.getBoundingClientRect();
        return { left, right, top, bottom };
      }
    }
    return null;
  }, needle);
}

// --- The checks ---------------------------------------------------------------------------------

const results = [];

/** Runs one check; a thrown error or a falsy `ok` is a failure, printed with its detail. */
async function check(name, body) {
  const started = Date.now();
  let ok = false;
  let detail;
  try {
    const outcome = await body();
    ok = Boolean(outcome.ok);
    detail = outcome.detail;
  } catch (error) {
    if (error instanceof HarnessError) {
      throw error;
    }
    detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok });
  console.log(`${ok ? "pass" : "FAIL"}: ${name} (${seconds} s)${ok ? "" : `: ${detail}`}`);
}

async function checks(page) {
  await check("a squiggle under the misspelled field `urll`", async () => {
    const overlaps = await until(async () => {
      const word = await textRect(page, "urll");
      const squiggles = await page.$$eval(
        ".editor-instance .monaco-editor .view-overlays [class*='squiggly-']",
        (nodes) =>
          nodes.map((node) => {
            const { left, right, top, bottom } = node.getBoundingClientRect();
            return { left, right, top, bottom };
          }),
      );
      return (
        word &&
        squiggles.some(
          (s) => s.left < word.right && s.right > word.left && s.top < word.bottom && s.bottom > word.top,
        )
      );
    }, FIRST_RESULT_MS);
    return { ok: overlaps, detail: "no error or warning decoration overlaps `urll`" };
  });

  await check("the Problems panel lists unknown-field for `urll`", async () => {
    await runCommand(page, "View: Focus Problems (Errors, Warnings, Infos)");
    const rows = page.locator(".markers-panel .monaco-list-row");
    const entry = await until(async () => {
      const texts = await rows.allInnerTexts();
      return texts.find((text) => text.includes("urll") && text.includes("unknown-field"));
    }, CHECK_MS);
    const texts = await rows.allInnerTexts();
    await page.keyboard.press("Escape");
    return { ok: Boolean(entry), detail: `rows: ${JSON.stringify(texts)}` };
  });

  await check("hover on the reference `apps` describes the entry", async () => {
    await goTo(page, "from: apps", 7);
    await runCommand(page, "Show or Focus Hover");
    const hover = page.locator(".monaco-hover:not(.hidden)");
    const text = await until(async () => {
      const texts = await hover.allInnerTexts();
      return texts.find((t) => t.includes("polled every"));
    }, CHECK_MS);
    const seen = await hover.allInnerTexts();
    await page.keyboard.press("Escape");
    return {
      ok: Boolean(text && text.includes("http") && text.includes("30s")),
      detail: `hover: ${JSON.stringify(seen)}`,
    };
  });

  await check("completion at `from:` offers the other entries", async () => {
    await goTo(page, "from: apps", 6);
    const widget = page.locator(".suggest-widget.visible");
    const rows = widget.locator(".monaco-list-row .label-name");
    // A trigger can be lost on a loaded machine (the widget never opens, or opens before the
    // editor has the focus back from the quick input): ask again, a bounded number of times, and
    // report what each attempt showed.
    const attempts = [];
    let labels = null;
    for (let attempt = 0; attempt < SUGGEST_ATTEMPTS && !labels; attempt++) {
      await page.keyboard.press("Control+Space");
      labels = await until(async () => {
        const seen = await rows.allInnerTexts();
        return seen.includes("apps") && seen.includes("☕café😀") ? seen : null;
      }, CHECK_MS);
      const shown = (await widget.count()) > 0 ? (await widget.first().innerText()).replace(/\s+/g, " ") : "no widget";
      attempts.push(shown);
      await page.keyboard.press("Escape");
    }
    return {
      ok: Boolean(labels) && !labels.includes("healthy"),
      detail: `suggestions: ${JSON.stringify(labels)}; widget per attempt: ${JSON.stringify(attempts)}`,
    };
  });

  await check("semantic highlighting: `apps` a variable, `==` inside the `where` string an operator", async () => {
    const seen = [];
    for (const [needle, shift, type] of [
      ["from: apps", 7, "variable"],
      ["health == ", 7, "operator"],
    ]) {
      const text = await inspectToken(page, needle, shift);
      seen.push(text);
      if (!new RegExp(`semantic token type\\s*${type}\\b`).test(text)) {
        return { ok: false, detail: `no semantic token type \`${type}\` at \`${needle}\`: ${JSON.stringify(seen)}` };
      }
    }
    return { ok: true };
  });

  // By now the server has answered hover, completion and semantic tokens for this version, so a
  // second delivery of its diagnostics (a push beside the pulls) would be listed already.
  await check("the Problems panel lists each diagnostic once", async () => {
    await runCommand(page, "View: Focus Problems (Errors, Warnings, Infos)");
    const rows = page.locator(".markers-panel .monaco-list-row");
    await until(async () => (await rows.allInnerTexts()).some((text) => text.includes("urll")), CHECK_MS);
    const texts = await rows.allInnerTexts();
    await page.keyboard.press("Escape");
    const markers = texts.filter((text) => /\[Ln \d+, Col \d+\]/.test(text));
    const repeated = markers.filter((text, index) => markers.indexOf(text) !== index);
    const urll = markers.filter((text) => text.includes("urll") && text.includes("unknown-field"));
    // Back to the editor, as the checks after this one expect.
    await goTo(page, "from: apps", 7);
    return {
      ok: urll.length === 1 && repeated.length === 0,
      detail: `\`urll\` listed ${urll.length} times; repeated: ${JSON.stringify(repeated)}; rows: ${JSON.stringify(texts)}`,
    };
  });

  await check("a \"▶ try\" code lens on every entry", async () => {
    const lenses = page.locator(".editor-instance .monaco-editor .codelens-decoration a", { hasText: "▶ try" });
    const count = await until(async () => {
      const n = await lenses.count();
      return n >= 4 ? n : 0;
    }, CHECK_MS);
    const titles = await page.locator(".editor-instance .monaco-editor .codelens-decoration").allInnerTexts();
    return { ok: count === 4, detail: `lenses: ${JSON.stringify(titles)}` };
  });

  await page.screenshot({ path: path.join(out, "screenshot.png") });

  await check("the quick fix renames `urll` to `url`", async () =>
    quickFix(page, "urll", "`url`", "      url: https://example.invalid/apps", "urll"),
  );

  await check("\"▶ try\" on the corrected file opens the static entry's data", async () => {
    // The other mistake has no quick fix: type the correction.
    await goTo(page, "appz", 4);
    await page.keyboard.press("Backspace");
    await page.keyboard.type("s");
    const errors = page.locator(".editor-instance .monaco-editor .view-overlays [class*='squiggly-error']");
    if (!(await until(async () => (await errors.count()) === 0, CHECK_MS))) {
      return { ok: false, detail: `errors remain after both corrections: ${JSON.stringify(await editorLines(page))}` };
    }
    // The first lens belongs to the first entry, `☕café😀` (static data [1, 2]).
    await page.keyboard.press("Escape");
    await goTo(page, "data:", 0);
    const lens = page.locator(".editor-instance .monaco-editor .codelens-decoration a", { hasText: "▶ try" }).first();
    // The lenses are drawn again after the edit: wait for the new one.
    const box = await until(async () => ((await lens.count()) > 0 ? lens.boundingBox({ timeout: 1000 }).catch(() => null) : null), CHECK_MS);
    if (!box) {
      return { ok: false, detail: "the first \"▶ try\" lens is not on screen" };
    }
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const tab = page.locator(".tabs-container .tab", { hasText: ".json" });
    const opened = await until(async () => (await tab.count()) > 0, CHECK_MS);
    const tabs = await page.locator(".tabs-container .tab").allInnerTexts();
    if (!opened) {
      return { ok: false, detail: `no result document opened; tabs: ${JSON.stringify(tabs)}` };
    }
    await tab.first().click();
    const data = await until(async () => {
      const text = (await editorLines(page)).join("\n").replace(/\s+/g, "");
      return text.includes("[1,2]") ? text : null;
    }, CHECK_MS);
    return { ok: Boolean(data), detail: `result: ${JSON.stringify(await editorLines(page))}` };
  });
}

/** The checks of restricted mode: what an untrusted workspace may and may not do. */
async function restrictedChecks(page) {
  await check("the workbench is in restricted mode", async () => {
    const badge = page.locator(".statusbar-item", { hasText: "Restricted Mode" });
    const shown = await until(async () => (await badge.count()) > 0, CHECK_MS);
    return { ok: shown, detail: "no \"Restricted Mode\" item in the status bar" };
  });

  // The workspace's `sources.server.path` points nowhere: a diagnostic means the extension ignored
  // it and ran the binary its package carries.
  await check("the workspace cannot choose the server: diagnostics come from the package's own", async () => {
    const shown = await until(async () => {
      const word = await textRect(page, "urll");
      const squiggles = await page.$$eval(
        ".editor-instance .monaco-editor .view-overlays [class*='squiggly-']",
        (nodes) => nodes.length,
      );
      return word && squiggles > 0;
    }, FIRST_RESULT_MS);
    return { ok: shown, detail: `no diagnostic: the server at ${workspaceServer} (the workspace's choice) was used, or none started` };
  });

  // The server's other lenses (references) show that the lenses of this version were drawn: the
  // missing "▶ try" is the extension's doing, not a slow server.
  await check("no \"▶ try\" code lens in an untrusted workspace, the reference lenses shown", async () => {
    const decorations = page.locator(".editor-instance .monaco-editor .codelens-decoration");
    const drawn = await until(async () => (await decorations.allInnerTexts()).some((t) => /\d+ references?/.test(t)), CHECK_MS);
    const titles = await decorations.allInnerTexts();
    return {
      ok: drawn && !titles.some((t) => t.includes("▶ try")),
      detail: `lenses shown: ${JSON.stringify(titles)}`,
    };
  });
  await page.screenshot({ path: path.join(out, "screenshot.png") });
}

// --- Main ---------------------------------------------------------------------------------------

let codeServer;
let browser;
let status = 2;
// Stopped from outside (`timeout`, Ctrl-C): code-server goes too.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    codeServer?.kill();
    process.exit(2);
  });
}
try {
  installExtension();
  const started = startCodeServer();
  codeServer = started.child;
  const url = await started.url;

  browser = await chromium.launchPersistentContext(dirs.browser, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`${url}/?folder=${encodeURIComponent(dirs.workspace)}`, { timeout: 60_000 });
  const file = page.locator(".explorer-folders-view .monaco-list-row", { hasText: "sources.yaml" });
  try {
    await file.waitFor({ state: "visible", timeout: 60_000 });
    await file.click();
    await page.locator(".editor-instance .monaco-editor .view-lines", { hasText: "urll" }).waitFor({ timeout: 30_000 });
  } catch (error) {
    await page.screenshot({ path: path.join(out, "screenshot.png") }).catch(() => {});
    throw new HarnessError(`the workbench did not open sources.yaml: ${error}`);
  }
  await page.locator(".editor-instance .monaco-editor .view-lines").click();

  await (untrusted ? restrictedChecks(page) : checks(page));
  const passed = results.filter((result) => result.ok).length;
  console.log(`${passed} of ${results.length} checks passed (server: ${server ?? "the package's own"}); screenshot: ${path.join(out, "screenshot.png")}`);
  status = passed === results.length ? 0 : 1;
} catch (error) {
  console.error(`vscode e2e: ${error instanceof HarnessError ? error.message : error?.stack ?? error}`);
  status = 2;
} finally {
  await browser?.close().catch(() => {});
  codeServer?.kill();
}
process.exit(status);
