/** Mounts the React demo. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { readDemoConfig } from '../config.ts';

const root = document.getElementById('root');
if (!root) throw new Error('demo/react/index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App config={readDemoConfig()} />
  </StrictMode>,
);
