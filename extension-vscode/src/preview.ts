// While an edit decodes: where it lands (copyAsDecode/place), a pick between places (copyAsDecode/pick), and the
// window's new text as it streams (copyAsDecode/preview), shown as an inline diff that never touches the
// document. An edit that goes to review while its preview is on screen is reviewed in place: Accept / Reject
// per hunk and Accept all / Reject all as CodeLens above the diff.
import * as vscode from 'vscode';
import {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditRequest,
  ApplyWorkspaceEditResult,
  LanguageClient,
} from 'vscode-languageclient/node';

/** What this client shows: the server sends these only to a client that declares them. */
export const CLIENT_FEATURES = ['pick', 'preview', 'place'];

interface LspPosition { line: number; character: number }
interface LspRange { start: LspPosition; end: LspPosition }
interface LspTextEdit { range: LspRange; newText: string; annotationId?: string }

interface Place { version: number; ranges: vscode.Range[]; label: string }
interface Preview { version: number; range: vscode.Range; text: string; done: boolean }

/** A run of changed lines: old lines first..last of the document (last < first: inserted before `first`). */
interface DiffHunk { first: number; last: number; removed: string[]; added: string[]; label?: string }

/** One hunk of an edit under review, with the LSP edits that make it. */
interface ReviewHunk extends DiffHunk { edits: LspTextEdit[]; delta: number; state: 'pending' | 'accepted' | 'rejected' }

interface Review {
  uri: string;
  hunks: ReviewHunk[];
  applying: boolean;
  done: boolean;
  answer: (result: ApplyWorkspaceEditResult) => void;
}

interface DocState { place?: Place; preview?: Preview; candidate?: vscode.Range; review?: Review }

const states = new Map<string, DocState>();
const lensChanged = new vscode.EventEmitter<void>();
let types: {
  place: vscode.TextEditorDecorationType;
  placeLabel: vscode.TextEditorDecorationType;
  removed: vscode.TextEditorDecorationType;
  added: vscode.TextEditorDecorationType;
};

function state(uri: string): DocState {
  let s = states.get(uri);
  if (!s) {
    s = {};
    states.set(uri, s);
  }
  return s;
}

function documentOf(uri: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
}

function asRange(r: LspRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

/** Whole lines a range covers (one that ends at a line start does not take that line). */
function lineSpan(r: vscode.Range): [number, number] {
  const last = r.end.character === 0 && r.end.line > r.start.line ? r.end.line - 1 : r.end.line;
  return [r.start.line, last];
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Line diff of `a` and `b` (longest common subsequence): the changed runs, as offsets into a and b. */
export function diffLines(a: string[], b: string[]): { a0: number; a1: number; b0: number; b1: number }[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return n === 0 && m === 0 ? [] : [{ a0: 0, a1: n, b0: 0, b1: m }];
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: { a0: number; a1: number; b0: number; b1: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const a0 = i;
    const b0 = j;
    while ((i < n || j < m) && !(i < n && j < m && a[i] === b[j])) {
      if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) i++;
      else j++;
    }
    out.push({ a0, a1: i, b0, b1: j });
  }
  return out;
}

/** The preview's hunks against the document: while it streams, the old lines past the new text's end are not
 * reached yet, so the last hunk strikes at most as many lines as it adds. */
function previewHunks(doc: vscode.TextDocument, p: Preview): { hunks: DiffHunk[]; reached: number } {
  const [first, lastLine] = lineSpan(p.range);
  const old: string[] = [];
  for (let k = first; k <= Math.min(lastLine, doc.lineCount - 1); k++) old.push(doc.lineAt(k).text);
  const added = splitLines(p.text);
  const hunks: DiffHunk[] = [];
  const runs = diffLines(old, added);
  let consumed = added.length; // old lines the new text has reached (equal lines after the last run)
  runs.forEach((r, idx) => {
    let a1 = r.a1;
    if (!p.done && idx === runs.length - 1 && r.b1 === added.length) {
      a1 = Math.min(r.a1, r.a0 + (r.b1 - r.b0));
    }
    consumed = a1 + (added.length - r.b1);
    if (a1 === r.a0 && r.b1 === r.b0) return; // only old lines not reached yet
    hunks.push({ first: first + r.a0, last: first + a1 - 1, removed: old.slice(r.a0, a1), added: added.slice(r.b0, r.b1) });
  });
  return { hunks, reached: first + consumed };
}

const indent = (s: string) => (/^\s*/.exec(s.replace(/\t/g, '    '))?.[0].length ?? 0);

/** A new line as injected text: its indentation beyond the line it follows, spaces that do not collapse. */
function shown(text: string, anchor: string): string {
  const cut = Math.min(indent(text), indent(anchor));
  return text.replace(/\t/g, '    ').slice(cut).replace(/ /g, '\u00a0');
}

function hover(h: DiffHunk): vscode.MarkdownString {
  const body = [...h.removed.map((l) => `-${l}`), ...h.added.map((l) => `+${l}`)].join('\n');
  const md = new vscode.MarkdownString(`**Copy-as-Decode**${h.label ? `: ${h.label}` : ''}\n\n\`\`\`diff\n${body}\n\`\`\``);
  return md;
}

/** The decorations of hunks `hunks` in `doc`: removed lines struck through on a red background, each new line
 * after the old line it replaces (green), new lines beyond them after the hunk's last line. */
function diffDecorations(doc: vscode.TextDocument, hunks: DiffHunk[]): { removed: vscode.DecorationOptions[]; added: vscode.DecorationOptions[] } {
  const removed: vscode.DecorationOptions[] = [];
  const added: vscode.DecorationOptions[] = [];
  const after = (line: number, texts: string[], h: DiffHunk, lead: string) => {
    if (line < 0 || line >= doc.lineCount || texts.length === 0) return;
    const end = doc.lineAt(line).range.end;
    const anchor = doc.lineAt(line).text;
    added.push({
      range: new vscode.Range(end, end),
      hoverMessage: hover(h),
      renderOptions: { after: { contentText: lead + texts.map((t) => shown(t, anchor)).join('\u00a0\u00a0\u23ce\u00a0\u00a0') } },
    });
  };
  for (const h of hunks) {
    const n = h.last - h.first + 1;
    for (let k = 0; k < n; k++) {
      const line = h.first + k;
      if (line >= doc.lineCount) break;
      removed.push({ range: doc.lineAt(line).range, hoverMessage: hover(h) });
      const extra = k === n - 1 ? h.added.slice(k) : h.added.slice(k, k + 1);
      after(line, extra, h, '\u2192 ');
    }
    if (n <= 0) {
      // inserted before line `first`: after the line above, or before the document's first line
      if (h.first > 0) after(h.first - 1, h.added, h, '+ ');
      else after(0, h.added, h, '+ ');
    }
  }
  return { removed, added };
}

function render(uri: string): void {
  const s = states.get(uri);
  for (const editor of vscode.window.visibleTextEditors) {
    if (editor.document.uri.toString() !== uri) continue;
    const doc = editor.document;
    const places: vscode.DecorationOptions[] = [];
    const labels: vscode.DecorationOptions[] = [];
    const showPlace = (ranges: vscode.Range[], label: string) => {
      for (const r of ranges) places.push({ range: r, hoverMessage: `Copy-as-Decode: ${label}` });
      if (ranges.length) {
        const end = doc.lineAt(Math.min(ranges[0].start.line, doc.lineCount - 1)).range.end;
        labels.push({ range: new vscode.Range(end, end), renderOptions: { after: { contentText: `\u2190 ${label}` } } });
      }
    };
    if (s?.candidate) showPlace([s.candidate], 'pick this place?');
    else if (s?.place && !s.preview && !s.review) showPlace(s.place.ranges, s.place.label);
    let hunks: DiffHunk[] = [];
    let reached = 0;
    if (s?.review) hunks = reviewSpans(s.review).filter((h) => h.state === 'pending');
    else if (s?.preview) ({ hunks, reached } = previewHunks(doc, s.preview));
    const { removed, added } = diffDecorations(doc, hunks);
    // While it streams, the window's lines not reached yet stay marked as the place.
    if (s?.preview && !s.preview.done && !s.review && !s.candidate) {
      const [first, last] = lineSpan(s.preview.range);
      if (reached <= last) places.push({ range: new vscode.Range(reached, 0, last, 0) });
      if (s.place) {
        const end = doc.lineAt(Math.min(first, doc.lineCount - 1)).range.end;
        labels.push({ range: new vscode.Range(end, end), renderOptions: { after: { contentText: `\u2190 ${s.place.label}` } } });
      }
    }
    editor.setDecorations(types.place, places);
    editor.setDecorations(types.placeLabel, labels);
    editor.setDecorations(types.removed, removed);
    editor.setDecorations(types.added, added);
  }
  lensChanged.fire();
  void vscode.commands.executeCommand('setContext', 'copyAsDecode.reviewing', [...states.values()].some((x) => x.review));
}

function reveal(uri: string, range: vscode.Range): void {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
  if (editor && !editor.visibleRanges.some((v) => v.contains(range.start))) {
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

/** The edit of `uri` ended (result, failure or cancel): its place and preview go. A review answers first. */
export function clear(uri?: string): void {
  for (const key of uri ? [uri] : [...states.keys()]) {
    const s = states.get(key);
    if (!s || s.review) continue;
    states.delete(key);
    render(key);
  }
}

// -- review in place -------------------------------------------------------------------------------------------

/** Hunks with their lines in the document as it is now (accepted hunks before them shift them). */
function reviewSpans(review: Review): ReviewHunk[] {
  let shift = 0;
  return review.hunks.map((h) => {
    const shifted = { ...h, first: h.first + shift, last: h.last + shift };
    if (h.state === 'accepted') shift += h.delta;
    return shifted;
  });
}

function breaks(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length;
}

function before(a: LspPosition, b: LspPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** The hunks of a reviewed edit: its edits grouped by change annotation, with the lines each replaces. */
function reviewHunks(doc: vscode.TextDocument, edits: LspTextEdit[], labels: Record<string, string>): ReviewHunk[] {
  const groups = new Map<string, LspTextEdit[]>();
  edits.forEach((e, k) => {
    const id = e.annotationId ?? `#${k}`;
    groups.set(id, [...(groups.get(id) ?? []), e]);
  });
  const hunks: ReviewHunk[] = [];
  for (const [id, group] of groups) {
    group.sort((a, b) => (before(a.range.start, b.range.start) ? -1 : 1));
    const s = group[0].range.start;
    const e = group[group.length - 1].range.end;
    let first = s.line;
    let last = e.line;
    if (e.character === 0 && e.line > s.line) last = e.line - 1;
    else if (group.length === 1 && s.character === 0 && e.line === s.line && e.character === 0 && /[\r\n]$/.test(group[0].newText)) last = s.line - 1;
    let delta = 0;
    for (const x of group) delta += breaks(x.newText) - (x.range.end.line - x.range.start.line);
    // the lines the hunk leaves: its old lines with its edits applied
    const startOffset = doc.offsetAt(new vscode.Position(first, 0));
    const endOffset = last < first ? startOffset :
      last + 1 < doc.lineCount ? doc.offsetAt(new vscode.Position(last + 1, 0)) : doc.getText().length;
    let text = doc.getText().slice(startOffset, endOffset);
    for (const x of [...group].reverse()) {
      const a = doc.offsetAt(asRange(x.range).start) - startOffset;
      const b = doc.offsetAt(asRange(x.range).end) - startOffset;
      text = text.slice(0, a) + x.newText + text.slice(Math.min(b, text.length));
    }
    const removed: string[] = [];
    for (let k = first; k <= last; k++) removed.push(doc.lineAt(k).text);
    hunks.push({ first, last, removed, added: splitLines(text), edits: group, delta, state: 'pending', label: labels[id] });
  }
  hunks.sort((a, b) => a.first - b.first);
  return hunks;
}

async function applyHunks(review: Review, ks: number[]): Promise<boolean> {
  const doc = documentOf(review.uri);
  if (!doc) return false;
  const spans = reviewSpans(review);
  const edit = new vscode.WorkspaceEdit();
  for (const k of ks) {
    const shift = spans[k].first - review.hunks[k].first;
    for (const e of review.hunks[k].edits) {
      edit.replace(doc.uri, new vscode.Range(e.range.start.line + shift, e.range.start.character,
        e.range.end.line + shift, e.range.end.character), e.newText);
    }
  }
  review.applying = true;
  try {
    if (!(await vscode.workspace.applyEdit(edit))) return false;
  } finally {
    review.applying = false;
  }
  for (const k of ks) review.hunks[k].state = 'accepted';
  return true;
}

function finish(review: Review, failureReason?: string): void {
  if (review.done) return;
  review.done = true;
  const s = states.get(review.uri);
  if (s?.review === review) states.delete(review.uri);
  const applied = review.hunks.some((h) => h.state === 'accepted');
  review.answer(applied ? { applied } : { applied, failureReason });
  render(review.uri);
}

function pendingOf(review: Review): number[] {
  return review.hunks.flatMap((h, k) => (h.state === 'pending' ? [k] : []));
}

async function decide(uri: unknown, which: number | 'all', accept: boolean): Promise<void> {
  const review = typeof uri === 'string' ? states.get(uri)?.review : undefined;
  if (!review || review.done) return;
  const ks = which === 'all' ? pendingOf(review) : review.hunks[which]?.state === 'pending' ? [which] : [];
  if (accept && ks.length) {
    if (!(await applyHunks(review, ks))) {
      void vscode.window.showErrorMessage('Copy-as-Decode: the change could not be applied.');
      return finish(review, 'the editor could not apply a hunk');
    }
  } else {
    for (const k of ks) review.hunks[k].state = 'rejected';
  }
  if (pendingOf(review).length === 0) finish(review);
  else render(uri as string);
}

/** workspace/applyEdit: an edit for review whose preview is on screen is reviewed in place; any other goes
 * to `fallback` (the language client's own handler: the Refactor Preview for a reviewed edit). */
async function applyEdit(params: ApplyWorkspaceEditParams,
  fallback: (p: ApplyWorkspaceEditParams) => Promise<ApplyWorkspaceEditResult>): Promise<ApplyWorkspaceEditResult> {
  const changes = params.edit.documentChanges ?? [];
  const change = changes.length === 1 && 'edits' in changes[0] ? changes[0] : undefined;
  const notes = params.edit.changeAnnotations ?? {};
  const uri = change?.textDocument.uri;
  const s = uri ? states.get(uri) : undefined;
  const edits = (change?.edits ?? []) as LspTextEdit[];
  const reviewed = edits.some((e) => e.annotationId && notes[e.annotationId]?.needsConfirmation);
  if (!change || !uri || !reviewed || !s?.preview) {
    const result = await fallback(params);
    if (uri) clear(uri);
    return result;
  }
  const doc = documentOf(uri);
  if (!doc || (change.textDocument.version !== null && change.textDocument.version !== doc.version)) {
    clear(uri);
    return { applied: false, failureReason: 'the document changed before the review' };
  }
  const labels: Record<string, string> = {};
  for (const [id, note] of Object.entries(notes)) labels[id] = note.label;
  return new Promise((resolve) => {
    const review: Review = { uri, hunks: reviewHunks(doc, edits, labels), applying: false, done: false, answer: resolve };
    s.review = review;
    s.place = undefined;
    render(uri);
    reveal(uri, new vscode.Range(review.hunks[0]?.first ?? 0, 0, review.hunks[0]?.first ?? 0, 0));
  });
}

// -- pick ------------------------------------------------------------------------------------------------------

interface Candidate { label: string; range: LspRange; detail?: string }

/** copyAsDecode/pick: a quick pick of the places, the first selected; the focused one is shown in the editor. */
async function pick(params: { uri: string; version: number; candidates: Candidate[] }, token: vscode.CancellationToken): Promise<{ index: number } | null> {
  const candidates = params.candidates ?? [];
  if (!candidates.length) return null;
  const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { index: number }>();
  qp.title = 'Copy-as-Decode: where should the edit go?';
  qp.placeholder = 'The server is not sure of the place: pick one (Escape cancels the edit)';
  qp.ignoreFocusOut = true;
  qp.items = candidates.map((c, index) => ({ label: c.label, description: c.detail, index }));
  qp.activeItems = [qp.items[0]];
  const s = state(params.uri);
  const focus = (index: number) => {
    const c = candidates[index];
    if (!c) return;
    s.candidate = asRange(c.range);
    render(params.uri);
    reveal(params.uri, s.candidate);
  };
  return new Promise((resolve) => {
    let answered = false;
    const done = (value: { index: number } | null) => {
      if (answered) return;
      answered = true;
      s.candidate = undefined;
      render(params.uri);
      resolve(value);
      qp.dispose();
    };
    qp.onDidChangeActive((items) => items[0] && focus(items[0].index));
    qp.onDidAccept(() => done(qp.activeItems[0] ? { index: qp.activeItems[0].index } : null));
    qp.onDidHide(() => done(null));
    token.onCancellationRequested(() => done(null));
    qp.show();
    focus(0);
  });
}

// -- wiring ----------------------------------------------------------------------------------------------------

/** Decorations, CodeLens and the Accept / Reject commands; once, at activation. */
export function register(context: vscode.ExtensionContext): void {
  types = {
    place: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('editor.findRangeHighlightBackground'),
      borderColor: new vscode.ThemeColor('editorInfo.foreground'),
      borderStyle: 'solid',
      borderWidth: '0 0 0 2px',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.infoForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Full,
    }),
    placeLabel: vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 2em' },
    }),
    removed: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      textDecoration: 'line-through',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
    added: vscode.window.createTextEditorDecorationType({
      after: {
        backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
        color: new vscode.ThemeColor('editor.foreground'),
        margin: '0 0 0 2em',
      },
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  };
  context.subscriptions.push(
    ...Object.values(types),
    lensChanged,
    vscode.window.onDidChangeVisibleTextEditors(() => {
      for (const uri of states.keys()) render(uri);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const uri = e.document.uri.toString();
      const s = states.get(uri);
      if (!s || e.contentChanges.length === 0) return;
      if (s.review) {
        if (s.review.applying) return render(uri);
        void vscode.window.showWarningMessage(
          'Copy-as-Decode: the document changed during the review; the changes not yet accepted were dropped.');
        return finish(s.review, 'the document changed during the review');
      }
      // a place or preview of a version the document has left
      states.delete(uri);
      render(uri);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      const s = states.get(doc.uri.toString());
      if (s?.review) finish(s.review, 'the document was closed');
      states.delete(doc.uri.toString());
    }),
    vscode.languages.registerCodeLensProvider([{ scheme: 'file' }, { scheme: 'untitled' }], {
      onDidChangeCodeLenses: lensChanged.event,
      provideCodeLenses: (doc) => lenses(doc),
    }),
    vscode.commands.registerCommand('copyAsDecode.acceptHunk', (uri: string, k: number) => decide(uri, k, true)),
    vscode.commands.registerCommand('copyAsDecode.rejectHunk', (uri: string, k: number) => decide(uri, k, false)),
    vscode.commands.registerCommand('copyAsDecode.acceptAll', (uri?: string) =>
      decide(uri ?? activeReviewUri(), 'all', true)),
    vscode.commands.registerCommand('copyAsDecode.rejectAll', (uri?: string) =>
      decide(uri ?? activeReviewUri(), 'all', false)),
  );
}

function activeReviewUri(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri.toString();
  if (uri && states.get(uri)?.review) return uri;
  return [...states.entries()].find(([, s]) => s.review)?.[0];
}

/** A hunk's Accept / Reject go above its first old line, or above the line its new lines follow. */
function lensLine(h: DiffHunk): number {
  return h.last >= h.first ? h.first : Math.max(0, h.first - 1);
}

function lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
  const uri = doc.uri.toString();
  const s = states.get(uri);
  const at = (line: number) => new vscode.Range(Math.max(0, Math.min(line, doc.lineCount - 1)), 0,
    Math.max(0, Math.min(line, doc.lineCount - 1)), 0);
  if (s?.review) {
    const spans = reviewSpans(s.review);
    const pending = spans.filter((h) => h.state === 'pending');
    const out: vscode.CodeLens[] = [];
    if (pending.length) {
      const top = at(Math.min(...pending.map(lensLine)));
      out.push(
        new vscode.CodeLens(top, { title: `$(check-all) Accept all (${pending.length})`, command: 'copyAsDecode.acceptAll', arguments: [uri] }),
        new vscode.CodeLens(top, { title: '$(close-all) Reject all', command: 'copyAsDecode.rejectAll', arguments: [uri] }),
      );
    }
    spans.forEach((h, k) => {
      if (h.state !== 'pending') return;
      const line = at(lensLine(h));
      const tip = h.label ? `Copy-as-Decode: ${h.label}` : undefined;
      out.push(
        new vscode.CodeLens(line, { title: '$(check) Accept', tooltip: tip, command: 'copyAsDecode.acceptHunk', arguments: [uri, k] }),
        new vscode.CodeLens(line, { title: '$(close) Reject', tooltip: tip, command: 'copyAsDecode.rejectHunk', arguments: [uri, k] }),
      );
    });
    return out;
  }
  if (s?.preview || s?.place) {
    const line = s.preview ? s.preview.range.start.line : s.place!.ranges[0]?.start.line ?? 0;
    const what = s.preview?.done ? ': finishing' : s.preview ? ': writing' : '';
    const title = `$(sync~spin) Copy-as-Decode: ${s.place?.label ?? 'editing'}${what}\u2026 $(close) Cancel`;
    return [new vscode.CodeLens(at(line), { title, command: 'copyAsDecode.cancelEdits' })];
  }
  return [];
}

/** The server's notifications and requests on client `c` (on every start, after the client's own handlers,
 * which the applyEdit handler replaces and falls back to). */
export function attach(c: LanguageClient): void {
  c.onNotification('copyAsDecode/place', (p: { uri: string; version: number; ranges: LspRange[]; label?: string; symbols?: string[] }) => {
    const doc = documentOf(p.uri);
    if (!doc || doc.version !== p.version) return;
    const s = state(p.uri);
    const label = p.label || (p.symbols?.length ? `editing ${p.symbols.join(', ')}` : 'editing here');
    s.place = { version: p.version, ranges: (p.ranges ?? []).map(asRange), label };
    s.preview = undefined;
    render(p.uri);
    if (s.place.ranges[0]) reveal(p.uri, s.place.ranges[0]);
  });
  c.onNotification('copyAsDecode/preview', (p: { uri: string; version: number; range: LspRange; text: string | null; done: boolean }) => {
    const doc = documentOf(p.uri);
    const s = states.get(p.uri) ?? (p.text === null ? undefined : state(p.uri));
    if (!s || s.review) return;
    if (!doc || doc.version !== p.version || p.text === null) {
      s.preview = undefined;
      if (p.text === null) s.place = undefined;
      return render(p.uri);
    }
    s.preview = { version: p.version, range: asRange(p.range), text: p.text, done: !!p.done };
    render(p.uri);
  });
  c.onRequest('copyAsDecode/pick', (p: { uri: string; version: number; candidates: Candidate[] }, token: vscode.CancellationToken) => pick(p, token));
  const fallback = (params: ApplyWorkspaceEditParams) =>
    (c as unknown as { handleApplyWorkspaceEdit(p: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> })
      .handleApplyWorkspaceEdit(params);
  c.onRequest(ApplyWorkspaceEditRequest.type, (params) => applyEdit(params, fallback));
}
