import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { listenForInstall } from './lib/install.svelte';

listenForInstall();

const app = mount(App, { target: document.getElementById('app')! });
// The e2e test reads this mark as the first render time.
performance.mark('ddz-first-render');
export default app;
