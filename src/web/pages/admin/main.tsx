/// <reference lib="dom" />
/** The administrator dashboard's entry (`/web/admin.js`, bundled by src/server/browser/web-build.ts): see app.tsx. */
import { render } from 'preact';
import { App } from './app.tsx';

const root = document.getElementById('app');
if (root) render(<App />, root);
