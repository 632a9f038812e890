/// <reference lib="dom" />
/**
 * The emulator host page's script (bundled as `/host.js`): speaks the provider protocol with the dapp frame
 * (docs/provider.md §1–§3), relays requests to the emulator server, shows its approval prompts and sends the
 * user's decision back. It holds no keys and decides nothing: the server does (`host-core.ts`).
 *
 * The dapp is identified by `event.origin` of its messages; only the frame's own window is heard.
 */
import type { EventOut, HostAnswer, PromptView, Settled } from './host-core.ts';
import type { HostPageConfig } from './page.ts';
import type { RequestMessage } from '../provider/protocol.ts';
import { ERROR_CODES, PROTOCOL_VERSION, parseDappMessage, rpcError } from '../provider/protocol.ts';
import { formatUnits } from './units.ts';

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`host page: #${id} is missing`);
  return el as T;
};

const cfg = JSON.parse(byId('cw-config').textContent ?? '{}') as HostPageConfig;
const frame = byId<HTMLIFrameElement>('dapp');
const promptEl = byId('prompt');
const revokeBtn = byId<HTMLButtonElement>('revoke');

async function api<T>(path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-cw-emulator-token': cfg.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** The origin that last said hello from the frame (the site the toolbar shows). */
let siteOrigin: string | null = null;

function post(win: Window, origin: string, msg: unknown): void {
  win.postMessage(msg, origin); // delivered only if the frame still shows that origin
}

function sendEvents(win: Window, origin: string, events: readonly EventOut[] | undefined): void {
  for (const e of events ?? [])
    post(win, origin, { cw: PROTOCOL_VERSION, type: 'event', event: e.event, data: e.data });
}

function respond(win: Window, origin: string, id: string, s: Settled): void {
  post(
    win,
    origin,
    'error' in s
      ? { cw: PROTOCOL_VERSION, type: 'response', id, error: s.error }
      : { cw: PROTOCOL_VERSION, type: 'response', id, result: s.result },
  );
  if (!('error' in s)) sendEvents(win, origin, s.events);
}

const failed = (e: unknown): Settled => ({
  error: rpcError(ERROR_CODES.internal, 'INTERNAL_ERROR', `the emulator failed: ${String(e)}`),
});

async function handleRequest(win: Window, origin: string, msg: RequestMessage): Promise<void> {
  let answer: HostAnswer;
  try {
    answer = await api<HostAnswer>('/host/request', { origin, method: msg.method, params: msg.params });
  } catch (e) {
    answer = failed(e);
  }
  if ('prompt' in answer) {
    const approve = await ask(answer.prompt, msg.id);
    try {
      answer = await api<Settled>('/host/decide', { promptId: answer.prompt.id, approve });
    } catch (e) {
      answer = failed(e);
    }
  }
  respond(win, origin, msg.id, answer);
  void refreshWallet();
}

window.addEventListener('message', (ev: MessageEvent) => {
  const win = frame.contentWindow;
  if (!win || ev.source !== win || ev.origin === 'null') return;
  const msg = parseDappMessage(ev.data);
  if (!msg) return;
  if (msg.type === 'hello') {
    siteOrigin = ev.origin;
    post(win, ev.origin, { cw: PROTOCOL_VERSION, type: 'welcome', nonce: msg.nonce, wallet: cfg.wallet });
    void refreshWallet();
    return;
  }
  void handleRequest(win, ev.origin, msg);
});

// ---- approval prompts (one at a time, in order) ----------------------------------------------------------------

const queue: { view: PromptView; requestId: string; resolve(approve: boolean): void }[] = [];

function ask(view: PromptView, requestId: string): Promise<boolean> {
  return new Promise((resolve) => {
    queue.push({ view, requestId, resolve });
    if (queue.length === 1) showPrompt();
  });
}

function showPrompt(): void {
  const cur = queue[0];
  if (!cur) {
    promptEl.hidden = true;
    return;
  }
  promptEl.dataset.method = cur.view.method;
  promptEl.dataset.requestId = cur.requestId;
  byId('prompt-title').textContent = cur.view.title;
  byId('prompt-origin').textContent = cur.view.origin;
  const dl = byId('prompt-details');
  dl.replaceChildren(
    ...cur.view.details.flatMap((d) => {
      const dt = document.createElement('dt');
      dt.textContent = d.label;
      const dd = document.createElement('dd');
      dd.textContent = d.value;
      return [dt, dd];
    }),
  );
  promptEl.hidden = false;
}

function decide(approve: boolean): void {
  const cur = queue.shift();
  if (!cur) return;
  cur.resolve(approve);
  showPrompt();
}

byId('approve').addEventListener('click', () => decide(true));
byId('reject').addEventListener('click', () => decide(false));

// ---- toolbar and wallet panel ----------------------------------------------------------------------------------

interface WalletState {
  accounts: { ticker: string; address: string }[];
  lkyBalance: string | null;
  connected: { origin: string; tickers: string[] }[];
}

async function refreshWallet(): Promise<void> {
  let s: WalletState;
  try {
    s = await api<WalletState>('/host/state');
  } catch {
    return;
  }
  byId('accounts').replaceChildren(
    ...s.accounts.map((a) => {
      const li = document.createElement('li');
      li.dataset.testid = `account-${a.ticker}`;
      const b = document.createElement('b');
      b.textContent = a.ticker;
      li.append(b, ` ${a.address}`);
      if (a.ticker === 'LKY' && s.lkyBalance !== null) {
        const bal = document.createElement('div');
        bal.dataset.testid = 'lky-balance';
        bal.textContent = `balance: ${formatUnits(BigInt(s.lkyBalance), 8)} LKY (${s.lkyBalance} base units)`;
        li.append(bal);
      }
      return li;
    }),
  );
  const site = s.connected.find((c) => c.origin === siteOrigin);
  byId('site').textContent = siteOrigin
    ? `${siteOrigin}: ${site ? `connected (${site.tickers.join(', ')})` : 'not connected'}`
    : 'no provider handshake yet';
  revokeBtn.disabled = !site;
}

revokeBtn.addEventListener('click', () => {
  const origin = siteOrigin;
  const win = frame.contentWindow;
  if (!origin || !win) return;
  void api<{ events: EventOut[] }>('/host/revoke', { origin }).then((r) => {
    sendEvents(win, origin, r.events);
    void refreshWallet();
  });
});

void refreshWallet();
// The listener is in place: now the dapp may load and say hello.
frame.src = cfg.dappUrl;
