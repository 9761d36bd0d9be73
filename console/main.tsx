import { render } from 'preact';
import { App } from './App.js';
import { startRouter } from './lib/router.js';
import { resume } from './lib/session.js';
import '../playground/styles.css';
import './styles.css';

startRouter();
void resume();
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
