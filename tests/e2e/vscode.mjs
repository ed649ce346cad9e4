// Drives real VS Code (code-server) in Chromium through the Copy-as-Decode extension:
// open a workspace file, run "Edit with Copy-as-Decode" from the command palette, type the instruction,
// wait for the edit, save, take a screenshot. The caller compares the file on disk.
//
//   node tests/e2e/vscode.mjs   (configured by environment variables)
//     CAD_CODE_SERVER   code-server launcher (.tools/code-server.sh)
//     CAD_VSIX          the packaged extension
//     CAD_WORKSPACE     folder to open; CAD_FILE: file name in it to edit
//     CAD_INSTRUCTION   text typed into the input box
//     CAD_MODE          "palette" (default: F1, "Edit with Copy-as-Decode"), "refactor" (Ctrl+Shift+R menu) or
//                       "apply" (the text of CAD_BLOCK onto the clipboard, then F1, "Apply Code Block from
//                       Clipboard"; no instruction)
//     CAD_BLOCK         "apply": file holding the code block (an empty file: the command must send nothing, and
//                       the report's notice is the message it showed)
//     CAD_SELECT_LINES  optional N: Shift+Down N times after placing the cursor (a selection of N lines)
//     CAD_CURSOR        optional JSON LSP position {line, character} (0-based; an ASCII line) where the cursor
//                       is put, by keys, before the command (default: the first line's start)
//     CAD_UNTICK        JSON array of change labels: the edit must open the Refactor Preview, where these
//                       are unticked before Apply; after the save, Ctrl+Z and a second save (report: saved,
//                       undone: the file's text after each)
//     CAD_PREVIEW       optional JSON {sync, pick?, decide?}: the edit shows its place, a pick when `pick` (the
//                       candidate to choose: ArrowDown that many times, then Enter), and its inline diff; `sync`
//                       is the folder where the scripted server (standin_server.py) waits for `placed` and
//                       `streaming` (written after each screenshot); `decide`: the CodeLens clicked in the
//                       review in place, in order, each ["accept"|"reject", k] (k: the k-th pending hunk from
//                       the top) or ["accept"|"reject", "all"] (report: lenses, the CodeLens titles seen)
//     CAD_CMD           JSON array: the server command line (copyAsDecode.serverCommand)
//     CAD_SETTINGS      JSON object: copyAsDecode.* settings (model, selector, ...)
//     CAD_PROFILE       empty folder for code-server's home, user data and extensions
//     CAD_ARTIFACTS     folder for screenshots and logs (default /tmp/copy-as-decode-artifacts)
//     CAD_REPORT        JSON report written here (also: outcome, statuses: the status-bar texts seen,
//                       cursor: the status bar's "Ln, Col" before the command, lastEdit: the extension's
//                       "last edit: ..." line about the server's answer, from its output channel's log file,
//                       prepare: its "prepare: ..." line, the server's answer to the prepare sent as the
//                       instruction box opened)
//     CAD_TIMEOUT_MS    wait limit for the server and for the edit (default 240000)
//     CAD_CHROMIUM      browser binary (default /usr/bin/chromium)
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';

const env = process.env;
const TIMEOUT = Number(env.CAD_TIMEOUT_MS || 240000);
const artifacts = env.CAD_ARTIFACTS || env.COPY_AS_DECODE_ARTIFACTS || '/tmp/copy-as-decode-artifacts';
const profile = env.CAD_PROFILE;
const fileName = env.CAD_FILE;
const tag = (env.CAD_TAG || fileName).replace(/[^A-Za-z0-9_.-]+/g, '_');
const report = { ok: false, log: [], screenshots: [] };

function log(msg) {
  const line = `[vscode.mjs ${new Date().toISOString().slice(11, 23)}] ${msg}`;
  report.log.push(line);
  process.stderr.write(line + '\n');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function codeServerEnv() {
  const home = path.join(profile, 'home');
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
}

function prepareProfile() {
  const userData = path.join(profile, 'user-data');
  const extensions = path.join(profile, 'extensions');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(extensions, { recursive: true });
  fs.mkdirSync(path.join(profile, 'home'), { recursive: true });
  const settings = {
    'files.hotExit': 'off',
    'files.autoSave': 'off',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'security.workspace.trust.enabled': false,
    'extensions.ignoreRecommendations': true,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'files.insertFinalNewline': false,
    'files.trimTrailingWhitespace': false,
    'files.trimFinalNewlines': false,
    'editor.formatOnSave': false,
    'copyAsDecode.serverCommand': JSON.parse(env.CAD_CMD),
  };
  for (const [k, v] of Object.entries(JSON.parse(env.CAD_SETTINGS || '{}'))) settings[`copyAsDecode.${k}`] = v;
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  log(`installing ${env.CAD_VSIX}`);
  const out = execFileSync(env.CAD_CODE_SERVER, [
    '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', env.CAD_VSIX,
  ], { env: codeServerEnv(), encoding: 'utf8', timeout: 120000 });
  log(out.trim().split('\n').slice(-1)[0] || 'installed');
  return { userData, extensions };
}

async function startCodeServer(dirs) {
  const port = await freePort();
  const logFile = fs.openSync(path.join(artifacts, `code-server-${tag}.log`), 'w');
  const proc = spawn(env.CAD_CODE_SERVER, [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, env.CAD_WORKSPACE,
  ], { env: codeServerEnv(), stdio: ['ignore', logFile, logFile], detached: true });
  log(`code-server pid ${proc.pid} on port ${port}`);
  await waitHttp(`http://127.0.0.1:${port}/healthz`, 60000);
  return { proc, port };
}

function stopCodeServer(cs) {
  if (!cs) return;
  try {
    process.kill(-cs.proc.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function shot(page, name) {
  const file = path.join(artifacts, `vscode-${tag}-${name}.png`);
  try {
    await page.screenshot({ path: file });
    report.screenshots.push(file);
    log(`screenshot ${file}`);
  } catch (e) {
    log(`screenshot failed: ${e}`);
  }
}

/** F1, type the title, wait for the matching row to be focused, Enter. */
async function runPaletteCommand(page, title) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15000 });
    await page.keyboard.type(title, { delay: 15 });
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
    try {
      await row.waitFor({ state: 'visible', timeout: 15000 });
      await page.keyboard.press('Enter');
      return;
    } catch (e) {
      log(`palette attempt ${attempt}: no row for "${title}" (${e.message.split('\n')[0]})`);
      await page.keyboard.press('Escape');
      await sleep(1000);
    }
  }
  throw new Error(`command "${title}" not found in the palette`);
}

/** The browser's clipboard, where VS Code's clipboard API reads (the context may read and write it). */
async function setClipboard(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const back = await page.evaluate(() => navigator.clipboard.readText());
  if (back !== text) throw new Error(`the clipboard holds ${JSON.stringify(back.slice(0, 80))}, not the block`);
  log(`clipboard: ${text.length} characters`);
}

/** The cursor to `cursor` ({line, character}, 0-based) by keys, as a person would move it; the status bar's
 * "Ln, Col" item says where it went. */
async function placeCursor(page, cursor) {
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < cursor.line; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < cursor.character; i++) await page.keyboard.press('ArrowRight');
  await sleep(300);
  return ((await page.locator('[id="status.editor.selection"]').first().innerText().catch(() => '')) || '')
    .replace(/\s+/g, ' ').trim();
}

/** Refactor menu (Ctrl+Shift+R) in the focused editor, with the cursor at `cursor`, pick the server's action
 * by its title. */
async function runRefactorAction(page, editor, title, cursor) {
  for (let attempt = 1; attempt <= 4; attempt++) {
    await editor.click();
    await placeCursor(page, cursor);
    await page.keyboard.press('Control+Shift+R');
    const row = page.locator('.action-widget .monaco-list-row', { hasText: title });
    try {
      await row.first().waitFor({ state: 'visible', timeout: 15000 });
      await row.first().click();
      return;
    } catch (e) {
      log(`refactor menu attempt ${attempt}: no "${title}" (${e.message.split('\n')[0]})`);
      await shot(page, `refactor-attempt-${attempt}`);
      await page.keyboard.press('Escape');
      await sleep(1500);
    }
  }
  throw new Error(`refactor action "${title}" not offered`);
}

/** The last line of the extension's output channel that holds `prefix` ("last edit: ", "prepare: "), from it
 * on; VS Code keeps the channel in a log file (N-Copy-as-Decode.log in an output_logging_ folder of the user
 * data's logs); polled, as the extension host writes it a moment after the status bar shows the outcome. */
async function lastLogLine(prefix, ms) {
  const find = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return find(full);
    return /-Copy-as-Decode\.log$/.test(e.name) ? [full] : [];
  });
  const end = Date.now() + ms;
  for (;;) {
    const lines = find(profile).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
      .filter((l) => l.includes(prefix));
    if (lines.length) return lines[lines.length - 1].slice(lines[lines.length - 1].indexOf(prefix));
    if (Date.now() > end) return undefined;
    await sleep(250);
  }
}

// The extension's status-bar item (its id ends in copyAsDecode.status).
async function statusText(page) {
  const items = page.locator('.statusbar-item[id$="copyAsDecode.status"]');
  if ((await items.count()) === 0) return '';
  return ((await items.first().innerText()) || '').replace(/\s+/g, ' ').trim();
}

async function errorToasts(page) {
  const toasts = page.locator('.notifications-toasts .notification-toast', { hasText: 'Copy-as-Decode' });
  const texts = [];
  for (let i = 0; i < (await toasts.count()); i++) texts.push((await toasts.nth(i).innerText()).replace(/\s+/g, ' '));
  return texts.filter((t) => /fail|error|not running|did not start|stopped|timed out|not applied|document changed/i.test(t));
}

/** Keep every text the status-bar item shows in report.statuses (with a spinning icon: "(spin) " first)
 * until the returned function is called. */
function watchStatus(page) {
  report.statuses = [];
  let watching = true;
  const loop = (async () => {
    while (watching) {
      const item = page.locator('.statusbar-item[id$="copyAsDecode.status"]').first();
      const seen = await item.evaluate((e) => {
        const spin = e.querySelector('.codicon-sync.codicon-modifier-spin') ? '(spin) ' : '';
        return spin + e.innerText.replace(/\s+/g, ' ').trim();
      }).catch(() => '');
      if (seen && report.statuses[report.statuses.length - 1] !== seen) report.statuses.push(seen);
      await sleep(100);
    }
  })();
  return async () => {
    watching = false;
    await loop;
  };
}

/** The status bar until it shows an outcome. */
async function waitForOutcome(page) {
  const doneBy = Date.now() + TIMEOUT;
  let shotProgress = false;
  let st = '';
  while (Date.now() < doneBy) {
    st = await statusText(page);
    if (/tokens generated/.test(st) && !shotProgress) {
      shotProgress = true;
      // The server's progress, shown as a notification with a Cancel button (if the edit lasts).
      const toast = page.locator('.notification-toast', { hasText: 'Copy-as-Decode' });
      report.progressShown = await toast.first().waitFor({ state: 'visible', timeout: 3000 })
        .then(() => true, () => false);
      await shot(page, '2-running');
      continue;
    }
    const m = /^Copy-as-Decode: (\w+)$/.exec(st);
    if (m && !['editing', 'starting', 'stopped'].includes(m[1])) return m[1];
    if (/stopped/.test(st)) throw new Error(`the server stopped (status "${st}")`);
    await sleep(150);
  }
  throw new Error(`the edit did not finish in time (status "${st}")`);
}

/** The CodeLens titles shown in the editor, top to bottom. */
async function codeLenses(page) {
  return page.locator('.editor-instance .codelens-decoration a').evaluateAll((els) => els
    .map((e) => ({ y: e.getBoundingClientRect().y, x: e.getBoundingClientRect().x, t: e.innerText.replace(/\s+/g, ' ').trim() }))
    .sort((a, b) => a.y - b.y || a.x - b.x).map((e) => e.t));
}

async function waitForLens(page, re, ms = TIMEOUT) {
  const end = Date.now() + ms;
  for (;;) {
    const lenses = await codeLenses(page);
    if (lenses.some((t) => re.test(t))) return lenses;
    if (Date.now() > end) throw new Error(`no CodeLens ${re} (seen: ${JSON.stringify(lenses)})`);
    await sleep(150);
  }
}

/** The text the editor shows on each visible line, decorations' injected text included (::before/::after
 * content of its spans), with "[-]" before a line struck through. */
async function editorLines(page) {
  return page.locator('.editor-instance .view-lines .view-line').evaluateAll((els) => els
    .map((line) => {
      const parts = [];
      let struck = false;
      const css = (c) => (c && c !== 'none' && c !== 'normal' ? c.replace(/^"|"$/g, '').replace(/\\"/g, '"') : '');
      for (const span of line.querySelectorAll('span span')) {
        const before = getComputedStyle(span, '::before').content;
        const after = getComputedStyle(span, '::after').content;
        parts.push(css(before));
        parts.push(span.textContent);
        parts.push(css(after));
        if (/line-through/.test(getComputedStyle(span).textDecorationLine)) struck = true;
      }
      return { top: parseFloat(line.style.top || '0'), text: (struck ? '[-] ' : '') + parts.join('').replace(/\u00a0/g, ' ') };
    })
    .sort((a, b) => a.top - b.top).map((l) => l.text));
}

/** While the edit decodes: the pick, the place, the streamed diff, then the review in place by CodeLens. */
async function previewFlow(page, spec) {
  const touch = (name) => fs.writeFileSync(path.join(spec.sync, name), '');
  if (spec.pick !== undefined) {
    const pick = page.locator('.quick-input-widget', { hasText: 'where should the edit go' });
    await pick.waitFor({ state: 'visible', timeout: TIMEOUT });
    await sleep(500);
    report.pickItems = await pick.locator('.monaco-list-row').evaluateAll((els) => els.map((e) => [
      e.querySelector('.label-name')?.textContent ?? '', e.querySelector('.label-description')?.textContent ?? '']));
    for (let i = 0; i < spec.pick; i++) await page.keyboard.press('ArrowDown');
    await sleep(800); // the focused candidate is highlighted in the editor
    report.pickLines = await editorLines(page);
    await shot(page, 'pick');
    await page.keyboard.press('Enter');
    log(`picked candidate ${spec.pick} of ${JSON.stringify(report.pickItems)}`);
  }
  report.lenses = [];
  report.lenses.push(await waitForLens(page, /^Copy-as-Decode: editing [^:]*… Cancel$/));
  await sleep(800);
  report.placeLines = await editorLines(page);
  await shot(page, 'place');
  touch('placed');
  report.lenses.push(await waitForLens(page, /^Copy-as-Decode: .*: writing… Cancel$/));
  await sleep(800);
  report.streamLines = await editorLines(page);
  await shot(page, 'streaming');
  touch('streaming');
  if (!spec.decide) return;
  report.lenses.push(await waitForLens(page, /Accept all/));
  await sleep(800);
  report.reviewLines = await editorLines(page);
  await shot(page, 'review');
  let pending = report.lenses[report.lenses.length - 1].filter((t) => t === 'Accept').length;
  for (const [verb, which] of spec.decide) {
    const before = await codeLenses(page);
    const title = which === 'all' ? (verb === 'accept' ? /^Accept all/ : /^Reject all$/) : new RegExp(`^${verb === 'accept' ? 'Accept' : 'Reject'}$`);
    const links = page.locator('.editor-instance .codelens-decoration a');
    const boxes = await links.evaluateAll((els) => els.map((e, i) => ({ i, y: e.getBoundingClientRect().y, x: e.getBoundingClientRect().x, t: e.innerText.replace(/\s+/g, ' ').trim() })));
    const matching = boxes.filter((b) => title.test(b.t)).sort((a, b) => a.y - b.y || a.x - b.x);
    const target = matching[which === 'all' ? 0 : which];
    if (!target) throw new Error(`no CodeLens ${title} #${which} in ${JSON.stringify(before)}`);
    await links.nth(target.i).click();
    log(`clicked ${target.t} (${verb} ${which})`);
    // until the CodeLens show the hunks still to decide (and only those), then a moment for them to settle
    pending = which === 'all' ? 0 : pending - 1;
    const settled = (lenses) => lenses.filter((t) => t === 'Accept').length === pending &&
      lenses.filter((t) => t === 'Reject').length === pending && (pending === 0 ? lenses.length === 0 :
        lenses.includes(`Accept all (${pending})`));
    const end = Date.now() + 15000;
    while (!settled(await codeLenses(page)) && Date.now() < end) await sleep(150);
    await sleep(500);
    report.lenses.push(await codeLenses(page));
    if (report.lenses.length === 4) await shot(page, 'decided');
  }
}

/** The Refactor Preview that a reviewed edit opens: its changes need confirmation, so they start unticked.
 * Tick the file (all of them), untick the changes labelled `untick`, Apply. report.preview: each row's
 * hover ("line 5: replace 1 line - <the instruction>"), or its text. */
async function reviewInPreview(page, untick) {
  const pane = page.locator('.bulk-edit-panel');
  await pane.waitFor({ state: 'visible', timeout: TIMEOUT });
  const rows = pane.locator('.monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 15000 });
  await sleep(500);
  const described = () => rows.evaluateAll((els) => els.map((e) => {
    const ticked = e.querySelector('.edit-checkbox')?.getAttribute('aria-checked');
    const hover = e.querySelector('[title]')?.getAttribute('title');
    return `[${ticked === 'true' ? 'x' : ' '}] ${hover ?? e.innerText.replace(/\s+/g, ' ').trim()}`;
  }));
  report.preview = await described();
  log(`preview: ${JSON.stringify(report.preview)}`);
  await shot(page, '2-preview');
  await rows.first().locator('.edit-checkbox').click(); // the file: every change
  for (const label of untick) {
    await rows.filter({ has: page.locator(`[title^="${label} - "]`) }).locator('.edit-checkbox').click();
  }
  report.ticked = await described();
  log(`ticked: ${JSON.stringify(report.ticked)}`);
  await shot(page, '2-ticked');
  await pane.locator('.monaco-button', { hasText: 'Apply' }).first().click();
  log('applied the preview');
}

/** Focus the editor, Ctrl+S, wait until the tab is clean. */
async function save(page, editor, dirty) {
  await editor.click();
  await page.keyboard.press('Control+S');
  if (dirty) {
    await page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: 20000 });
  }
  await sleep(500);
  log('saved');
}

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const dirs = prepareProfile();
  let cs;
  let browser;
  let page;
  try {
    cs = await startCodeServer(dirs);
    browser = await chromium.launch({
      executablePath: env.CAD_CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${cs.port}` });
    page = await context.newPage();
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    const folder = encodeURIComponent(env.CAD_WORKSPACE);
    await page.goto(`http://127.0.0.1:${cs.port}/?folder=${folder}`, { timeout: 60000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90000 });
    log('workbench loaded');

    // Open the file through Quick Open, as a person would.
    for (let attempt = 1; ; attempt++) {
      await page.locator('.monaco-workbench').click({ position: { x: 640, y: 400 } }).catch(() => {});
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: 15000 });
      await page.keyboard.type(fileName, { delay: 15 });
      const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: fileName });
      try {
        await row.waitFor({ state: 'visible', timeout: 20000 });
        await page.keyboard.press('Enter');
        await page.locator('.tab.active', { hasText: fileName }).waitFor({ state: 'visible', timeout: 20000 });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        log(`quick open attempt ${attempt} failed: ${e.message.split('\n')[0]}`);
        await page.keyboard.press('Escape');
        await sleep(2000);
      }
    }
    const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await editor.waitFor({ state: 'visible', timeout: 20000 });
    log(`opened ${fileName}`);

    // The extension starts the server; its status-bar item says when it is ready.
    const readyBy = Date.now() + TIMEOUT;
    let st = '';
    while (Date.now() < readyBy) {
      st = await statusText(page);
      if (st === 'Copy-as-Decode') break;
      if (/stopped/.test(st)) throw new Error(`the server stopped: ${st}`);
      await sleep(250);
    }
    if (st !== 'Copy-as-Decode') throw new Error(`the server did not become ready (status "${st}")`);
    log('server ready');
    log(`status bar: ${JSON.stringify(await page.locator('.statusbar-item').evaluateAll((els) => els.map((e) => `${e.id}=${e.innerText}`)))}`);

    const cursor = env.CAD_CURSOR ? JSON.parse(env.CAD_CURSOR) : { line: 0, character: 0 };
    await editor.click();
    report.cursor = await placeCursor(page, cursor);
    for (let i = 0; i < Number(env.CAD_SELECT_LINES || 0); i++) await page.keyboard.press('Shift+ArrowDown');
    if (env.CAD_SELECT_LINES) {
      await sleep(300);
      report.cursor = ((await page.locator('[id="status.editor.selection"]').first().innerText().catch(() => ''))
        || '').replace(/\s+/g, ' ').trim();
    }
    log(`cursor: ${report.cursor}`);
    if (env.CAD_MODE === 'apply') {
      const block = fs.readFileSync(env.CAD_BLOCK, 'utf8');
      await setClipboard(page, block);
      await runPaletteCommand(page, 'Apply Code Block from Clipboard');
      log('apply command run');
      if (!block.trim()) {
        // Nothing may be sent: a message says why, the document stays as it was.
        const notice = page.locator('.notifications-toasts .notification-toast', { hasText: 'Copy-as-Decode' });
        await notice.first().waitFor({ state: 'visible', timeout: 15000 });
        report.notice = (await notice.first().innerText()).replace(/\s+/g, ' ').trim();
        await sleep(1500);
        report.statuses = [await statusText(page)];
        report.changed = /\bdirty\b/.test((await page.locator('.tab.active').first().getAttribute('class')) || '');
        await shot(page, '2-empty-clipboard');
        report.ok = true;
        report.msg = 'nothing sent';
        return;
      }
    } else if (env.CAD_MODE === 'refactor') {
      await runRefactorAction(page, editor, 'Edit with Copy-as-Decode', cursor);
    } else {
      await runPaletteCommand(page, 'Edit with Copy-as-Decode');
    }
    if (env.CAD_MODE !== 'apply') {
      // The extension's input box (not the palette that just closed).
      await page.locator('.quick-input-widget', { hasText: 'What should change?' })
        .waitFor({ state: 'visible', timeout: 15000 });
      await page.waitForFunction(() => document.activeElement?.closest('.quick-input-widget') != null,
        null, { timeout: 15000 });
      await page.keyboard.type(env.CAD_INSTRUCTION, { delay: 10 });
      await shot(page, '1-instruction');
      await page.keyboard.press('Enter');
      log('instruction sent');
    }

    const stopWatching = watchStatus(page);
    const untick = env.CAD_UNTICK ? JSON.parse(env.CAD_UNTICK) : undefined;
    if (untick) await reviewInPreview(page, untick);
    if (env.CAD_PREVIEW) await previewFlow(page, JSON.parse(env.CAD_PREVIEW));

    // Wait for the edit: the status bar shows it running (the model's tokens), then the outcome
    // ("applied", "unchanged", "error", ...) for a few seconds.
    const activeTab = page.locator('.tab.active', { hasText: fileName });
    const outcome = await waitForOutcome(page);
    await stopWatching();
    report.outcome = outcome;
    const dirty = /\bdirty\b/.test((await activeTab.getAttribute('class')) || '');
    await sleep(1000); // a failure message from the server may follow the answer
    const errors = await errorToasts(page);
    log(`edit finished: ${outcome} (dirty: ${dirty})`);
    if (outcome !== 'applied' && outcome !== 'unchanged') {
      throw new Error(`the edit ended "${outcome}" ${errors.join(' | ')}`);
    }
    if (errors.length) throw new Error(`error shown: ${errors.join(' | ')}`);
    report.changed = dirty;
    report.lastEdit = await lastLogLine('last edit: ', 10000);
    log(`extension: ${report.lastEdit}`);
    if (env.CAD_MODE !== 'apply') {  // sent as the instruction box opened
      report.prepare = await lastLogLine('prepare: ', 10000);
      log(`extension: ${report.prepare}`);
    }
    await shot(page, '3-edited');

    await save(page, editor, dirty);
    await shot(page, '4-saved');
    if (untick) {
      report.saved = fs.readFileSync(path.join(env.CAD_WORKSPACE, fileName), 'utf8');
      await editor.click();
      await page.keyboard.press('Control+Z');
      await save(page, editor, true);
      report.undone = fs.readFileSync(path.join(env.CAD_WORKSPACE, fileName), 'utf8');
      await shot(page, '5-undone');
    }
    report.ok = true;
    report.msg = 'edited and saved';
  } catch (e) {
    report.msg = String(e && e.stack ? e.stack : e);
    log(`FAILED: ${report.msg}`);
    if (page) await shot(page, 'failure');
  } finally {
    if (page) {
      const toasts = await page.locator('.notifications-toasts .notification-toast')
        .evaluateAll((els) => els.map((e) => e.innerText.replace(/\s+/g, ' ')), null).catch(() => []);
      for (const t of toasts) log(`notification: ${t}`);
    }
    if (browser) await browser.close().catch(() => {});
    stopCodeServer(cs);
    fs.writeFileSync(env.CAD_REPORT, JSON.stringify(report, null, 2));
  }
  process.exit(report.ok ? 0 : 1);
}

// (exit here too: a run that ends early returns from main before its own exit)
main().finally(() => process.exit(report.ok ? 0 : 1));
