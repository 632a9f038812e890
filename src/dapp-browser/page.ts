/**
 * The emulator's host page: a toolbar, the dapp in a frame, the development wallet's accounts and the approval
 * prompt. Static markup; `host-page.ts` (bundled as `/host.js`) does the rest. Stable `data-testid`s: `dapp-frame`,
 * `prompt`, `prompt-title`, `prompt-details`, `approve`, `reject`, `revoke`, `wallet`, `account-<TICKER>`,
 * `lky-balance`, `site`.
 */

export interface HostPageConfig {
  dappUrl: string;
  /** Per-process secret the page sends with its calls to the emulator server. */
  token: string;
  wallet: { name: string; version: string };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside `<script type="application/json">` (no `</script>`, no HTML comment openers). */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

export function hostPageHtml(cfg: HostPageConfig): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Coin Wallet dapp browser (emulator) — ${escapeHtml(cfg.dappUrl)}</title>
<link rel="stylesheet" href="/host.css">
</head>
<body>
<header>
  <strong>Coin Wallet</strong> <span class="tag">dapp browser emulator</span>
  <span class="url" data-testid="dapp-url">${escapeHtml(cfg.dappUrl)}</span>
  <span class="site" id="site" data-testid="site">not connected</span>
  <button type="button" data-testid="revoke" id="revoke" disabled>Disconnect site</button>
</header>
<main>
  <iframe id="dapp" data-testid="dapp-frame" title="dapp"></iframe>
  <aside data-testid="wallet" id="wallet">
    <h2>Development wallet</h2>
    <p class="warn">Deterministic development keys: never send real funds to these addresses.</p>
    <ul id="accounts"></ul>
  </aside>
</main>
<div id="prompt" class="overlay" data-testid="prompt" hidden>
  <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="prompt-title">
    <h2 id="prompt-title" data-testid="prompt-title"></h2>
    <p class="origin" id="prompt-origin"></p>
    <dl id="prompt-details" data-testid="prompt-details"></dl>
    <div class="buttons">
      <button type="button" id="reject" data-testid="reject">Reject</button>
      <button type="button" id="approve" data-testid="approve" class="primary">Approve</button>
    </div>
  </div>
</div>
<script type="application/json" id="cw-config">${scriptJson(cfg)}</script>
<script src="/host.js"></script>
</body>
</html>
`;
}

export const HOST_CSS = `
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; color: #1b1f24; }
body { display: flex; flex-direction: column; }
header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #0d1117; color: #e6edf3; }
header .tag { font-size: 12px; padding: 2px 6px; border-radius: 4px; background: #9e6a03; color: #fff; }
header .url { flex: 1; font-family: ui-monospace, monospace; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header .site { font-size: 12px; }
main { flex: 1; display: flex; min-height: 0; }
iframe { flex: 1; border: 0; background: #fff; }
aside { width: 320px; padding: 12px; overflow: auto; border-left: 1px solid #d0d7de; background: #f6f8fa; }
aside h2 { font-size: 15px; margin: 0 0 6px; }
aside .warn { font-size: 12px; color: #9a6700; }
aside ul { list-style: none; padding: 0; margin: 0; }
aside li { margin: 0 0 8px; word-break: break-all; }
aside li b { display: inline-block; min-width: 48px; }
.overlay { position: fixed; inset: 0; display: flex; align-items: center; justify-content: center; background: rgba(0,0,0,.45); }
.overlay[hidden] { display: none; }
.dialog { width: min(560px, 92vw); max-height: 86vh; overflow: auto; padding: 16px 20px; border-radius: 10px; background: #fff; }
.dialog h2 { margin: 0 0 4px; font-size: 18px; }
.dialog .origin { margin: 0 0 12px; color: #57606a; font-family: ui-monospace, monospace; }
.dialog dt { font-weight: 600; margin-top: 8px; }
.dialog dd { margin: 2px 0 0; white-space: pre-wrap; word-break: break-all; font-family: ui-monospace, monospace; font-size: 12px; }
.buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 16px; }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #d0d7de; background: #f6f8fa; cursor: pointer; }
button.primary { background: #1f883d; border-color: #1f883d; color: #fff; }
button:disabled { opacity: .5; cursor: default; }
`;
