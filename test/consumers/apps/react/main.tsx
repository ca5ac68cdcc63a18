// React 19 with the kit's typed wrappers: properties as props, events as typed `on…` props.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { StoreUploader } from 'store-upload-kit/react';
import { pageConfig, reportIds } from '../shared-page.ts';

const config = pageConfig();

function App() {
  const [rejected, setRejected] = useState<string[]>([]);
  return (
    <main>
      <StoreUploader
        baseUrl={config.serviceUrl}
        token={config.token}
        onChange={(event) => reportIds(event.currentTarget.value)}
        onFilesReject={(event) => setRejected(event.detail.files.map((f) => f.relativePath))}
      />
      {rejected.length > 0 && <p role="alert">Not accepted: {rejected.join(', ')}</p>}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
