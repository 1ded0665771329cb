// The app's entry: its styles, and the app drawn into the shell's #root.
import { render } from 'preact';
import { App } from './app.tsx';
import './style.css';

const root = document.getElementById('root');
if (root) render(<App />, root);
