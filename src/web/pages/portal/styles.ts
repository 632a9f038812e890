/// <reference lib="dom" />
/**
 * The portal's stylesheet, injected as one `<style>` element (the page's CSP allows inline styles, not foreign
 * sheets). Plain and readable: system fonts, one accent colour, every text/background pair at WCAG AA contrast or
 * better, a visible focus ring on everything operable.
 */
export const PORTAL_CSS = `
:root {
  --fg: #1a1d23; --muted: #4b5563; --bg: #f6f7f9; --card: #ffffff; --line: #d5d9e0;
  --accent: #1d4ed8; --accent-fg: #ffffff; --danger: #b91c1c; --ok: #166534; --warn: #92400e;
  --radius: 8px;
  color-scheme: light;
}
* { box-sizing: border-box; }
body {
  margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg);
}
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: var(--card); padding: 6px 10px; z-index: 10; }
.top {
  display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between;
  padding: 10px 20px; background: #0f172a; color: #f8fafc;
}
.top .brand { font-weight: 600; }
.top .who { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.top code { background: #1e293b; padding: 2px 6px; border-radius: 4px; word-break: break-all; }
.top button { background: transparent; color: #f8fafc; border-color: #94a3b8; }
main { max-width: 980px; margin: 0 auto; padding: 16px 20px 48px; }
h1 { font-size: 1.6rem; margin: 8px 0 4px; }
h2 { font-size: 1.3rem; margin: 0 0 8px; }
h3 { font-size: 1.05rem; margin: 0; }
.lede { color: var(--muted); margin-top: 0; }
nav.sections { display: flex; gap: 16px; margin: 12px 0 20px; }
section.panel {
  background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 20px;
  margin-bottom: 24px;
}
.card { border: 1px solid var(--line); border-radius: var(--radius); padding: 14px 16px; background: var(--card); }
.cards { list-style: none; padding: 0; margin: 12px 0 0; display: grid; gap: 12px; }
.card-head h4 { margin: 0; font-size: 1rem; }
.card-head { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; justify-content: space-between; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 6px 16px; margin: 10px 0; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: 0.85em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.badge {
  display: inline-block; padding: 1px 10px; border-radius: 999px; font-size: 0.82em; font-weight: 600;
  border: 1px solid currentColor;
}
.badge.pending, .badge.submitted { color: #854d0e; background: #fef9c3; }
.badge.approved { color: #14532d; background: #dcfce7; }
.badge.rejected { color: #991b1b; background: #fee2e2; }
.badge.revoked, .badge.delisted { color: #374151; background: #e5e7eb; }
.reason { background: #fef2f2; border-left: 4px solid var(--danger); padding: 6px 10px; margin: 8px 0; }
.notes { background: #f1f5f9; border-left: 4px solid #64748b; padding: 6px 10px; margin: 8px 0; }
.note { background: #eff6ff; border: 1px solid #bfdbfe; border-radius: var(--radius); padding: 10px 14px; margin: 12px 0; }
.note.full { background: #fffbeb; border-color: #fcd34d; }
form.stack { display: grid; gap: 14px; max-width: 640px; }
.field { display: grid; gap: 4px; }
.field label, fieldset legend { font-weight: 600; }
.hint { color: var(--muted); font-size: 0.88em; margin: 0; }
.field-error { color: var(--danger); font-size: 0.9em; margin: 0; font-weight: 600; }
input[type="text"], input[type="url"], input[type="email"], textarea, select {
  font: inherit; padding: 7px 9px; border: 1px solid #8a94a6; border-radius: 6px; background: #fff; color: var(--fg);
  width: 100%;
}
textarea { min-height: 84px; resize: vertical; }
[aria-invalid="true"] { border-color: var(--danger); box-shadow: 0 0 0 1px var(--danger); }
fieldset { border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 14px; margin: 0; }
.choices { display: grid; gap: 6px; }
.choice { display: flex; gap: 8px; align-items: flex-start; font-weight: 400; }
.choice input { margin-top: 4px; }
.chains { display: grid; grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: 4px 10px; }
.chains label { display: flex; gap: 6px; align-items: center; font-weight: 400; }
button {
  font: inherit; padding: 7px 14px; border-radius: 6px; border: 1px solid #64748b; background: #fff; color: var(--fg);
  cursor: pointer;
}
button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); font-weight: 600; }
button.danger { background: var(--danger); color: #fff; border-color: var(--danger); }
button:disabled { opacity: 0.6; cursor: not-allowed; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.refresh { margin-bottom: 16px; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.confirm { border: 1px solid #fca5a5; background: #fef2f2; border-radius: var(--radius); padding: 10px 12px; margin-top: 8px; }
.alert { color: #7f1d1d; background: #fee2e2; border: 1px solid #fca5a5; border-radius: var(--radius); padding: 8px 12px; margin: 0; }
.success { color: #14532d; background: #dcfce7; border: 1px solid #86efac; border-radius: var(--radius); padding: 8px 12px; }
.status-line:empty { display: none; }
dialog.secret {
  border: 1px solid var(--line); border-radius: 10px; padding: 20px 22px; max-width: 560px; width: calc(100% - 32px);
}
dialog.secret::backdrop { background: rgba(15, 23, 42, 0.55); }
.secret-row { display: flex; gap: 8px; margin: 12px 0; }
.secret-row input { flex: 1; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.once { font-weight: 700; color: var(--warn); }
.usage { margin-top: 10px; border-top: 1px dashed var(--line); padding-top: 10px; }
.usage h5 { margin: 0 0 4px; font-size: 0.95rem; }
figure.chart { margin: 6px 0 0; position: relative; }
figure.chart > svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
figure.chart svg text { fill: var(--muted); }
figure.chart figcaption { font-size: 0.88em; display: flex; gap: 14px; flex-wrap: wrap; align-items: center; }
.chart-empty { color: var(--muted); margin: 6px 0; }
/* Usage per tool and document (usage.tsx) */
.operations-usage { margin-top: 12px; }
.table-scroll { overflow-x: auto; }
table.operations { border-collapse: collapse; width: 100%; margin: 4px 0; font-size: 0.9em; }
table.operations th, table.operations td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; }
table.operations th[scope="row"], table.operations thead th:first-child { text-align: left; overflow-wrap: anywhere; }
table.operations th[scope="row"] .muted { display: block; font-weight: 400; font-size: 0.9em; }
.sr-only {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0);
  white-space: nowrap; border: 0;
}
/* Apps (apps*.tsx) */
.app-card { min-width: 0; overflow-wrap: anywhere; }
.app-card > h5 { margin: 14px 0 4px; font-size: 0.95rem; }
.app-card select, .app-card input[type="file"] { max-width: 100%; min-width: 0; }
.versions, .app-keys, ul.origins { list-style: none; padding: 0; margin: 6px 0; display: grid; gap: 8px; }
.versions li { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; }
.versions .version-name { overflow-wrap: anywhere; }
.app-keys li { border-top: 1px dashed var(--line); padding-top: 8px; }
.app-card select { width: auto; }
form.publish { border-top: 1px dashed var(--line); margin-top: 12px; padding-top: 10px; max-width: none; }
form.publish h5 { margin: 0; font-size: 0.95rem; }
input[type="file"] { font: inherit; max-width: 100%; }
pre.cmd { white-space: pre-wrap; overflow-wrap: anywhere; background: #f1f5f9; padding: 8px 10px; border-radius: 6px; }
@media (prefers-reduced-motion: no-preference) { button { transition: background 0.15s; } }
`;

/** Adds the stylesheet once. */
export function injectStyles(): void {
  if (document.getElementById('portal-css')) return;
  const el = document.createElement('style');
  el.id = 'portal-css';
  el.textContent = PORTAL_CSS;
  document.head.appendChild(el);
}
