/**
 * The widget's own styles, in its shadow root: nothing leaks in from the host page (the page's selectors cannot reach
 * inside, and the card resets every inherited property with `all: initial`) and nothing leaks out. Responsive by the
 * widget's own width (a container query), not the window's: one column when narrow, inputs beside results from
 * 640 px. Host pages may theme it with the `--cw-*` custom properties (the only thing that crosses the boundary) and
 * style the exposed `part`s (`card`, `inputs`, `results`, `network`, `sources`).
 */
export const STYLES = `
:host {
  all: initial;
  display: block;
  container-type: inline-size;
}
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; }
/*
 * Inherited properties are reset here, not on :host: a page rule on the element itself (even \`* { … }\`) wins over
 * :host, but cannot reach this card. Everything inside inherits from the card only.
 */
.card {
  all: initial;
  display: block;
  font: 15px/1.45 var(--cw-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  color: var(--cw-fg, #1b1f24);
  text-align: left;
  background: var(--cw-bg, #ffffff);
  border: 1px solid var(--cw-border, #c4cad3);
  border-radius: 10px;
  padding: 16px;
}
h2 { font-size: 1.15rem; line-height: 1.3; margin: 0; }
.sub { color: var(--cw-muted, #4a5361); margin: 2px 0 12px; font-size: 0.9rem; }
.layout { display: grid; gap: 8px 24px; grid-template-columns: minmax(0, 1fr); }
@container (min-width: 640px) {
  .layout { grid-template-columns: minmax(240px, 2fr) minmax(0, 3fr); }
}
form { margin: 0; }
.field { display: flex; flex-direction: column; gap: 4px; margin: 0 0 12px; }
label { font-weight: 600; font-size: 0.9rem; }
input, select, button { font: inherit; color: inherit; }
input, select {
  min-height: 40px;
  width: 100%;
  padding: 7px 10px;
  border: 1px solid #6b7482;
  border-radius: 6px;
  background: #ffffff;
}
.pair { display: flex; gap: 8px; }
.pair input { flex: 1 1 auto; min-width: 0; }
.pair select { flex: 0 0 7.5em; width: 7.5em; }
:focus-visible { outline: 3px solid var(--cw-accent, #0b5cad); outline-offset: 2px; }
[aria-invalid="true"] { border-color: #b3261e; border-width: 2px; }
.field-error { color: #a1231b; font-size: 0.85rem; margin: 0; }
h3 { font-size: 1rem; margin: 4px 0 6px; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 700; padding: 0 0 6px; }
th, td { padding: 6px 4px; text-align: right; border-bottom: 1px solid #e1e4e8; }
td { white-space: nowrap; }
@container (max-width: 420px) {
  table { font-size: 0.86rem; }
  th, td { padding: 6px 2px; }
}
thead th { font-size: 0.82rem; color: var(--cw-muted, #4a5361); font-weight: 600; }
th[scope="row"] { text-align: left; font-weight: 600; }
td.loss { color: #a1231b; }
td.gain { color: #1d6a32; }
dl { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 4px 12px; margin: 0; }
dt { color: var(--cw-muted, #4a5361); }
dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.network { margin-top: 14px; }
.notes { margin: 10px 0 0; padding: 0; list-style: none; }
.notes li, .notice, .alert, .status {
  padding: 8px 10px;
  border-radius: 6px;
  margin: 8px 0 0;
  font-size: 0.9rem;
}
.notes li, .notice { background: #fff6dc; border: 1px solid #d9b95a; }
.alert { background: #fdecea; border: 1px solid #d99790; }
.status { background: #eef3fa; border: 1px solid #b7c8e0; }
.alert button { margin-left: 8px; }
button {
  min-height: 36px;
  padding: 5px 12px;
  border-radius: 6px;
  border: 1px solid var(--cw-accent, #0b5cad);
  background: var(--cw-accent, #0b5cad);
  color: #ffffff;
  cursor: pointer;
}
.sources { margin: 12px 0 0; font-size: 0.82rem; color: var(--cw-muted, #4a5361); }
.sources p { margin: 2px 0; }
.sr-only {
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
`;
