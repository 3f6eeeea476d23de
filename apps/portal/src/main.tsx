import { render } from 'preact';
import { App } from './app';
import './estilo.css';

render(<App />, document.getElementById('app')!);
