// Starts `sources lsp` for YAML and TOML documents and restarts it when its path setting changes.
// The server decides which documents are configuration files: one without a `data.sources`
// block gets no diagnostics.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** The executable named by `sources.server.path` (default: `sources` from `PATH`). */
function serverPath(): string {
  const configured = vscode.workspace.getConfiguration("sources").get<string>("server.path");
  return configured && configured.trim() !== "" ? configured.trim() : "sources";
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
  context.subscriptions.push(
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
