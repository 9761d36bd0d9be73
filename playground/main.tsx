import { render } from 'preact';
import { App } from './App.js';
import { Editor } from './components/lazy.js';
import { startGoogle } from './lib/google-start.js';
import { startTheme } from './lib/theme.js';
import { startUrlSync } from './lib/url-sync.js';
import './styles.css';

startTheme();
void Editor.preload();
// The hash is decoded before the first render, so a shared link never flashes the default example.
await startUrlSync();
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
startGoogle();
