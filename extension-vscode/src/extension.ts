// VS Code client for the Copy-as-Decode language server (`copy-as-decode serve`, stdio).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  Position as LspPosition,
  ProgressToken,
  Range as LspRange,
  ServerOptions,
  State,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressReport,
} from 'vscode-languageclient/node';
import * as preview from './preview';

const SECTION = 'copyAsDecode';
const SERVER_EDIT = 'copyAsDecode.edit';
const SERVER_APPLY = 'copyAsDecode.apply';

/** Where the user means: the selection, if any, and the cursor (the server edits the function there). */
interface EditTarget {
  uri: string;
  version: number;
  range?: LspRange;
  position?: LspPosition;
}

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let running = 0;
// What the server's progress last said about a running edit: the model's tokens, then the edits it made
// (while the Refactor Preview shows them for review, the edit still runs).
let activity: string | undefined;
let lastMessage: string | undefined;
// The outcome of the last edit, shown in the status bar for a few seconds.
let flash: { text: string; until: number } | undefined;
const FLASH_MS = 6000;
const pending = new Set<vscode.CancellationTokenSource>();
const progressTokens = new Set<ProgressToken>();

/** The `copyAsDecode` settings the server reads (initializationOptions and didChangeConfiguration). */
function serverSettings(): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return {
    model: cfg.get<string>('model'),
    selector: cfg.get<string>('selector'),
    quant: cfg.get<string>('quant'),
    device: cfg.get<string>('device'),
    dtype: cfg.get<string>('dtype'),
    maxNewTokens: cfg.get<number | string>('maxNewTokens'),
    timeout: cfg.get<number>('timeout'),
    workerCommand: cfg.get<string[]>('workerCommand'),
    review: cfg.get<string>('review'),
    reviewLines: cfg.get<number>('reviewLines'),
    inference: cfg.get<string>('inference'),
    endpoint: cfg.get<string>('endpoint'),
    servedModel: cfg.get<string>('servedModel'),
    api: cfg.get<string>('api'),
  };
}

function onPath(exe: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, exe);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      return full;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `copyAsDecode.serverCommand`, else `copy-as-decode serve` on PATH, else `python3 -m copy_as_decode.cli serve`. */
function serverCommand(): string[] {
  const configured = vscode.workspace.getConfiguration(SECTION).get<string[]>('serverCommand') ?? [];
  if (configured.length > 0) return configured;
  const exe = onPath('copy-as-decode');
  if (exe) return [exe, 'serve'];
  return [process.platform === 'win32' ? 'python' : 'python3', '-m', 'copy_as_decode.cli', 'serve'];
}

function updateStatus(): void {
  const settings = serverSettings();
  const endpoint = settings.endpoint || '$COPY_AS_DECODE_ENDPOINT';
  const engine = settings.inference === 'remote'
    ? `remote \`${endpoint}\`, tokenizer \`${settings.model}\``
    : settings.inference === 'chat'
    ? `chat \`${endpoint}\`, model \`${settings.servedModel || 'the one it serves'}\``
    : `model \`${settings.model}\`, quant \`${settings.quant || 'auto'}\`, device \`${settings.device || 'auto'}\`, ` +
      `dtype \`${settings.dtype || 'auto'}\``;
  const tip = new vscode.MarkdownString(
    `**Copy-as-Decode**\n\n${engine}, selector \`${settings.selector}\`` +
      (lastMessage ? `\n\n${lastMessage}` : ''),
  );
  status.tooltip = tip;
  if (running > 0) {
    status.text = `${activity ?? '$(sync~spin) Copy-as-Decode: editing…'}${running > 1 ? ` (${running} edits)` : ''}`;
    status.command = 'copyAsDecode.cancelEdits';
  } else if (flash && Date.now() < flash.until && client?.state === State.Running) {
    status.text = flash.text;
    status.command = 'copyAsDecode.showOutput';
  } else {
    const state = client?.state;
    const label =
      state === State.Running ? '$(pencil) Copy-as-Decode' :
      state === State.Starting ? '$(loading~spin) Copy-as-Decode: starting' :
      '$(error) Copy-as-Decode: stopped';
    status.text = label;
    status.command = state === State.Running ? 'copyAsDecode.editWithInstruction' : 'copyAsDecode.showOutput';
  }
  void vscode.commands.executeCommand('setContext', 'copyAsDecode.editing', running > 0);
  status.show();
}

async function tracked<T>(work: () => Promise<T>): Promise<T> {
  running++;
  updateStatus();
  try {
    return await work();
  } finally {
    running--;
    if (running === 0) {
      activity = undefined;
      preview.clear(); // the edit ended (result, failure or cancel): its place and preview go
    }
    updateStatus();
  }
}

function createClient(): LanguageClient {
  const [command, ...args] = serverCommand();
  output.appendLine(`starting: ${[command, ...args].join(' ')}`);
  const serverOptions: ServerOptions = { command, args, options: { env: process.env } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    // clientFeatures: the server shows where an edit lands, asks when it is unsure of the place, and streams the
    // new text (preview.ts).
    initializationOptions: { [SECTION]: { ...serverSettings(), clientFeatures: preview.CLIENT_FEATURES } },
    synchronize: { configurationSection: SECTION },
    outputChannel: output,
    middleware: {
      // Server commands and quick fixes (resolved on demand: the model runs then) show as a running edit too.
      executeCommand: (cmd, cmdArgs, next) => tracked(async () => next(cmd, cmdArgs)),
      resolveCodeAction: (item, token, next) => tracked(async () => next(item, token)),
    },
  };
  const c = new LanguageClient('copyAsDecode', 'Copy-as-Decode', serverOptions, clientOptions);
  c.onDidChangeState(() => updateStatus());
  // Registered after the built-in features, so on every (re)start its handler replaces the stock one.
  c.registerFeature({
    fillClientCapabilities: () => undefined,
    initialize: () => {
      showProgressAsNotifications(c);
      preview.attach(c);
    },
    getState: () => ({ kind: 'static' }),
    clear: () => progressTokens.clear(),
  });
  return c;
}

/**
 * Server-initiated work-done progress as a notification with a Cancel button (the stock client shows it
 * in the status bar, where it cannot be cancelled). Cancel sends window/workDoneProgress/cancel.
 */
function showProgressAsNotifications(c: LanguageClient): void {
  c.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let reporter: vscode.Progress<{ message?: string; increment?: number }> | undefined;
    let done = 0;
    const report = (value: WorkDoneProgressBegin | WorkDoneProgressReport) => {
      const increment = typeof value.percentage === 'number' ? Math.max(0, value.percentage - done) : undefined;
      if (typeof value.percentage === 'number') done = Math.max(done, value.percentage);
      reporter?.report({ message: value.message, increment });
      if (value.message) activity = `$(sync~spin) Copy-as-Decode: ${value.message}`;
      updateStatus();
    };
    progressTokens.add(token);
    const sub = c.onProgress(WorkDoneProgress.type, token, (value) => {
      if (value.kind === 'begin') {
        void vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: value.title, cancellable: !!value.cancellable },
          async (progress, cancel) => {
            reporter = progress;
            report(value);
            cancel.onCancellationRequested(() =>
              c.sendNotification(WorkDoneProgressCancelNotification.type, { token }),
            );
            await finished;
          },
        );
      } else if (value.kind === 'report') {
        report(value);
      } else {
        if (value.message) {
          output.appendLine(value.message);
          activity = `$(diff) Copy-as-Decode: ${value.message}`;
        }
        progressTokens.delete(token);
        sub.dispose();
        finish();
        updateStatus();
      }
    });
  });
}

async function startClient(): Promise<void> {
  client = createClient();
  updateStatus();
  try {
    await client.start();
  } catch (e) {
    output.appendLine(`server failed to start: ${e}`);
    void vscode.window.showErrorMessage(
      `Copy-as-Decode: the server did not start (${e}). Set "copyAsDecode.serverCommand".`, 'Show Log',
    ).then((pick) => pick && output.show());
  }
  updateStatus();
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch (e) {
      output.appendLine(`stopping the server: ${e}`);
    }
  }
}

/** Ask the server to edit `target` by `instruction`; it applies the result with workspace/applyEdit. */
async function runEdit(target: EditTarget, instruction: string): Promise<void> {
  await runServerCommand(SERVER_EDIT, { ...target, instruction });
}

/**
 * Send one of the server's editing commands (`copyAsDecode.edit`, `copyAsDecode.apply`) with its argument,
 * as a running edit that the status bar shows and Cancel stops; the server applies the result itself. Returns
 * its answer `{applied, status, reviewed, edits, stats?, message?}`, or undefined when none came (no server,
 * cancelled, failed: the user was told).
 */
async function runServerCommand(command: string, arg: object): Promise<unknown> {
  const c = client;
  if (!c || c.state !== State.Running) {
    void vscode.window.showErrorMessage('Copy-as-Decode: the server is not running.');
    return undefined;
  }
  const source = new vscode.CancellationTokenSource();
  pending.add(source);
  try {
    const result = await tracked(() =>
      c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] }, source.token),
    );
    lastMessage = summarize(result);
    if (lastMessage) output.appendLine(lastMessage);
    const outcome = result && typeof result === 'object' ? (result as Record<string, unknown>).status : undefined;
    if (typeof outcome === 'string') showOutcome(outcome);
    return result;
  } catch (e) {
    if (source.token.isCancellationRequested) {
      lastMessage = 'last edit cancelled';
      showOutcome('cancelled');
    } else {
      const msg = e instanceof Error ? e.message : String(e);
      lastMessage = `last edit failed: ${msg}`;
      showOutcome('error');
      void vscode.window.showErrorMessage(`Copy-as-Decode: ${msg}`);
    }
    return undefined;
  } finally {
    const uri = (arg as { uri?: unknown }).uri;
    if (typeof uri === 'string') preview.clear(uri);
    pending.delete(source);
    source.dispose();
    updateStatus();
  }
}

/** "applied", "unchanged", "rejected", "stale", "cancelled", "timeout", "error", … in the status bar for a moment. */
function showOutcome(outcome: string): void {
  const icon = outcome === 'applied' ? '$(check)' : ['unchanged', 'rejected'].includes(outcome) ? '$(circle-slash)' :
    '$(warning)';
  flash = { text: `${icon} Copy-as-Decode: ${outcome}`, until: Date.now() + FLASH_MS };
  setTimeout(updateStatus, FLASH_MS + 50);
  updateStatus();
}

function summarize(result: unknown): string | undefined {
  // {applied, status, reviewed, edits, stats?, message?}; failures and "No change: <why>" were already shown by
  // the server (window/showMessage); the output channel keeps them with the edit's stats.
  if (!result || typeof result !== 'object') return undefined;
  const r = result as Record<string, unknown>;
  const stats = (r.stats ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof r.status === 'string') parts.push(r.status);
  if (typeof r.edits === 'number') parts.push(`${r.edits} edit${r.edits === 1 ? '' : 's'}`);
  if (r.reviewed === true) parts.push('reviewed');
  // Why nothing was applied ("No change: the block is already in the file"), as the server's message said it.
  if (typeof r.message === 'string' && r.message) parts.push(r.message);
  // Which lines the model rewrote ("41-52 (parse_port)"), or why it took the whole file, or where an applied
  // block went ("replaced `parse_port` (lines 41-52)"): the user sees whether the cursor or the selection
  // was the place they meant.
  const windows = stats.windows;
  if (typeof windows === 'string' && windows) {
    parts.push(/^\d/.test(windows) ? `lines ${windows}` : windows);
  }
  for (const key of ['sampled', 'spliced', 'total_s']) {
    if (typeof stats[key] === 'number') parts.push(`${key} ${stats[key]}`);
  }
  // Completion requests to an inference server (copyAsDecode.inference "remote").
  if (typeof stats.requests === 'number' && stats.requests > 0) parts.push(`requests ${stats.requests}`);
  return parts.length ? `last edit: ${parts.join(', ')}` : undefined;
}

async function askInstruction(): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Edit with Copy-as-Decode',
    prompt: 'What should change?',
    placeHolder: 'e.g. rename `total` to `count` and add a docstring',
    ignoreFocusOut: true,
  });
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

/** Command palette: edit the selection, or the function at the cursor when nothing is selected (the server
 * decides: an instruction that names another function, or a short file, is edited elsewhere or whole). */
async function editWithInstruction(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Copy-as-Decode: open a file to edit first.');
    return;
  }
  if (!client) return;
  const doc = editor.document;
  // The cursor goes with a selection too: the selection bounds the edit, the cursor tells the server where
  // the user is.
  const target: EditTarget = {
    uri: doc.uri.toString(),
    version: doc.version,
    position: client.code2ProtocolConverter.asPosition(editor.selection.active),
  };
  if (!editor.selection.isEmpty) {
    target.range = client.code2ProtocolConverter.asRange(editor.selection);
  }
  prepare(target);
  const instruction = await askInstruction();
  if (!instruction) return;
  await runEdit(target, instruction);
}

/** While the user types the instruction, the server's worker reads the window at the place (the server's
 * copyAsDecode.prepare): the edit then reads only the instruction. Nothing waits for it or shows it. */
function prepare(target: EditTarget): void {
  const { uri, version, range, position } = target;
  client?.sendRequest(ExecuteCommandRequest.type, {
    command: 'copyAsDecode.prepare', arguments: [{ uri, version, range, position }],
  }).then((answer) => output.appendLine(`prepare: ${JSON.stringify(answer)}`),
    (e: unknown) => output.appendLine(`prepare failed: ${String(e)}`));
}

/** Client side of the server's "Edit with Copy-as-Decode…" refactor action: `[{uri, version, range?, position?}]`,
 * sent back as the server made it (fields this client does not know included), with the instruction. */
async function editInteractive(arg?: EditTarget): Promise<void> {
  if (!arg || typeof arg.uri !== 'string') return editWithInstruction();
  prepare(arg);
  const instruction = await askInstruction();
  if (!instruction) return;
  await runEdit(arg, instruction);
}

/** What applyBlock answers when it sends nothing: the shape of the server's answer. */
function notSent(message: string): Record<string, unknown> {
  return { applied: false, status: 'error', reviewed: false, edits: 0, message };
}

/**
 * `copyAsDecode.applyBlock(block, uri?)`, for other extensions (a chat view's "Apply" button): merge the code
 * block `block` (lazy markers such as `# ... existing code ...` allowed) into the document `uri` (default: the
 * active editor's) with the server's `copyAsDecode.apply`. The selection of the editor showing the document
 * says where the block goes (the cursor when nothing is selected); a document shown in no editor sends
 * neither. Resolves to the server's answer `{applied, status, reviewed, edits, stats?, message?}`.
 */
async function applyBlock(block?: unknown, uri?: unknown): Promise<unknown> {
  if (typeof block !== 'string' || block.trim() === '') {
    const message = typeof block === 'string' ? 'the code block is empty; nothing to apply' :
      'copyAsDecode.applyBlock takes the code block (a string) and optionally a document URI';
    void vscode.window.showInformationMessage(`Copy-as-Decode: ${message}.`);
    return notSent(message);
  }
  let editor: vscode.TextEditor | undefined;
  let doc: vscode.TextDocument;
  if (uri === undefined || uri === null || uri === '') {
    editor = vscode.window.activeTextEditor;
    if (!editor) {
      const message = 'open a file to apply the code block to';
      void vscode.window.showInformationMessage(`Copy-as-Decode: ${message}.`);
      return notSent(message);
    }
    doc = editor.document;
  } else {
    const target = uri instanceof vscode.Uri ? uri : typeof uri === 'string' ? vscode.Uri.parse(uri, true) : undefined;
    if (!target) return notSent('the document must be given as a URI');
    // Opening it also sends it to the server (didOpen), which edits only documents it knows.
    doc = await vscode.workspace.openTextDocument(target);
    const wanted = doc.uri.toString();
    editor = vscode.window.activeTextEditor?.document.uri.toString() === wanted ? vscode.window.activeTextEditor :
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === wanted);
  }
  if (!client) return notSent('the server is not running');
  const arg: EditTarget & { block: string } = { uri: doc.uri.toString(), version: doc.version, block };
  if (editor) {
    if (editor.selection.isEmpty) arg.position = client.code2ProtocolConverter.asPosition(editor.selection.active);
    else arg.range = client.code2ProtocolConverter.asRange(editor.selection);
  }
  return runServerCommand(SERVER_APPLY, arg);
}

/** Command palette: apply the clipboard's text (a code block copied from a chat) to the active editor, at the
 * selection, else at the cursor. */
async function applyClipboard(): Promise<unknown> {
  if (!vscode.window.activeTextEditor) {
    void vscode.window.showInformationMessage('Copy-as-Decode: open a file to apply the code block to.');
    return undefined;
  }
  const text = await vscode.env.clipboard.readText();
  if (text.trim() === '') {
    void vscode.window.showInformationMessage(
      'Copy-as-Decode: the clipboard holds no text; copy a code block first.',
    );
    return undefined;
  }
  return applyBlock(text);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Copy-as-Decode');
  status = vscode.window.createStatusBarItem('copyAsDecode.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'Copy-as-Decode';
  preview.register(context);
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('copyAsDecode.editWithInstruction', editWithInstruction),
    vscode.commands.registerCommand('copyAsDecode.editInteractive', editInteractive),
    vscode.commands.registerCommand('copyAsDecode.applyClipboard', applyClipboard),
    vscode.commands.registerCommand('copyAsDecode.applyBlock', applyBlock),
    // (copyAsDecode.cancel and copyAsDecode.apply are the server's own commands, which the language client
    // registers: the client-side commands have other names.)
    vscode.commands.registerCommand('copyAsDecode.cancelEdits', () => {
      for (const token of progressTokens) {
        void client?.sendNotification(WorkDoneProgressCancelNotification.type, { token });
      }
      for (const source of pending) source.cancel();
    }),
    vscode.commands.registerCommand('copyAsDecode.showOutput', () => output.show()),
    vscode.commands.registerCommand('copyAsDecode.restartServer', async () => {
      await stopClient();
      await startClient();
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration(`${SECTION}.serverCommand`)) {
        await stopClient();
        await startClient();
      } else if (e.affectsConfiguration(SECTION)) {
        updateStatus();
      }
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
