/** The dashboard's stylesheet (inline `<style>`: the page's CSP allows inline styles, not other origins). */
export const STYLES = `
:root { color-scheme: light; --fg: #1c1c1c; --muted: #555; --line: #d4d7dd; --bg: #f6f7f9; --accent: #1d4ed8;
  --ok: #1a7f37; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
header.top { background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
header.top .bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem;
  max-width: 1200px; margin: 0 auto; padding: .6rem 1rem; flex-wrap: wrap; }
header.top h1 { font-size: 1.25rem; margin: 0; }
header.top nav { max-width: 1200px; margin: 0 auto; padding: 0 1rem .5rem; display: flex; gap: 1.2rem; }
header.top nav a { color: var(--accent); }
main { max-width: 1200px; margin: 0 auto; padding: 1rem; }
h2 { font-size: 1.2rem; margin: 1.6rem 0 .6rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
h4 { font-size: .98rem; margin: 0 0 .4rem; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eef0f3; padding: 0 .25em;
  border-radius: 3px; overflow-wrap: anywhere; }
a { color: var(--accent); }
.area { scroll-margin-top: 6rem; }
.panel, .chart-box { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .9rem 1rem;
  margin-bottom: 1rem; }
.panel-head { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
.panel-head h3 { margin: .2rem 0; }
.queues { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1rem; }
.queues .panel { margin-bottom: 0; }
.items { list-style: none; padding: 0; margin: .5rem 0 0; display: grid; gap: .8rem; }
.item { border: 1px solid var(--line); border-radius: 6px; padding: .7rem .8rem; }
.item dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem; margin: .3rem 0 .6rem; }
.item dt { color: var(--muted); }
.item dd { margin: 0; overflow-wrap: anywhere; }
.item dd.text { white-space: pre-wrap; }
label { display: block; font-weight: 600; margin: .4rem 0 .2rem; }
label.inline { display: inline-flex; align-items: center; gap: .4rem; margin: 0; }
textarea, input, select { font: inherit; color: inherit; border: 1px solid #8a8f98; border-radius: 5px;
  padding: .35rem .5rem; background: #fff; }
textarea, .signin input { width: 100%; }
[aria-invalid="true"] { border-color: var(--bad); outline: 1px solid var(--bad); }
.hint { color: var(--muted); font-size: .86rem; margin: .2rem 0; }
.field-error, .error { color: var(--bad); font-weight: 600; margin: .3rem 0; }
.actions { display: flex; gap: .6rem; margin-top: .5rem; flex-wrap: wrap; }
button { font: inherit; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 5px;
  padding: .38rem .85rem; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.approve { background: var(--ok); border-color: var(--ok); }
button.reject { background: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .6; cursor: default; }
button:focus-visible, a:focus-visible, textarea:focus-visible, input:focus-visible, select:focus-visible,
summary:focus-visible, h3:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.status { position: sticky; top: 5.2rem; z-index: 1; margin: 0 0 .5rem; min-height: 1.5em; }
.status:not(:empty) { background: #e8f0fe; border: 1px solid #9db7f5; border-radius: 6px; padding: .45rem .7rem; }
.muted { color: var(--muted); }
.count { color: var(--muted); font-weight: 400; }
.decisions { margin: 0; padding-left: 1.1rem; }
.badge { display: inline-block; font-size: .78rem; font-weight: 700; text-transform: uppercase; padding: 0 .4em;
  border-radius: 3px; border: 1px solid currentColor; }
.decision.approved .badge { color: var(--ok); }
.decision.rejected .badge { color: var(--bad); }
.decision.gone .badge { color: var(--muted); }
.toolbar { display: flex; align-items: center; gap: .8rem; flex-wrap: wrap; margin: .3rem 0 .8rem; }
.spans { display: inline-flex; gap: 0; }
.spans button { border-radius: 0; background: #fff; color: var(--accent); margin-left: -1px; min-width: 3rem; }
.spans button:first-child { border-radius: 5px 0 0 5px; }
.spans button:last-child { border-radius: 0 5px 5px 0; }
.spans button[aria-pressed="true"] { background: var(--accent); color: #fff; font-weight: 700; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; }
.charts .chart-box { margin: 0; }
.market { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; }
.market .chart-box { margin: 0; }
.market .rules { grid-column: 1 / -1; }
@media (max-width: 900px) { .market { grid-template-columns: 1fr; } .charts, .queues { grid-template-columns: 1fr; } }
.rule-list { padding-left: 1.2rem; margin: .2rem 0 .6rem; }
.rule-list li { padding: .2rem .3rem; border-radius: 4px; }
.rule-list li.active { background: #e8f0fe; outline: 1px solid #9db7f5; }
.pill { font-weight: 700; color: var(--accent); }
.resolution { border-top: 1px solid var(--line); padding-top: .5rem; }
.summary { color: var(--muted); margin: 0 0 .4rem; font-size: .92rem; }
.big-number strong { font-size: 2rem; margin-right: .3rem; }
figure.chart { margin: 0; }
figure.chart svg { display: block; max-width: 100%; height: auto; background: #fff; }
figure.chart svg text { fill: #222; }
figcaption { font-size: .86rem; color: var(--muted); }
.legend { margin-right: .8rem; }
.chart-empty { color: var(--muted); font-style: italic; padding: 1rem 0; }
details { margin-top: .4rem; }
summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
.scroll { max-height: 260px; overflow: auto; }
table { border-collapse: collapse; font-size: .86rem; margin-top: .3rem; }
caption { text-align: left; font-weight: 600; }
th, td { border-bottom: 1px solid var(--line); padding: .15rem .6rem; text-align: left; }
td { font-variant-numeric: tabular-nums; }
.coins { columns: 3 12rem; margin: .3rem 0; }
.admins { margin: 0; padding-left: 1.1rem; }
.signin { max-width: 560px; }
.forbidden { border-color: var(--bad); }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;
