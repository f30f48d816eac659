// Starts `sources lsp` for YAML and TOML documents and restarts it when its path setting changes.
// The server decides which documents are configuration files: one without a `data.sources`
// block gets no diagnostics. In an untrusted workspace (restricted mode) the editor ignores the
// workspace's `sources.server.path` (package.json lists it as restricted) and this extension
// offers no "▶ try", the one command that runs a configuration's commands and requests; granting
// trust restarts the server and brings the lenses back.

import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The server's command behind "▶ try" and "⏺ try and record". */
const TRY_COMMAND = "sources.try";

/** The `sources` executable a platform-specific package carries (`server/sources`), if any. */
let bundled: string | undefined;

/** The executable named by `sources.server.path`; unset, the one this package carries for its
 * platform, or else `sources` from `PATH`. */
function serverPath(): string {
  const configured = vscode.workspace.getConfiguration("sources").get<string>("server.path");
  if (configured && configured.trim() !== "") {
    return configured.trim();
  }
  return bundled ?? "sources";
}

/** The executable under `server/` in the installed extension, made executable (an archive may
 * lose the mode), or `undefined` when this package carries none. */
function findBundled(context: vscode.ExtensionContext): string | undefined {
  const name = process.platform === "win32" ? "sources.exe" : "sources";
  const candidate = context.asAbsolutePath(path.join("server", name));
  if (!fs.existsSync(candidate)) {
    return undefined;
  }
  if (process.platform !== "win32") {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
    } catch {
      fs.chmodSync(candidate, 0o755);
    }
  }
  return candidate;
}

function createClient(): LanguageClient {
  const command = serverPath();
  // No `transport`: the client then speaks over the process's standard streams without adding
  // the `--stdio` argument that `TransportKind.stdio` would append.
  const serverOptions: ServerOptions = {
    run: { command, args: ["lsp"] },
    debug: { command, args: ["lsp"] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "toml" },
      { scheme: "untitled", language: "yaml" },
      { scheme: "untitled", language: "toml" },
      // VS Code has no built-in TOML language: without a TOML extension, match the file name.
      { scheme: "file", pattern: "**/*.toml" },
    ],
    // `sources.demo`, `sources.severity` and `sources.inlayHints.sampleValues` reach the server as
    // `workspace/didChangeConfiguration`.
    synchronize: { configurationSection: "sources" },
    initializationOptions: { sources: vscode.workspace.getConfiguration("sources") },
    middleware: {
      // No "▶ try" lens in an untrusted workspace: running one runs the configuration's commands.
      provideCodeLenses: async (document, token, next) => {
        const lenses = await next(document, token);
        if (vscode.workspace.isTrusted || !Array.isArray(lenses)) {
          return lenses;
        }
        return lenses.filter((lens) => lens.command?.command !== TRY_COMMAND);
      },
      // "▶ try" on an entry with required parameters: ask for them (masked and secret ones as
      // passwords), then run it again.
      executeCommand: async (command, args, next) => {
        if (command === TRY_COMMAND && !vscode.workspace.isTrusted) {
          void vscode.window.showWarningMessage(
            "Sources: \"▶ try\" runs the configuration's commands and requests; trust this workspace to use it.",
          );
          return undefined;
        }
        const result = await next(command, args);
        const missing: unknown = result?.missing;
        if (command !== TRY_COMMAND || !Array.isArray(missing) || missing.length === 0) {
          return result;
        }
        const masked: unknown[] = Array.isArray(result?.masked) ? result.masked : [];
        const params: Record<string, string> = { ...(args[2] ?? {}) };
        for (const name of missing) {
          const value = await vscode.window.showInputBox({
            title: `sources try ${String(args[1])}`,
            prompt: `Value of the parameter \`${String(name)}\``,
            password: masked.includes(name),
          });
          if (value === undefined) {
            return result;
          }
          params[String(name)] = value;
        }
        // Keep the options (`{"record": true}` from "⏺ try and record") the lens gave.
        return next(command, [args[0], args[1], params, ...args.slice(3)]);
      },
    },
  };
  // The id `sources` makes the client read its trace level from `sources.trace.server`.
  return new LanguageClient("sources", "Sources", serverOptions, clientOptions);
}

async function start(): Promise<void> {
  client = createClient();
  try {
    await client.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `Sources: could not start \`${serverPath()} lsp\` (${message}). Set "sources.server.path" to the sources executable.`,
    );
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined && running.isRunning()) {
    await running.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  bundled = findBundled(context);
  context.subscriptions.push(
    // The "N references" lens: the server gives LSP locations; VS Code's references view wants
    // its own types.
    vscode.commands.registerCommand(
      "sources.showReferences",
      async (uri: string, position: { line: number; character: number }, locations: unknown[]) => {
        const running = client;
        if (running === undefined) {
          return;
        }
        const converter = running.protocol2CodeConverter;
        await vscode.commands.executeCommand(
          "editor.action.showReferences",
          converter.asUri(uri),
          converter.asPosition(position),
          await Promise.all(locations.map((location) => converter.asLocation(location as never))),
        );
      },
    ),
    // Trust granted: the workspace's server path now applies, and the lenses come back.
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("sources.server.path")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
