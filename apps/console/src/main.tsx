import { render } from 'preact';
import { App } from './app';
import './base.css';
import './views.css';
import './studio.css';

render(<App />, document.getElementById('app')!);
